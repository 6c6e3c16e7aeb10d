// Out of reach, marked with why: a request inside a generator, and inside callbacks passed to
// functions the handler calls (map, a library's run).
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const server = new McpServer({ name: 'g', version: '1' });

async function* askAll(names: string[]) {
  for (const n of names) {
    // mcp-migrate: elicitation request in generator askAll(): a generator hands out its results one yield at a time, which phases cannot resume; await the requests in the handler (a loop there migrates) and keep the generator for the rest
    yield await server.server.elicitInput({ message: `About ${n}?`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
  }
}

server.registerTool('gen', { inputSchema: z.object({ names: z.array(z.string()) }) }, async ({ names }) => {
  const out: string[] = [];
  // mcp-migrate: askAll() is not inlined: it is a generator, so its elicitation request is not migrated; migrate it by hand
  for await (const r of askAll(names)) out.push(r.action);
  return { content: [{ type: 'text', text: out.join(',') }] };
});

server.registerTool('cb', { inputSchema: z.object({ names: z.array(z.string()) }) }, async ({ names }) => {
  // mcp-migrate: elicitation request in a callback passed to map(): the await is inside a callback the handler passes on; await it directly in the handler body
  const results = await Promise.all(names.map(async n => server.server.elicitInput({ message: n, requestedSchema: { type: 'object', properties: {} } })));
  // mcp-migrate: sampling request in a callback passed to run(), which is not the project's own function (its body cannot be read); move the request out of the callback: await it in the handler before calling run(), and hand the answer in
  await someLib.run(async () => { await server.server.createMessage({ messages: [], maxTokens: 1 }); });
  return { content: [{ type: 'text', text: String(results.length) }] };
});
declare const someLib: { run(f: () => Promise<void>): Promise<void> };
