import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fixture', version: '1.0.0' });

let cachedRoots: string[] = [];

server.server.oninitialized = async () => {
  const { roots } = await server.server.listRoots();
  cachedRoots = roots.map(r => r.uri);
};

async function askName(): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

server.registerTool('hello', { inputSchema: { greeting: z.string() } }, async ({ greeting }) => {
  const name = await askName();
  return { content: [{ type: 'text', text: `${greeting}, ${name} (${cachedRoots.length} roots)` }] };
});

export { server };

type Send = (request: { method: string; params?: Record<string, unknown> }) => Promise<unknown>;

async function sampleWith(send: Send, text: string): Promise<unknown> {
  return send({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 5 } });
}

server.registerTool('delegate', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
  const result = await sampleWith(request => extra.sendRequest(request as never, {} as never), text);
  const direct = await sampleWith(extra.sendRequest as never, text);
  return { content: [{ type: 'text', text: `${String(result)} ${String(direct)}` }] };
});

/** Exported, and no handler here calls it: marked, since nothing shows it runs where a request is served. */
export async function askAge(): Promise<number> {
  const answer = await server.server.elicitInput({ message: 'Age?', requestedSchema: { type: 'object', properties: { age: { type: 'number' } } } });
  return answer.action === 'accept' ? Number(answer.content?.age) : 0;
}

/** Recursive: each level asks where it is written, one round per question. */
async function askUntilYes(tries: number): Promise<boolean> {
  const answer = await server.server.elicitInput({ message: 'Ready?', requestedSchema: { type: 'object', properties: { ready: { type: 'boolean' } } } });
  if (answer.action === 'accept' || tries <= 1) return answer.action === 'accept';
  return askUntilYes(tries - 1);
}

server.registerTool('insist', { description: 'Asks until yes' }, async () => {
  const ready = await askUntilYes(3);
  return { content: [{ type: 'text', text: String(ready) }] };
});

/** Registered by name and also called directly: called from greetTwice(), outside a request, it asks push-style (a note says so). */
async function askNickname() {
  const answer = await server.server.elicitInput({
    message: 'Your nickname?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return { content: [{ type: 'text' as const, text: answer.action === 'accept' ? String(answer.content?.name) : 'anonymous' }] };
}

server.registerTool('ask-name', { description: 'Asks a name' }, askNickname);

export async function greetTwice() {
  return [await askNickname(), await askNickname()];
}
