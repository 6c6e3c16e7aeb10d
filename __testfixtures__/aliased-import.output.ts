import { McpServer as Mcp, inputRequired } from '@modelcontextprotocol/server';
import {
  elicitResult,
  resumeCall,
  suspendCall,
  unknownPhase,
  verifyRequestState,
} from './mcp-migrate-state.js';

const mcp = new Mcp({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

mcp.registerTool('pick', { description: 'Picks a colour' }, async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const resumed = resumeCall(ctx, 'pick', undefined);
  if (resumed.phase === 0) {
    return inputRequired({
      inputRequests: {
        choice: inputRequired.elicit({
          message: 'Pick a colour',
          requestedSchema: { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] },
        }),
      },
      requestState: await suspendCall(ctx, 'pick', undefined, 1, {}),
    });
  }
  if (resumed.phase === 1) {
    const choice = elicitResult(ctx, 'choice', { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] });
    return { content: [{ type: 'text', text: choice.action === 'accept' ? String(choice.content?.colour) : 'none' }] };
  }
  throw unknownPhase('pick', resumed);
});

export default mcp;
