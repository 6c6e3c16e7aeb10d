#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { getContext, invalidateContext } from './context.js';

const server = new McpServer({ name: 'workspace-tools', version: '1.1.0' });

server.registerTool('primary_root', { description: 'The first root the client exposes', inputSchema: {} }, async () => {
  const context = await getContext(server);
  return { content: [{ type: 'text', text: context.primary ?? '(none)' }] };
});

server.registerTool('in_workspace', { description: 'Is a URI inside the workspace?', inputSchema: { uri: z.string() } }, async ({ uri }) => {
  const workspace = await getContext(server);
  const inside = workspace.roots.some(root => uri.startsWith(root));
  return { content: [{ type: 'text', text: `${uri}: ${inside ? 'inside' : 'outside'} (${workspace.roots.length} roots)` }] };
});

// Lifecycle: when the client says its roots changed, refresh the cache straight away.
server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
  invalidateContext();
  const refreshed = await getContext(server);
  console.error(`roots now: ${refreshed.roots.join(', ')}`);
});

await server.connect(new StdioServerTransport());
