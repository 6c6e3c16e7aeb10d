#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { askChoice } from '@shared/ask.js';

const server = new McpServer({ name: 'acme', version: '1.0.0' });

server.registerTool(
  'order_coffee',
  { description: 'Order a coffee', inputSchema: { size: z.enum(['small', 'large']) } },
  async ({ size }) => {
    const kind = await askChoice(server, `Which ${size} coffee?`, ['espresso', 'latte', 'flat white']);
    if (!kind) return { content: [{ type: 'text', text: 'No coffee ordered.' }] };
    return { content: [{ type: 'text', text: `Ordered a ${size} ${kind}.` }] };
  },
);

await server.connect(new StdioServerTransport());
