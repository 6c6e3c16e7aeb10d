import { CreateMessageResultSchema } from '@modelcontextprotocol/core';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, CreateMessageRequest } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  resumable(server).registerTool('poem', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }, ctx): Promise<CallToolResult> => {
    const request: CreateMessageRequest = {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: `A poem about ${subject}` } }], maxTokens: 40 },
    };
    const poem = await ask(ctx.mcpReq, 'poem').send(request, CreateMessageResultSchema);
    return { content: [{ type: 'text', text: poem.content.type === 'text' ? poem.content.text : '' }] };
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
