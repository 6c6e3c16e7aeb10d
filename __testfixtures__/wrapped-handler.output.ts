import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

type ToolCallback<A, E> = (input: A, extra: E) => Promise<CallToolResult>;

/** Every tool's errors become tool results, not protocol errors. */
function withErrors<A, E>(cb: ToolCallback<A, E>): ToolCallback<A, E> {
  return async (input, extra) => {
    try {
      return await cb(input, extra);
    } catch (error) {
      return { content: [{ type: 'text', text: `Error: ${(error as Error).message}` }], isError: true };
    }
  };
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool(
    'send',
    { inputSchema: z.object({ to: z.string() }) },
    withErrors(async ({ to }) => {
      // mcp-migrate: elicitation request in a handler wrapped by withErrors() before registerTool('send') registers it: the wrapper stands between the registration and this handler (its parameter and return types, and its code around every round), so it is not migrated; pass the callback to the registration directly and keep the wrapper's work inside it (it is then migrated), or migrate by hand
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
