#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { server } from './server.js';
import './tools.js';

async function main() {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  console.error('asker-instance running on stdio');
}

main().catch(error => {
  console.error('Fatal error:', error);
  process.exit(1);
});
