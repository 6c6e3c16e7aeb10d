import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport as SseTransport } from '@modelcontextprotocol/sdk/server/sse.js';

/** The same files over the old HTTP+SSE transport, for the clients that still use it. */
const server = new McpServer({ name: 'wrapped-transport-sse', version: '0.3.0' });
server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));

const transports: Record<string, SseTransport> = {};
const app = express();
app.get('/sse', async (_req, res) => {
  const transport = new SseTransport('/messages', res);
  transports[transport.sessionId] = transport;
  res.on('close', () => delete transports[transport.sessionId]);
  await server.connect(transport);
});
app.post('/messages', async (req, res) => {
  const transport = transports[String(req.query.sessionId)];
  if (!transport) {
    res.status(400).send('unknown session');
    return;
  }
  await transport.handlePostMessage(req, res);
});
app.listen(Number(process.env.PORT ?? 3001));
