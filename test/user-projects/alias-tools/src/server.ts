import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server = new McpServer(
  { name: 'notes-mcp', version: '0.3.1' },
  { instructions: 'Keeps short notes. Deleting one asks the user first.' },
);
