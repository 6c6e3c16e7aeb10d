// Questions where a split into steps could not go (a Date kept across one, a question in a finally, in
// callbacks under Promise.all, two in a loop's condition, one in a for await over a generator): each is asked
// where it is written. The Date, made before its question, is journaled: the same on every round.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('timed', { description: 'Keeps a Date across the await' }, async () => {
  const started = journaled(() => new Date());
  const answer = await ask(server.server, 'answer').elicitInput({ message: 'Ready?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: `${answer.action} after ${Math.round((Date.now() - started.getTime()) / 3_600_000)} h` }] };
});

resumable(server).registerTool('cleanup', { description: 'Asks in finally' }, async () => {
  let status = 'started';
  try {
    status = 'done';
    return { content: [{ type: 'text', text: status }] };
  } finally {
    const { roots } = await ask(server.server).listRoots();
    console.error(`${status} in ${roots.length} roots`);
  }
});

resumable(server).registerTool('fan-out', { inputSchema: z.object({ topics: z.array(z.string()) }) }, async ({ topics }) => {
  const results = await Promise.all(
    topics.map(async topic => {
      const r = await ask(server.server, 'r').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: topic } }], maxTokens: 5 });
      return r.model;
    }),
  );
  return { content: [{ type: 'text', text: results.join(', ') }] };
});

resumable(server).registerTool('both', { description: 'Two awaits in a loop condition' }, async () => {
  let rounds = 0;
  while ((await ask(server.server).listRoots()).roots.length > rounds && (await ask(server.server).listRoots()).roots.length < 3) {
    rounds++;
  }
  return { content: [{ type: 'text', text: `${rounds}` }] };
});

// A question in a for await over a generator, and one after the loop: the generator runs again on each round.
async function* pending(flags: Record<string, boolean>) {
  for (const flag of Object.keys(flags)) if (flags[flag]) yield flag;
}

resumable(server).registerTool('mixed', { inputSchema: z.object({ flags: z.record(z.string(), z.boolean()) }) }, async ({ flags }) => {
  const seen: string[] = [];
  for await (const flag of pending(flags)) {
    const answer = await ask(server.server, 'answer').elicitInput({ message: `Keep ${flag}?`, requestedSchema: { type: 'object', properties: {} } });
    seen.push(`${flag}:${answer.action}`);
  }
  const { roots } = await ask(server.server).listRoots();
  return { content: [{ type: 'text', text: `${seen.join(',')} in ${roots.length} roots` }] };
});
