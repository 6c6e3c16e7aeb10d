#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerMailTools } from './tools.js';

const server = new McpServer({ name: 'mail-confirm', version: '0.3.0' });
registerMailTools(server);
await server.connect(new StdioServerTransport());
