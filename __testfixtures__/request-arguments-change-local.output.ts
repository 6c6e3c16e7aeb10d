import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-arguments-change-local', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's message increments `asked`, which is read after the answer: a local, counted again from 0 on
// each round, so the retry asks the same question and reads the same count after it.
resumable(server).registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  let asked = 0;
  const answer = await ask(server.server, 'answer').elicitInput({ message: `${subject}: question ${++asked}`, requestedSchema: confirmSchema });
  return { content: [{ type: 'text', text: `${answer.action} after ${asked} question(s)` }] };
});
