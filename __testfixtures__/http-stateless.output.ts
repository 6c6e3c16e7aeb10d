// A stateless Streamable HTTP server on node:http: a fresh server and transport for every request.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const confirmSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] };

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
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
