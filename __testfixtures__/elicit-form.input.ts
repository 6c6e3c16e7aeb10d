import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.tool('confirm-delete', { path: z.string() }, async ({ path }) => {
  // Ask before deleting anything.
  const answer = await server.server.elicitInput({
    message: `Delete ${path}?`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  if (answer.action !== 'accept' || answer.content?.confirm !== true) {
    return { content: [{ type: 'text', text: `Kept ${path} (${answer.action})` }] };
  }
  return { content: [{ type: 'text', text: `Deleted ${path}` }] };
});

await server.connect(new StdioServerTransport());
