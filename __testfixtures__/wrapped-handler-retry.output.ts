// A handler wrapped by the project's own retry before it is registered: the wrapped handler is registered
// through resumable(server), and its question asked where it is written; the wrapper keeps its code. Its catch
// is the wrapper's, not the handler's, and the tool leaves it as it is: on a 2026-07-28 client it takes the end
// of the first round for an error and tries the handler twice more, which the attempts tool counts (a known
// bug, test/verify-fixtures.test.ts: one attempt per call on a 2025-era client).
import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

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
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  resumable(server).registerTool(
    'send',
    { inputSchema: z.object({ to: z.string() }) },
    withErrors(async ({ to }) => {
      const answer = await ask(server.server, 'answer').elicitInput({
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
