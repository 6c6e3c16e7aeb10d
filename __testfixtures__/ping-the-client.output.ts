import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// A ping of the client before a long job: MCP 2026-07-28 has no such request.
server.registerTool('rebuild', { description: 'Rebuilds the index', inputSchema: z.object({ full: z.boolean() }) }, async ({ full }) => {
  // mcp-migrate: this request is left as it is (2025-era clients only): ping is a request to the client that MCP 2026-07-28 does not have (only elicitation/create, sampling/createMessage and roots/list can be asked, by returning input_required); on a 2026-07-28 request SDK 2.x refuses it. A 2026-07-28 client holds no connection for a ping to keep alive: remove it, or keep it for 2025-era clients behind a check of the protocol version
  await server.server.ping();
  return { content: [{ type: 'text', text: full ? 'rebuilt in full' : 'rebuilt' }] };
});

// A keep-alive: outside any request.
const keepAlive = setInterval(() => {
  // mcp-migrate: this request is left as it is (2025-era clients only): ping is a request to the client that MCP 2026-07-28 does not have (only elicitation/create, sampling/createMessage and roots/list can be asked, by returning input_required); on a 2026-07-28 request SDK 2.x refuses it. A 2026-07-28 client holds no connection for a ping to keep alive: remove it, or keep it for 2025-era clients behind a check of the protocol version
  server.server.ping().catch(() => clearInterval(keepAlive));
}, 30_000);
keepAlive.unref();
