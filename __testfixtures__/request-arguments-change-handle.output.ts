import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-arguments-change-handle', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

class Counter {
  count = 0;
}

// The request's message increments a field of a class instance the handler makes: each round makes the
// instance and builds the question again, so the retry asks what the first round asked and finds its answer.
resumable(server).registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  const asked = new Counter();
  const answer = await ask(server.server, 'answer').elicitInput({ message: `${subject}: question ${++asked.count}`, requestedSchema: confirmSchema });
  return { content: [{ type: 'text', text: `${answer.action} after ${asked.count} question(s)` }] };
});
