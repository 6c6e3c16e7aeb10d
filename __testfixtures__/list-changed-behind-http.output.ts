// A Streamable HTTP server whose tools change the tool list: behind createMcpHandler, 2026-07-28 clients learn of
// list changes on subscriptions/listen streams, which a server instance's own notification never reaches.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

const shortcuts = new Map<string, string>();

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  for (const [name, text] of shortcuts) server.registerTool(name, { description: `Says ${text}` }, async () => ({ content: [{ type: 'text', text }] }));
  // A tool made while a request is served, and the change told from this instance.
  server.registerTool('add-shortcut', { inputSchema: z.object({ name: z.string(), text: z.string() }) }, async ({ name, text }) => {
    shortcuts.set(name, text);
    // mcp-migrate: server.registerTool(...) while a request is served tells the clients of this server instance that its list changed, but the HTTP entry now serves 2026-07-28 requests through createMcpHandler, whose subscriptions/listen streams such a notification never reaches: a listening client is not told. Keep what createMcpHandler(...) returns where the entry makes it and call its notify.toolsChanged() here as well (this call still tells 2025-era sessions)
    server.registerTool(name, { description: `Says ${text}` }, async () => ({ content: [{ type: 'text', text }] }));
    // mcp-migrate: server.sendToolListChanged() tells the clients of this server instance that its list changed, but the HTTP entry now serves 2026-07-28 requests through createMcpHandler, whose subscriptions/listen streams such a notification never reaches: a listening client is not told. Keep what createMcpHandler(...) returns where the entry makes it and call its notify.toolsChanged() here as well (this call still tells 2025-era sessions)
    server.sendToolListChanged();
    return { content: [{ type: 'text', text: `added ${name}` }] };
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
    await mcpHandler(req, res);
  } catch (error) {
    console.error('MCP request failed:', error);
    if (!res.headersSent) res.writeHead(500).end();
  }
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
