import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server = new McpServer(
  { name: 'asker-instance', version: '2.1.0' },
  { capabilities: { tools: {} } },
);
