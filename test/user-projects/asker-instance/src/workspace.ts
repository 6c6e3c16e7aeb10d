import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// Roots rarely change within a session: ask once per session.
const rootsBySession = new Map<string, string[]>();

export async function workspaceRoots(server: McpServer, sessionId: string | undefined): Promise<string[]> {
  const key = sessionId ?? 'local';
  const cached = rootsBySession.get(key);
  if (cached) return cached;
  const { roots } = await server.server.listRoots();
  const uris = roots.map(r => r.uri);
  rootsBySession.set(key, uris);
  return uris;
}
