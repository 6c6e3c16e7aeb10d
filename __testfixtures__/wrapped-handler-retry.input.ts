import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type ToolCallback<A, E> = (input: A, extra: E) => Promise<CallToolResult>;

/** Every tool is tried three times; its last error becomes a tool result, not a protocol error. */
function withErrors<A, E>(cb: ToolCallback<A, E>): ToolCallback<A, E> {
  return async (input, extra) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await cb(input, extra);
      } catch (error) {
        if (attempt === 3) return { content: [{ type: 'text', text: `Error: ${(error as Error).message}` }], isError: true };
      }
    }
  };
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool(
    'send',
    { inputSchema: { to: z.string() } },
    withErrors(async ({ to }) => {
      const answer = await server.server.elicitInput({
        message: `Send to ${to}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.ok ? `Sent to ${to}` : 'Not sent' }] };
    }),
  );
  return server;
}

export const server = createServer();
