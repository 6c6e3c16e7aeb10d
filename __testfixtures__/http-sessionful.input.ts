// A sessionful Streamable HTTP server on node:http: transports kept by session id, the body parsed once.
import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool('confirm', { inputSchema: { action: z.string() } }, async ({ action }) => {
    const answer = await server.server.elicitInput({
      message: `Really ${action}?`,
      requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
    return { content: [{ type: 'text', text: `${action}: ${answer.content?.sure ? 'done' : 'kept'}` }] };
  });
  server.registerTool('haiku', { inputSchema: { topic: z.string() } }, async ({ topic }) => {
    const reply = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `A haiku about ${topic}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '(no text)' }] };
  });
  return server;
}

const transports = new Map<string, StreamableHTTPServerTransport>();

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

createServer(async (req, res) => {
  if (process.env.MCP_TOKEN && req.headers.authorization !== `Bearer ${process.env.MCP_TOKEN}`) {
    res.writeHead(401).end();
    return;
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport) {
    if (sessionId || !isInitializeRequest(body)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no valid session' }, id: null }));
      return;
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: id => {
        transports.set(id, created);
      },
    });
    created.onclose = () => {
      if (created.sessionId) transports.delete(created.sessionId);
    };
    await buildServer().connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res, body);
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
