import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'ask', description: 'Asks the user', inputSchema: { type: 'object', properties: {} } }],
}));

server.setRequestHandler(CallToolRequestSchema, async request => {
  const topic = String(request.params.arguments?.topic ?? 'anything');
  const answer = await server.elicitInput({
    message: `Tell me about ${topic}`,
    requestedSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' ? String(answer.content?.text) : 'nothing' }] };
});

export { server };
