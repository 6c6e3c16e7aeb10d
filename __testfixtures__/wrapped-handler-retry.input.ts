// A handler wrapped by the project's own retry before it is registered: the wrapped handler is registered
// through resumable(server), and its question asked where it is written; the wrapper keeps its code. Its catch
// starts with rethrowIfSuspended(), so that the end of a round is not taken for an error and retried, and its
// count of attempts is journaled: one attempt per call on both eras, which the attempts tool counts.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type ToolCallback<A, E> = (input: A, extra: E) => Promise<CallToolResult>;

/** How many times the wrapped handlers were tried. */
let attempts = 0;

/** Every tool is tried three times; its last error becomes a tool result, not a protocol error. */
function withErrors<A, E>(cb: ToolCallback<A, E>): ToolCallback<A, E> {
  return async (input, extra) => {
    for (let attempt = 1; ; attempt++) {
      attempts++;
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
  server.registerTool('attempts', { description: 'How many times the wrapped handlers were tried' }, async () => ({ content: [{ type: 'text', text: `${attempts} attempts` }] }));
  return server;
}

export const server = createServer();
