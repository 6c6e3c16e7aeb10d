import { Server, type ListToolsResult } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new Server({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

server.setRequestHandler('tools/list', async (): Promise<ListToolsResult> => ({
  tools: [
    { name: 'ask', description: 'Asks the user', inputSchema: { type: 'object', properties: {} } },
    { name: 'confirm', description: 'Asks before going on', inputSchema: { type: 'object', properties: {} } },
  ],
}));

resumable(server).setRequestHandler('tools/call', async request => {
  if (request.params.name === 'confirm') {
    // The Server's generic request method, as class-based servers often spell it.
    const reply = await ask(server, 'reply').request(
      { method: 'elicitation/create', params: { message: 'Proceed?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } }
    );
    return { content: [{ type: 'text', text: reply.action === 'accept' && reply.content?.ok ? 'proceeding' : `stopped (${reply.action})` }] };
  }
  const topic = String(request.params.arguments?.topic ?? 'anything');
  const answer = await ask(server, 'answer').elicitInput({
    message: `Tell me about ${topic}`,
    requestedSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' ? String(answer.content?.text) : 'nothing' }] };
});

export { server };
