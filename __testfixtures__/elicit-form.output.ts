import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('confirm-delete', { inputSchema: z.object({ path: z.string() }) }, async ({ path }) => {
  // Ask before deleting anything.
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Delete ${path}?`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  if (answer.action !== 'accept' || answer.content?.confirm !== true) {
    return { content: [{ type: 'text', text: `Kept ${path} (${answer.action})` }] };
  }
  return { content: [{ type: 'text', text: `Deleted ${path}` }] };
});

serveStdio(() => server);
