import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Mutex } from 'async-mutex';

export interface WorkspaceContext {
  roots: string[];
  primary: string | undefined;
}

let cached: WorkspaceContext | undefined;
const lock = new Mutex();

/** The client's roots, fetched once and shared; concurrent callers wait for the one fetch. */
export async function getContext(server: McpServer): Promise<WorkspaceContext> {
  return lock.runExclusive(async () => {
    if (cached) return cached;
    const { roots } = await server.server.listRoots();
    cached = { roots: roots.map(r => r.uri), primary: roots[0]?.uri };
    return cached;
  });
}

export function invalidateContext(): void {
  cached = undefined;
}
