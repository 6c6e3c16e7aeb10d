import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

// Nothing here can become input_required: every site is marked, none rewritten.
const server = new McpServer({ name: 'fixture', version: '1.0.0' });

let cachedRoots: string[] = [];

server.server.oninitialized = async () => {
  const { roots } = await server.server.listRoots();
  cachedRoots = roots.map(r => r.uri);
};

export async function askName(): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

/** A transport the caller may pass in, returned to it: the stdio connection is kept (marked), not moved to serveStdio. */
export async function start(transport = new StdioServerTransport()) {
  await server.connect(transport);
  return transport;
}

/** The connection's capabilities: a 2026-07-28 client declares its own with each request instead. */
export function canSample(): boolean {
  return server.server.getClientCapabilities()?.sampling !== undefined;
}

export { server, cachedRoots };
