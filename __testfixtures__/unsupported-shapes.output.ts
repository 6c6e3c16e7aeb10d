import { McpServer } from "@modelcontextprotocol/server";
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('survey', { inputSchema: z.object({ questions: z.array(z.string()) }) }, async ({ questions }) => {
  const answers: string[] = [];
  for (const question of questions) {
    // mcp-migrate: tools/call survey not migrated: the await is inside a loop, which this version does not split into phases; lift it out or migrate by hand (line 9)
    const answer = await server.server.elicitInput({ message: question, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    answers.push(answer.action === 'accept' ? String(answer.content?.a) : '-');
  }
  return { content: [{ type: 'text', text: answers.join(', ') }] };
});

server.registerTool('careful', { description: 'Samples with a fallback' }, async () => {
  try {
    // mcp-migrate: tools/call careful not migrated: the await is inside try/catch/finally, which this version does not split into phases; lift it out or migrate by hand (line 17)
    const result = await server.server.createMessage({ messages: [], maxTokens: 5 });
    return { content: [{ type: 'text', text: result.model }] };
  } catch {
    return { content: [{ type: 'text', text: 'no sampling' }] };
  }
});

server.registerTool('timed', { description: 'Keeps a Date across the await' }, async () => {
  const started = new Date();
  // mcp-migrate: tools/call timed not migrated: local "started" (a Date) is live across the await and cannot travel in requestState; recompute it after the await or keep it in a server-side store (line 27)
  const answer = await server.server.elicitInput({ message: 'Ready?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: `${answer.action} after ${Date.now() - started.getTime()}ms` }] };
});
