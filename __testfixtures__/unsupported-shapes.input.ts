import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('survey', { inputSchema: { questions: z.array(z.string()) } }, async ({ questions }) => {
  const answers: string[] = [];
  for (const question of questions) {
    const answer = await server.server.elicitInput({ message: question, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    answers.push(answer.action === 'accept' ? String(answer.content?.a) : '-');
  }
  return { content: [{ type: 'text', text: answers.join(', ') }] };
});

server.registerTool('careful', { description: 'Samples with a fallback' }, async () => {
  try {
    const result = await server.server.createMessage({ messages: [], maxTokens: 5 });
    return { content: [{ type: 'text', text: result.model }] };
  } catch {
    return { content: [{ type: 'text', text: 'no sampling' }] };
  }
});

server.registerTool('timed', { description: 'Keeps a Date across the await' }, async () => {
  const started = new Date();
  const answer = await server.server.elicitInput({ message: 'Ready?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: `${answer.action} after ${Date.now() - started.getTime()}ms` }] };
});
