#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerCrlfTool } from './crlf.js';
import { registerFourTool } from './four.js';
import { registerTabsTool } from './tabs.js';

const server = new McpServer({ name: 'styles', version: '1.0.0' });
registerTabsTool(server);
registerFourTool(server);
registerCrlfTool(server);
await server.connect(new StdioServerTransport());
