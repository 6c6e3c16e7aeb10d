// A stateless Streamable HTTP server on node:http: a fresh server and transport for every request.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  resumable(server).registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }) => {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `Really ${action}?`,
      requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
    return { content: [{ type: 'text', text: `${action}: ${answer.content?.sure ? 'done' : 'kept'}` }] };
  });
  return server;
}

const mcpHandler = toNodeHandler(createMcpHandler(() => buildServer()));

createServer(async (req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  try {
    // Serve this one request.
    await mcpHandler(req, res);
  } catch (error) {
    console.error('MCP request failed:', error);
    if (!res.headersSent) res.writeHead(500).end();
  }
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
