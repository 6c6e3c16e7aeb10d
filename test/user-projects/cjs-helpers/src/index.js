#!/usr/bin/env node
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { server } = require('./server');
require('./tools');
require('./status');

server.connect(new StdioServerTransport()).catch(err => {
  console.error('cjs-helpers failed to start:', err);
  process.exit(1);
});
