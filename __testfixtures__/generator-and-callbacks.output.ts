// SDK 2.x push-style requests inside a generator the handler iterates, and inside callbacks handed to
// functions it calls (map under Promise.all, a runner's run): each is asked where it is written. The questions
// of one Promise.all go out together, in one round; the generator's are asked one round at a time.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'g', version: '1' }, { requestState: { verify: verifyRequestState } });

async function* askAll(names: string[]) {
  for (const n of names) {
    yield await ask(server.server).elicitInput({ message: `About ${n}?`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
  }
}

resumable(server).registerTool('gen', { inputSchema: z.object({ names: z.array(z.string()) }) }, async ({ names }) => {
  const out: string[] = [];
  for await (const r of askAll(names)) out.push(r.action);
  return { content: [{ type: 'text', text: out.join(',') }] };
});

resumable(server).registerTool('cb', { inputSchema: z.object({ names: z.array(z.string()) }) }, async ({ names }) => {
  const results = await Promise.all(names.map(async n => ask(server.server).elicitInput({ message: n, requestedSchema: { type: 'object', properties: {} } })));
  await someLib.run(async () => { await ask(server.server).createMessage({ messages: [], maxTokens: 1 }); });
  return { content: [{ type: 'text', text: String(results.length) }] };
});

/** A runner the handler hands a callback to: it runs it. */
const someLib: { run(f: () => Promise<void>): Promise<void> } = { run: f => f() };
