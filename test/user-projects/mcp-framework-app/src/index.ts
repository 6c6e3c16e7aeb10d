#!/usr/bin/env node
import { MCPServer } from 'mcp-framework';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// Tools are discovered from ./tools next to this file.
const server = new MCPServer({ name: 'framework-desk', version: '0.1.0', basePath: dirname(fileURLToPath(import.meta.url)) });
await server.start();
