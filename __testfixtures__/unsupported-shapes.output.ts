import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { resumeCall, rootsResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerTool('timed', { description: 'Keeps a Date across the await' }, async () => {
  const started = new Date();
  // mcp-migrate: tools/call timed not migrated: local "started" (a Date) is live across the await and cannot travel in requestState; recompute it after the await or keep it in a server-side store
  const answer = await server.server.elicitInput({ message: 'Ready?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: `${answer.action} after ${Date.now() - started.getTime()}ms` }] };
});

server.registerTool('cleanup', { description: 'Asks in finally' }, async () => {
  let status = 'started';
  try {
    status = 'done';
    return { content: [{ type: 'text', text: status }] };
  } finally {
    // mcp-migrate: tools/call cleanup this roots request is left as it is (2025-era clients only): the await is inside a finally block, which runs as the try is left and cannot wait for a later round; move the request after the try statement or migrate by hand
    const { roots } = await server.server.listRoots();
    console.error(`${status} in ${roots.length} roots`);
  }
});

server.registerTool('fan-out', { inputSchema: z.object({ topics: z.array(z.string()) }) }, async ({ topics }) => {
  const results = await Promise.all(
    topics.map(async topic => {
      // mcp-migrate: sampling request in a callback passed to map(): the await is inside a callback the handler passes on; await it directly in the handler body
      const r = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: topic } }], maxTokens: 5 });
      return r.model;
    }),
  );
  return { content: [{ type: 'text', text: results.join(', ') }] };
});

server.registerTool('both', { description: 'Two awaits in a loop condition' }, async () => {
  let rounds = 0;
  // mcp-migrate: tools/call both this roots request is left as it is (2025-era clients only): two server-initiated requests are awaited in one statement; split it into one await per statement
  while ((await server.server.listRoots()).roots.length > rounds && (await server.server.listRoots()).roots.length < 3) {
    rounds++;
  }
  return { content: [{ type: 'text', text: `${rounds}` }] };
});

// One site cannot be split out (for await over a generator); the other is still rewritten, the first left and marked.
async function* pending(flags: Record<string, boolean>) {
  for (const flag of Object.keys(flags)) if (flags[flag]) yield flag;
}

server.registerTool('mixed', { inputSchema: z.object({ flags: z.record(z.string(), z.boolean()) }) }, async ({ flags }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type MixedStep = { step: 'awaiting-roots'; seen: string[] };
  const call = resumeCall<MixedStep>(ctx, 'mixed', { flags });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const seen: string[] = [];
      for await (const flag of pending(flags)) {
        // mcp-migrate: tools/call mixed this elicitation request is left as it is (2025-era clients only): the await is inside a for await...of over an iterable of type AsyncGenerator<string, void, unknown>, not an array: its position cannot travel in requestState; collect the items into an array before the loop, or migrate by hand
        const answer = await server.server.elicitInput({ message: `Keep ${flag}?`, requestedSchema: { type: 'object', properties: {} } });
        seen.push(`${flag}:${answer.action}`);
      }
      return call.suspend({ step: 'awaiting-roots', seen }, {
        roots: inputRequired.listRoots(),
      });
    }
    if (resumed.step === 'awaiting-roots') {
      const seen = resumed.seen;
      const { roots } = rootsResult(ctx, 'roots');
      return { content: [{ type: 'text', text: `${seen.join(',')} in ${roots.length} roots` }] };
    }
    throw call.unknownStep(resumed);
  });
});
