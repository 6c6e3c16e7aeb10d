import { Server, type ListToolsResult } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new Server({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

server.setRequestHandler('tools/list', async (): Promise<ListToolsResult> => ({
  tools: [
    { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
    { name: 'confirm', description: 'Asks for confirmation', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
    { name: 'roots', description: 'Counts roots', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
  ],
}));

resumable(server).setRequestHandler('tools/call', async request => {
  const args = request.params.arguments ?? {};
  let text = '';
  switch (request.params.name) {
    case 'echo':
      text = String(args.text ?? '');
      break;
    case 'confirm': {
      const what = String(args.what ?? 'it');
      const answer = await ask(server, 'answer').elicitInput({
        message: `Confirm ${what}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      if (answer.action !== 'accept') {
        text = `${what}: ${answer.action}`;
        break;
      }
      text = `${what}: ${answer.content?.ok ? 'confirmed' : 'refused'}`;
      break;
    }
    case 'roots': {
      const { roots } = await ask(server).listRoots();
      text = `${roots.length} roots`;
      break;
    }
    default:
      throw new Error(`unknown tool ${request.params.name}`);
  }
  return { content: [{ type: 'text', text: `[${request.params.name}] ${text}` }] };
});
