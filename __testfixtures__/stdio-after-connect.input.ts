import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'after-connect', version: '1.0.0' }, { capabilities: { logging: {} } });

server.registerTool('ask', {}, async () => {
  const answer = await server.server.elicitInput({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});

// Uses the server once connected: serveStdio would not have connected it yet (marked).
export async function main(): Promise<void> {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  await server.server.sendLoggingMessage({ level: 'info', data: 'started' });
  process.on('SIGINT', () => void server.close());
}

// A .catch on the connection: its handler becomes serveStdio's onerror.
export function quiet(): void {
  server.connect(new StdioServerTransport()).catch(error => console.error('connection failed', error));
}

// The promise is used: serveStdio returns none (marked).
export function chained(): Promise<void> {
  return server.connect(new StdioServerTransport()).then(() => console.error('connected'));
}
