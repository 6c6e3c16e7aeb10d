import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
    { name: 'confirm', description: 'Asks for confirmation', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
    { name: 'roots', description: 'Counts roots', inputSchema: { type: 'object', properties: { text: { type: 'string' }, what: { type: 'string' } } } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async request => {
  const args = request.params.arguments ?? {};
  let text = '';
  switch (request.params.name) {
    case 'echo':
      text = String(args.text ?? '');
      break;
    case 'confirm': {
      const what = String(args.what ?? 'it');
      const answer = await server.elicitInput({
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
      const { roots } = await server.listRoots();
      text = `${roots.length} roots`;
      break;
    }
    default:
      throw new Error(`unknown tool ${request.params.name}`);
  }
  return { content: [{ type: 'text', text: `[${request.params.name}] ${text}` }] };
});
