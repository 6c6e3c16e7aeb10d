import { McpServer } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function askName(): Promise<string> {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

// The Promise.all awaits, beside its question, a helper that asks a question of its own: both questions are
// asked where they are written, and on a 2026-07-28 client they go out together, in one round.
resumable(server).registerTool('start', { description: 'Asks to go on and for a name at once' }, async () => {
  const [go, name] = await Promise.all([ask(server.server, 'go').elicitInput({ message: 'Go on?', requestedSchema: okSchema }), askName()]);
  return { content: [{ type: 'text', text: `${go.action} ${name}` }] };
});
