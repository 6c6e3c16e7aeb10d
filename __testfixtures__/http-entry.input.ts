// Streamable HTTP entries that are not mechanical to move: each is marked and says what to do.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

function buildServer(tenant = 'default'): McpServer {
  const server = new McpServer({ name: `fixture-${tenant}`, version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

// A sessionful transport made for every request, with no session store to find it again.
createServer(async (req, res) => {
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// A stateless entry whose server is set up inside the request handler.
createServer(async (req, res) => {
  const server = new McpServer({ name: 'inline', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// One stateless transport, connected at startup, serving every request.
const shared = buildServer();
const sharedTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
await shared.connect(sharedTransport);
createServer((req, res) => void sharedTransport.handleRequest(req, res)).listen(0, '127.0.0.1');

// A stateless entry whose server depends on the request.
createServer(async (req, res) => {
  const server = buildServer(String(req.headers['x-tenant']));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// A session store, but the transport reads the body from the request stream.
const transports = new Map<string, StreamableHTTPServerTransport>();
createServer(async (req, res) => {
  const sessionId = req.headers['mcp-session-id'];
  let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (!transport) {
    const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: id => void transports.set(id, created) });
    await buildServer().connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// A stateless entry that checks the Host header in its transport.
createServer(async (req, res) => {
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableDnsRebindingProtection: true, allowedHosts: ['127.0.0.1'] });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');
