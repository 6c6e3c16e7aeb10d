import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'request-arguments-closure-counter', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's message is made by a function of the handler that counts the questions in `counter`, read after
// the answer: the function and its counter are made again on each round, so the count reads the same.
server.registerTool('confirm', { inputSchema: { subject: z.string() } }, async ({ subject }) => {
  let counter = 0;
  const question = (text: string) => `${text} (question ${++counter})`;
  const answer = await server.server.elicitInput({ message: question(`Go ahead with ${subject}?`), requestedSchema: confirmSchema });
  return { content: [{ type: 'text', text: `${answer.action} after ${counter} question(s)` }] };
});
