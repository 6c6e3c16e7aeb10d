// Handlers wrapped by the project's own functions before they are registered (errors as results, a timing
// log): the wrapped handler is registered through resumable(server), its question asked where it is written,
// and the wrappers keep their code. The code the wrappers run around the handler is the round's too: their catch
// and finally start with rethrowIfSuspended(), so that the timing wrapper logs once per call on both eras (the
// timed tool counts), and the time it started is journaled.
import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

type ToolCallback<A, E> = (input: A, extra: E) => Promise<CallToolResult>;

/** Every tool's errors become tool results, not protocol errors. */
function withErrors<A, E>(cb: ToolCallback<A, E>): ToolCallback<A, E> {
  return async (input, extra) => {
    try {
      return await cb(input, extra);
    } catch (error) {
      rethrowIfSuspended();
      return { content: [{ type: 'text', text: `Error: ${(error as Error).message}` }], isError: true };
    }
  };
}

/** How many calls the timing wrapper logged. */
let timedCalls = 0;

/** Each call's time is logged. */
function timed<A, E>(cb: (input: A, extra: E) => Promise<CallToolResult>): (input: A, extra: E) => Promise<CallToolResult> {
  return async (...args) => {
    const started = journaled(() => Date.now());
    try {
      return await cb(...args);
    } finally {
      rethrowIfSuspended();
      timedCalls++;
      console.error(`tool call took ${Date.now() - started} ms`);
    }
  };
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  resumable(server).registerTool(
    'send',
    { inputSchema: z.object({ to: z.string() }) },
    withErrors(async ({ to }) => {
      if (to === '') throw new Error('no recipient');
      const answer = await ask(server.server, 'answer').elicitInput({
        message: `Send to ${to}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.ok ? `Sent to ${to}` : 'Not sent' }] };
    }),
  );
  server.registerTool(
    'echo',
    { inputSchema: z.object({ text: z.string() }) },
    withErrors(async ({ text }) => ({ content: [{ type: 'text', text }] })),
  );
  resumable(server).registerTool(
    'archive',
    { inputSchema: z.object({ path: z.string() }) },
    timed(async ({ path }, extra) => {
      const folder = path.replace(/\/+$/, '');
      const answer = await ask(server.server, 'answer').elicitInput({
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
