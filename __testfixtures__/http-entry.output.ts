// A sessionful Streamable HTTP server: its entry is marked, not moved (it is not mechanical).
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { McpServer } from "@modelcontextprotocol/server";

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

createServer(async (req, res) => {
  const server = buildServer();
  // mcp-migrate: NodeStreamableHTTPServerTransport is not moved to createMcpHandler automatically: serve this server with createMcpHandler(() => buildServer()) for 2026-07-28 clients, keeping a sessionful setup for 2025-era clients (the stateless legacy mode refuses input_required handlers)
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');
