import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema, type CallToolResult, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool('poem', { inputSchema: { subject: z.string() } }, async ({ subject }, extra): Promise<CallToolResult> => {
    const request: CreateMessageRequest = {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: `A poem about ${subject}` } }], maxTokens: 40 },
    };
    const poem = await extra.sendRequest(request, CreateMessageResultSchema);
    return { content: [{ type: 'text', text: poem.content.type === 'text' ? poem.content.text : '' }] };
  });
  return server;
}

async function main(): Promise<void> {
  const server = createServer();
  const transport = new StdioServerTransport();
  await server.connect(transport);
}

/** A transport the caller may pass in, and returned to it: handed on to the serving entry. */
export async function serveOn(transport = new StdioServerTransport()): Promise<StdioServerTransport> {
  const server = createServer();
  await server.connect(transport);
  return transport;
}

void main();
