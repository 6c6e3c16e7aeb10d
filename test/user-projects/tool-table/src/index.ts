#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { tools } from './tools/index.js';

const server = new McpServer({ name: 'notes-toolbox', version: '1.3.0' });

for (const t of tools) {
  server.registerTool(t.name, { description: t.description, inputSchema: t.schema }, (args, extra) => t.invoke(args, { server, extra }));
}

const transport = new StdioServerTransport();
await server.connect(transport);
