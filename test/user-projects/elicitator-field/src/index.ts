#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SearchService } from './search.js';

const server = new McpServer({ name: 'shop-search', version: '2.0.0' });
new SearchService(server).register();
await server.connect(new StdioServerTransport());
