import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'after-connect', version: '1.0.0' }, {
  capabilities: { logging: {} },
  requestState: { verify: verifyRequestState }
});

const askSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };

server.registerTool('ask', {}, async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type AskStep = { step: 'awaiting-answer' };
  const call = resumeCall<AskStep>(ctx, 'ask', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({ message: 'Go on?', requestedSchema: askSchema }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', askSchema);
      return { content: [{ type: 'text', text: answer.action }] };
    }
    throw call.unknownStep(resumed);
  });
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
