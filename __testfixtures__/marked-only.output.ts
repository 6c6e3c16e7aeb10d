import { McpServer } from '@modelcontextprotocol/server';
import { clientCapabilities } from './mcp-migrate-state.js';

// No request here is asked where a request is served: each is marked, none rewritten. The capability read
// becomes clientCapabilities(...), which answers as before outside a request.
const server = new McpServer({ name: 'fixture', version: '1.0.0' });

let cachedRoots: string[] = [];

// mcp-migrate: server.server.oninitialized = ... runs once a client has sent initialize, which a 2026-07-28 client never sends (each request carries the client's identity in its own _meta envelope): the callback never fires for one, so what it does never happens for one, and nothing says so; do it when the server is built, or in the handler that needs it, from the request's own envelope (ctx.mcpReq.envelope)
server.server.oninitialized = async () => {
  // mcp-migrate: roots request in server.server.oninitialized: MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read; ask from inside the tool that needs it, or read it lazily there
  const { roots } = await server.server.listRoots();
  cachedRoots = roots.map(r => r.uri);
};

export async function askName(): Promise<string> {
  // mcp-migrate: elicitation request in helper askName(), not directly in a handler: only a tools/call, prompts/get or resources/read handler can ask the client on MCP 2026-07-28 (it returns input_required); call it from one, or take what it asks for as an argument
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

/** The connection's capabilities: a 2026-07-28 client declares its own with each request instead. */
export function canSample(): boolean {
  return clientCapabilities(server.server)?.sampling !== undefined;
}

export { server, cachedRoots };
