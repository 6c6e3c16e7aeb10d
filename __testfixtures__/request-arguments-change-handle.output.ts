import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const server = new McpServer({ name: 'request-arguments-change-handle', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

class Counter {
  count = 0;
}

// The request's message increments a field of a class instance, which cannot travel in requestState: the round
// would not carry the change. The request is left as it is, and marked.
server.registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  const asked = new Counter();
  // mcp-migrate: tools/call confirm this elicitation request is left as it is (2025-era clients only): the request's arguments change the handler's local "asked" (an instance of class Counter), which cannot travel in requestState, so the rewritten round would not carry the change; keep what the arguments change in a plain local (a number, a string, an object literal)
  const answer = await server.server.elicitInput({ message: `${subject}: question ${++asked.count}`, requestedSchema: confirmSchema });
  return { content: [{ type: 'text', text: `${answer.action} after ${asked.count} question(s)` }] };
});
