import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// No request here is asked where a request is served: each is marked, none rewritten. The capability read
// becomes clientCapabilities(...), which answers as before outside a request.
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

/** The connection's capabilities: a 2026-07-28 client declares its own with each request instead. */
export function canSample(): boolean {
  return server.server.getClientCapabilities()?.sampling !== undefined;
}

export { server, cachedRoots };
