import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function askName(): Promise<string> {
  const answer = await server.server.elicitInput({
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

// The Promise.all awaits, beside its question, a helper that asks a question of its own: both questions are
// asked where they are written, and on a 2026-07-28 client they go out together, in one round.
server.registerTool('start', { description: 'Asks to go on and for a name at once' }, async () => {
  const [go, name] = await Promise.all([server.server.elicitInput({ message: 'Go on?', requestedSchema: okSchema }), askName()]);
  return { content: [{ type: 'text', text: `${go.action} ${name}` }] };
});
