import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  ask as askClient,
  clientCapabilities,
  resumable,
  rethrowIfSuspended,
  verifyRequestState
} from './mcp-migrate-state.js';

// The server's request methods reached other than by a method call: a bound method, an element access, a
// method bound with its arguments are asked through the requestState module where they are taken; one
// destructured from the server is marked. None is missed.
const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const low = server['server'];
const ask = askClient(server.server).elicitInput.bind(server.server);
const { listRoots } = server.server;

async function withRetry<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch {
    rethrowIfSuspended();
    return send();
  }
}

resumable(server).registerTool('confirm', { inputSchema: z.object({ path: z.string() }) }, async ({ path }) => {
  const answer = await ask({ message: `Delete ${path}?`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});

resumable(server).registerTool('roots', {}, async () => {
  const { roots } = await askClient(low)['listRoots']();
  // mcp-migrate: this roots request is left as it is (2025-era clients only): the request goes through listRoots, which holds the server's listRoots() ({ listRoots } = server.server); call the server's listRoots(...) where it is awaited, then run again
  const again = await listRoots();
  return { content: [{ type: 'text', text: `${roots.length} ${again.roots.length}` }] };
});

resumable(server).registerTool('summary', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
  const send = askClient(low).createMessage.bind(low, { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  const reply = await withRetry(send);
  return { content: [{ type: 'text', text: reply.model }] };
});

/** Whether the client can be asked at all: a test of the method, not a request. */
export function canAsk(): boolean {
  return typeof server.server.elicitInput === 'function' && clientCapabilities(server.server)?.elicitation !== undefined;
}
