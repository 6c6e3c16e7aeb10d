import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-arguments-closure-counter', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's message is made by a function of the handler that counts the questions in `counter`, read after
// the answer: the function and its counter are made again on each round, so the count reads the same.
resumable(server).registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  let counter = 0;
  const question = (text: string) => `${text} (question ${++counter})`;
  const answer = await ask(server.server, 'answer').elicitInput({ message: question(`Go ahead with ${subject}?`), requestedSchema: confirmSchema });
  return { content: [{ type: 'text', text: `${answer.action} after ${counter} question(s)` }] };
});
