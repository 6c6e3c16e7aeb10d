import {
  McpServer as Mcp,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const mcp = new Mcp({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const choiceSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] };

mcp.registerTool('pick', { description: 'Picks a colour' }, async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'pick', undefined);
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        choice: inputRequired.elicit({
          message: 'Pick a colour',
          requestedSchema: choiceSchema,
        }),
      });
    }
    if (resumed.phase === 1) {
      const choice = elicitResult(ctx, 'choice', choiceSchema);
      return { content: [{ type: 'text', text: choice.action === 'accept' ? String(choice.content?.colour) : 'none' }] };
    }
    throw call.unknownPhase(resumed);
  });
});

export default mcp;
