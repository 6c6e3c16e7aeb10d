// Handlers wrapped by the project's own functions before they are registered (errors as results, a timing
// log): the wrapped handler is registered through resumable(server), its question asked where it is written,
// and the wrappers keep their code. The code the wrappers run around the handler is the round's too: their catch
// and finally start with rethrowIfSuspended(), so that the timing wrapper logs once per call on both eras (the
// timed tool counts), and the time it started is journaled.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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

/** How many calls the timing wrapper logged. */
let timedCalls = 0;

/** Each call's time is logged. */
function timed<A, E>(cb: (input: A, extra: E) => Promise<CallToolResult>): (input: A, extra: E) => Promise<CallToolResult> {
  return async (...args) => {
    const started = Date.now();
    try {
      return await cb(...args);
    } finally {
      timedCalls++;
      console.error(`tool call took ${Date.now() - started} ms`);
    }
  };
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool(
    'send',
    { inputSchema: { to: z.string() } },
    withErrors(async ({ to }) => {
      if (to === '') throw new Error('no recipient');
      const answer = await server.server.elicitInput({
        message: `Send to ${to}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.ok ? `Sent to ${to}` : 'Not sent' }] };
    }),
  );
  server.registerTool(
    'echo',
    { inputSchema: { text: z.string() } },
    withErrors(async ({ text }) => ({ content: [{ type: 'text', text }] })),
  );
  server.registerTool(
    'archive',
    { inputSchema: { path: z.string() } },
    timed(async ({ path }, extra) => {
      const folder = path.replace(/\/+$/, '');
      const answer = await server.server.elicitInput({
        message: `Archive ${path}?`,
        requestedSchema: { type: 'object', properties: { keep: { type: 'number' } }, required: ['keep'] },
      });
      return { content: [{ type: 'text', text: answer.action === 'accept' ? `Archived ${folder}, keeping ${answer.content?.keep}` : 'Not archived' }] };
    }),
  );
  server.registerTool('timed', { description: 'How many calls the timing wrapper logged' }, async () => ({ content: [{ type: 'text', text: `${timedCalls} timed calls` }] }));
  return server;
}

export const server = createServer();
