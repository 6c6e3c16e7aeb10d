import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

// The README's example: README.md shows the handler before and after, test/docs.test.ts keeps them this fixture's.
export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('greet', { inputSchema: { name: z.string() } }, async ({ name }) => {
  const answer = await server.server.elicitInput({
    message: 'How are you feeling?',
    requestedSchema: { type: 'object', properties: { mood: { type: 'string' } } },
  });
  return { content: [{ type: 'text', text: `${name}: ${answer.action} ${answer.content?.mood ?? ''}` }] };
});
