import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// A ping of the client before a long job: MCP 2026-07-28 has no such request.
server.registerTool('rebuild', { description: 'Rebuilds the index', inputSchema: { full: z.boolean() } }, async ({ full }) => {
  await server.server.ping();
  return { content: [{ type: 'text', text: full ? 'rebuilt in full' : 'rebuilt' }] };
});

// A keep-alive: outside any request.
const keepAlive = setInterval(() => {
  server.server.ping().catch(() => clearInterval(keepAlive));
}, 30_000);
keepAlive.unref();
