// A sessionful Streamable HTTP server on node:http: transports kept by session id, the body parsed once.
import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  McpServer,
  isInitializeRequest,
  createMcpHandler,
  inputRequired,
  isLegacyRequest,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

const confirmSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] };

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  server.registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }, ctx) => {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type ConfirmStep = { step: 'awaiting-answer' };
    const call = resumeCall<ConfirmStep>(ctx, 'confirm', { action });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `Really ${action}?`,
            requestedSchema: confirmSchema,
          }),
        });
      }
      if (resumed.step === 'awaiting-answer') {
        const answer = elicitResult(ctx, 'answer', confirmSchema);
        if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
        return { content: [{ type: 'text', text: `${action}: ${answer.content?.sure ? 'done' : 'kept'}` }] };
      }
      throw call.unknownStep(resumed);
    });
  });
  server.registerTool('haiku', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
    type HaikuStep = { step: 'awaiting-reply' };
    const call = resumeCall<HaikuStep>(ctx, 'haiku', { topic });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-reply' }, {
          reply: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `A haiku about ${topic}` } }],
            maxTokens: 60,
          }),
        });
      }
      if (resumed.step === 'awaiting-reply') {
        const reply = samplingResult(ctx, 'reply');
        return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '(no text)' }] };
      }
      throw call.unknownStep(resumed);
    });
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
