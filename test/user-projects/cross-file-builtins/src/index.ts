#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerFileTools } from './tools.js';

const server = new McpServer({ name: 'reader', version: '0.2.0' });
registerFileTools(server, process.cwd());
await server.connect(new StdioServerTransport());
