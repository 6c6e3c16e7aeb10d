#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildServer } from './server.js';

const server = buildServer();

// Keep idle clients from dropping the connection.
const keepAlive = setInterval(() => {
  server.server.ping().catch(() => undefined);
}, 25_000);
keepAlive.unref();

await server.connect(new StdioServerTransport());
