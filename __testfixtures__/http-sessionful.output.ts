// A sessionful Streamable HTTP server on node:http: transports kept by session id, the body parsed once.
import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { McpServer, isInitializeRequest, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  resumable(server).registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }) => {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `Really ${action}?`,
      requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
    return { content: [{ type: 'text', text: `${action}: ${answer.content?.sure ? 'done' : 'kept'}` }] };
  });
  resumable(server).registerTool('haiku', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
    const reply = await ask(server.server, 'reply').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `A haiku about ${topic}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '(no text)' }] };
  });
  return server;
}

const transports = new Map<string, NodeStreamableHTTPServerTransport>();

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

const mcpHandler = toNodeHandler(createMcpHandler(() => buildServer(), { legacy: 'reject' }));

createServer(async (req, res) => {
  if (process.env.MCP_TOKEN && req.headers.authorization !== `Bearer ${process.env.MCP_TOKEN}`) {
    res.writeHead(401).end();
    return;
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  // 2026-07-28 requests are served per request; 2025-era requests keep the session wiring below.
  if (!(await isLegacyRequest(await toWebRequest(req, body)))) {
    await mcpHandler(req, res, body);
    return;
  }
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport) {
    if (sessionId || !isInitializeRequest(body)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no valid session' }, id: null }));
      return;
    }
    const created = new NodeStreamableHTTPServerTransport({
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
