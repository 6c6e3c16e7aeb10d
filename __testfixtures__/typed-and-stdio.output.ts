import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  server.registerTool('poem', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }, ctx): Promise<CallToolResult | InputRequiredResult> => {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type PoemStep = { step: 'awaiting-poem' };
    const call = resumeCall<PoemStep>(ctx, 'poem', { subject });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-poem' }, {
          poem: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `A poem about ${subject}` } }], maxTokens: 40 }),
        });
      }
      if (resumed.step === 'awaiting-poem') {
        const poem = samplingResult(ctx, 'poem');
        return { content: [{ type: 'text', text: poem.content.type === 'text' ? poem.content.text : '' }] };
      }
      throw call.unknownStep(resumed);
    });
  });
  return server;
}

async function main(): Promise<void> {
  const server = createServer();
  serveStdio(() => server);
}

/** A transport the caller may pass in, and returned to it: handed on to the serving entry. */
export async function serveOn(transport = new StdioServerTransport()): Promise<StdioServerTransport> {
  const server = createServer();
  serveStdio(() => server, { transport });
  return transport;
}

void main();
