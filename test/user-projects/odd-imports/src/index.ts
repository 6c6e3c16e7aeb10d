#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { registerCompact } from './compact.js';

const server = new McpServer({ name: 'odd-imports', version: '1.0.0' });
registerCompact(server);

server.registerTool('lazy_note', { description: 'Ask for a note, with a lazily loaded helper', inputSchema: { topic: z.string() } }, async ({ topic }) => {
  const { askTopic } = await import('./lazy.js');
  const note = await askTopic(server, topic);
  return { content: [{ type: 'text', text: note ? `${topic}: ${note}` : `No note on ${topic}.` }] };
});

await server.connect(new StdioServerTransport());
