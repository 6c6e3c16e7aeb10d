import { McpServer } from '@modelcontextprotocol/server';

// Nothing here can become input_required: every site is marked, none rewritten.
const server = new McpServer({ name: 'fixture', version: '1.0.0' });

let cachedRoots: string[] = [];

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
  // mcp-migrate: server.server.getClientCapabilities() answers with what the client declared at initialize; a 2026-07-28 client declares its capabilities with each request instead, and under serveStdio this returns undefined for it (createMcpHandler fills it in per request): in a handler, read the request's own, ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY]
  return server.server.getClientCapabilities()?.sampling !== undefined;
}

export { server, cachedRoots };
