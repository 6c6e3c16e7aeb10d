// A Streamable HTTP server whose tools change the tool list: behind createMcpHandler, 2026-07-28 clients learn of
// list changes on subscriptions/listen streams, which a server instance's own notification never reaches.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const shortcuts = new Map<string, string>();

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  for (const [name, text] of shortcuts) server.registerTool(name, { description: `Says ${text}` }, async () => ({ content: [{ type: 'text', text }] }));
  // A tool made while a request is served, and the change told from this instance.
  server.registerTool('add-shortcut', { inputSchema: { name: z.string(), text: z.string() } }, async ({ name, text }) => {
    shortcuts.set(name, text);
    server.registerTool(name, { description: `Says ${text}` }, async () => ({ content: [{ type: 'text', text }] }));
    server.sendToolListChanged();
    return { content: [{ type: 'text', text: `added ${name}` }] };
  });
  return server;
}

createServer(async (req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  try {
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (error) {
    console.error('MCP request failed:', error);
    if (!res.headersSent) res.writeHead(500).end();
  }
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
