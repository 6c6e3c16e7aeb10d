// Streamable HTTP entries that are not mechanical to move: each is marked and says what to do.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';

function buildServer(tenant = 'default'): McpServer {
  const server = new McpServer({ name: `fixture-${tenant}`, version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

// A sessionful transport made for every request, with no session store to find it again.
createServer(async (req, res) => {
  const server = buildServer();
  // mcp-migrate: NodeStreamableHTTPServerTransport is not moved to createMcpHandler: a sessionful transport is made for each request without looking the session up by its mcp-session-id header; serve a server factory with toNodeHandler(createMcpHandler(factory)) (stateless, both eras; a 2025-era client cannot be asked for input there), or keep this wiring for 2025-era clients behind isLegacyRequest and send the other requests to createMcpHandler(factory, { legacy: 'reject' })
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// A stateless entry whose server is set up inside the request handler.
createServer(async (req, res) => {
  const server = new McpServer({ name: 'inline', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  // mcp-migrate: NodeStreamableHTTPServerTransport is not moved to createMcpHandler: the server "server" is set up inside the request handler (a factory would lose what is registered there); build and set it up in a function; serve a server factory with toNodeHandler(createMcpHandler(factory)) (stateless, both eras; a 2025-era client cannot be asked for input there), or keep this wiring for 2025-era clients behind isLegacyRequest and send the other requests to createMcpHandler(factory, { legacy: 'reject' })
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// One stateless transport, connected at startup, serving every request.
const shared = buildServer();
// mcp-migrate: NodeStreamableHTTPServerTransport is not moved to createMcpHandler: one transport, made at startup, serves every request; serve a server factory with toNodeHandler(createMcpHandler(factory)) (stateless, both eras; a 2025-era client cannot be asked for input there), or keep this wiring for 2025-era clients behind isLegacyRequest and send the other requests to createMcpHandler(factory, { legacy: 'reject' })
const sharedTransport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
await shared.connect(sharedTransport);
createServer((req, res) => void sharedTransport.handleRequest(req, res)).listen(0, '127.0.0.1');

// A stateless entry whose server depends on the request.
createServer(async (req, res) => {
  const server = buildServer(String(req.headers['x-tenant']));
  // mcp-migrate: NodeStreamableHTTPServerTransport is not moved to createMcpHandler: the server is built from req, a value of the request handler (a factory is declared outside it; it gets the request as ctx.requestInfo, a web Request); serve a server factory with toNodeHandler(createMcpHandler(factory)) (stateless, both eras; a 2025-era client cannot be asked for input there), or keep this wiring for 2025-era clients behind isLegacyRequest and send the other requests to createMcpHandler(factory, { legacy: 'reject' })
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// A session store, but the transport reads the body from the request stream.
const transports = new Map<string, NodeStreamableHTTPServerTransport>();
createServer(async (req, res) => {
  const sessionId = req.headers['mcp-session-id'];
  let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (!transport) {
    // mcp-migrate: NodeStreamableHTTPServerTransport is not moved to createMcpHandler: handleRequest reads the request body from the stream, which routing in front of it would consume: parse the body once and pass it to handleRequest; serve a server factory with toNodeHandler(createMcpHandler(factory)) (stateless, both eras; a 2025-era client cannot be asked for input there), or keep this wiring for 2025-era clients behind isLegacyRequest and send the other requests to createMcpHandler(factory, { legacy: 'reject' })
    const created = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: id => void transports.set(id, created) });
    await buildServer().connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');

// A stateless entry that checks the Host header in its transport.
createServer(async (req, res) => {
  const server = buildServer();
  // mcp-migrate: NodeStreamableHTTPServerTransport is not moved to createMcpHandler: the transport checks hosts or origins (enableDnsRebindingProtection, allowedHosts), which createMcpHandler leaves to the caller: put hostHeaderValidation / originValidation from @modelcontextprotocol/node in front of the handler; serve a server factory with toNodeHandler(createMcpHandler(factory)) (stateless, both eras; a 2025-era client cannot be asked for input there), or keep this wiring for 2025-era clients behind isLegacyRequest and send the other requests to createMcpHandler(factory, { legacy: 'reject' })
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableDnsRebindingProtection: true, allowedHosts: ['127.0.0.1'] });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(0, '127.0.0.1');
