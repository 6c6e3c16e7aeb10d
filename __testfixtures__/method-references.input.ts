import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

// The server's request methods reached other than by a method call: a bound method, an element access, a
// method bound with its arguments are asked through the requestState module where they are taken; one
// destructured from the server is marked. None is missed.
const server = new McpServer({ name: 'fixture', version: '1.0.0' });
const low = server['server'];
const ask = server.server.elicitInput.bind(server.server);
const { listRoots } = server.server;

async function withRetry<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch {
    return send();
  }
}

server.registerTool('confirm', { inputSchema: { path: z.string() } }, async ({ path }) => {
  const answer = await ask({ message: `Delete ${path}?`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});

server.registerTool('roots', {}, async () => {
  const { roots } = await low['listRoots']();
  const again = await listRoots();
  return { content: [{ type: 'text', text: `${roots.length} ${again.roots.length}` }] };
});

server.registerTool('summary', { inputSchema: { text: z.string() } }, async ({ text }) => {
  const send = low.createMessage.bind(low, { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  const reply = await withRetry(send);
  return { content: [{ type: 'text', text: reply.model }] };
});

/** Whether the client can be asked at all: a test of the method, not a request. */
export function canAsk(): boolean {
  return typeof server.server.elicitInput === 'function' && server.server.getClientCapabilities()?.elicitation !== undefined;
}
