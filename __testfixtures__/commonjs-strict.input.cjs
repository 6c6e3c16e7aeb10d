#!/usr/bin/env node
// A CommonJS entry in strict mode, its server made in the statement that connects it: the rewrite adds and
// removes statements of the program, which is then printed anew, its directive as written, with the header above it.
/**
 * Confirm server.
 *
 * Asks the client before it answers.
 *
 * Usage: node server.cjs
 */
'use strict';

const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');

function createServer() {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool('confirm', { description: 'Asks before it answers' }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Go on?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.ok ? 'went on' : 'stopped' }] };
  });
  return server;
}

createServer().connect(new StdioServerTransport());
