#!/usr/bin/env node
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { registerNotes } = require('./notes.cjs');

const server = new McpServer({ name: 'cjs-promise-entry', version: '1.2.0' });
registerNotes(server);

server
  .connect(new StdioServerTransport())
  .then(() => {
    console.error('cjs-promise-entry: listening on stdio');
  })
  .catch((error) => {
    console.error('cjs-promise-entry: failed to start', error);
    process.exit(1);
  });
