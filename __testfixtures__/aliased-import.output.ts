import { McpServer as Mcp } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const mcp = new Mcp({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(mcp).registerTool('pick', { description: 'Picks a colour' }, async () => {
  const choice = await ask(mcp.server, 'choice').elicitInput({
    message: 'Pick a colour',
    requestedSchema: { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] },
  });
  return { content: [{ type: 'text', text: choice.action === 'accept' ? String(choice.content?.colour) : 'none' }] };
});

export default mcp;
