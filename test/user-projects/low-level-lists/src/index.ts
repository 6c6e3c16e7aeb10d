#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.js';

const server = createServer();

process.on('SIGINT', () => {
  void server.close().finally(() => process.exit(0));
});

await server.connect(new StdioServerTransport());
console.error('[low-level-lists] serving on stdio');
