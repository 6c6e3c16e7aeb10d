// Out of reach, marked with why: a request inside a generator, and inside callbacks passed to
// functions the handler calls (map, a library's run).
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
declare const someLib: { run(f: () => Promise<void>): Promise<void> };
