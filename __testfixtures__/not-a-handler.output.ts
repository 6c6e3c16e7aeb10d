import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

let cachedRoots: string[] = [];

// mcp-migrate: server.server.oninitialized = ... runs once a client has sent initialize, which a 2026-07-28 client never sends (each request carries the client's identity in its own _meta envelope): the callback never fires for one, so what it does never happens for one, and nothing says so; do it when the server is built, or in the handler that needs it, from the request's own envelope (ctx.mcpReq.envelope)
server.server.oninitialized = async () => {
  // mcp-migrate: roots request in server.server.oninitialized: MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read; ask from inside the tool that needs it, or read it lazily there
  const { roots } = await server.server.listRoots();
  cachedRoots = roots.map(r => r.uri);
};

async function askName(): Promise<string> {
  const answer = await ask(server.server, 'answer').elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

resumable(server).registerTool('hello', { inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }) => {
  const name = await askName();
  return { content: [{ type: 'text', text: `${greeting}, ${name} (${cachedRoots.length} roots)` }] };
});

export { server };

type Send = (request: { method: string; params?: Record<string, unknown> }) => Promise<unknown>;

async function sampleWith(send: Send, text: string): Promise<unknown> {
  return send({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 5 } });
}

resumable(server).registerTool('delegate', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  const result = await sampleWith(request => ask(ctx.mcpReq).send(request as never, {} as never), text);
  const direct = await sampleWith(ask(ctx.mcpReq).send as never, text);
  return { content: [{ type: 'text', text: `${String(result)} ${String(direct)}` }] };
});

/** Exported, and no handler here calls it: marked, since nothing shows it runs where a request is served. */
export async function askAge(): Promise<number> {
  // mcp-migrate: elicitation request in helper askAge(), not directly in a handler: only a tools/call, prompts/get or resources/read handler can ask the client on MCP 2026-07-28 (it returns input_required); call it from one, or take what it asks for as an argument
  const answer = await server.server.elicitInput({ message: 'Age?', requestedSchema: { type: 'object', properties: { age: { type: 'number' } } } });
  return answer.action === 'accept' ? Number(answer.content?.age) : 0;
}

/** Recursive: each level asks where it is written, one round per question. */
async function askUntilYes(tries: number): Promise<boolean> {
  const answer = await ask(server.server, 'answer').elicitInput({ message: 'Ready?', requestedSchema: { type: 'object', properties: { ready: { type: 'boolean' } } } });
  if (answer.action === 'accept' || tries <= 1) return answer.action === 'accept';
  return askUntilYes(tries - 1);
}

resumable(server).registerTool('insist', { description: 'Asks until yes' }, async () => {
  const ready = await askUntilYes(3);
  return { content: [{ type: 'text', text: String(ready) }] };
});

/** Registered by name and also called directly: called from greetTwice(), outside a request, it asks push-style (a note says so). */
async function askNickname() {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: 'Your nickname?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return { content: [{ type: 'text' as const, text: answer.action === 'accept' ? String(answer.content?.name) : 'anonymous' }] };
}

resumable(server).registerTool('ask-name', { description: 'Asks a name' }, askNickname);

export async function greetTwice() {
  return [await askNickname(), await askNickname()];
}
