import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'after-connect', version: '1.0.0' }, {
  capabilities: { logging: {} },
  requestState: { verify: verifyRequestState }
});

resumable(server).registerTool('ask', {}, async () => {
  const answer = await ask(server.server, 'answer').elicitInput({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});

// Uses the server once connected: serveStdio would not have connected it yet (marked).
export async function main(): Promise<void> {
  const transport = new StdioServerTransport();
  // mcp-migrate: server.connect(transport) stays, serving 2025-era clients only: the server is used once connected (server.server.sendLoggingMessage(...)), which under serveStdio fails "Not connected" until the client's first message; move that use into a handler or drop it, then replace it with serveStdio(() => server) from @modelcontextprotocol/server/stdio, the entry a 2026-07-28 client can reach
  await server.connect(transport);
  await server.server.sendLoggingMessage({ level: 'info', data: 'started' });
  process.on('SIGINT', () => void server.close());
}

// A .catch on the connection: its handler becomes serveStdio's onerror.
export function quiet(): void {
  serveStdio(() => server, { onerror: error => console.error('connection failed', error) });
}

// The promise is used: serveStdio returns none (marked).
export function chained(): Promise<void> {
  // mcp-migrate: server.connect(new StdioServerTransport()) stays, serving 2025-era clients only: the promise connect() returns is used (server.connect(new StdioServerTransport()).then), and serveStdio returns no promise; move what waits for it to after the call, then replace it with serveStdio(() => server) from @modelcontextprotocol/server/stdio, the entry a 2026-07-28 client can reach
  return server.connect(new StdioServerTransport()).then(() => console.error('connected'));
}
