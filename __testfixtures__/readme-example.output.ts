import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// The README's example: README.md shows the handler before and after, test/docs.test.ts keeps them this fixture's.
export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: 'How are you feeling?',
    requestedSchema: { type: 'object', properties: { mood: { type: 'string' } } },
  });
  return { content: [{ type: 'text', text: `${name}: ${answer.action} ${answer.content?.mood ?? ''}` }] };
});
