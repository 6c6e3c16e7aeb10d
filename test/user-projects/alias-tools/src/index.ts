#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { server } from '@/server';
import '@/tools';

async function main() {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  console.error('notes-mcp running on stdio');
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
