#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { loadConfig } from './config.js';
import { confirmDelete } from './confirmDelete.js';
import { confirmSpend } from './spend.js';

loadConfig(process.env);
const server = new McpServer({ name: 'paid-tools', version: '1.2.0' });

server.registerTool(
  'render',
  { description: 'Render an image (paid per pixel)', inputSchema: { prompt: z.string(), size: z.number().int().default(512) } },
  async ({ prompt, size }) => {
    const usd = (size / 512) * 0.04;
    const confirm = await confirmSpend(server, { usd, label: `render ${size}px` });
    if (!confirm.ok) return { content: [{ type: 'text', text: confirm.reason ?? 'Cancelled.' }] };
    return { content: [{ type: 'text', text: `Rendered "${prompt}" at ${size}px for $${usd.toFixed(2)}` }] };
  },
);

server.registerTool(
  'delete_file',
  { description: 'Delete a file, asking first when it is large', inputSchema: { name: z.string(), bytes: z.number().int() } },
  async ({ name, bytes }) => {
    const ok = await confirmDelete(server, name, bytes);
    return { content: [{ type: 'text', text: ok ? `Deleted ${name}` : `Kept ${name}` }] };
  },
);

await server.connect(new StdioServerTransport());
