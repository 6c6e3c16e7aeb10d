import { McpServer } from '@modelcontextprotocol/server';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function askName(): Promise<string> {
  // mcp-migrate: elicitation request in helper askName(), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
  const answer = await server.server.elicitInput({
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

// The Promise.all awaits, beside its question, a helper that asks a question of its own: awaited where the
// round suspends, it would ask push-style there. The Promise.all is left as it is (the report lists both the
// question and the helper call, each with its marker above the statement).
server.registerTool('start', { description: 'Asks to go on and for a name at once' }, async () => {
  // mcp-migrate: askName() is not inlined: the call is not awaited where it is made, so its elicitation request is not migrated
  // mcp-migrate: tools/call start this elicitation request is left as it is (2025-era clients only): the Promise.all also awaits askName(), which sends a request itself; await it in a statement of its own
  const [go, name] = await Promise.all([server.server.elicitInput({ message: 'Go on?', requestedSchema: okSchema }), askName()]);
  return { content: [{ type: 'text', text: `${go.action} ${name}` }] };
});
