import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

export type Checked = { ok: true; full: string; size: number } | { ok: false; reason: string };

/** Resolves a path against the base folder and asks the user before anything is read. */
export async function confirmRead(server: McpServer, target: string, base: string): Promise<Checked> {
  const full = isAbsolute(target) ? target : resolve(base, target);
  if (!existsSync(full)) return { ok: false, reason: `${target} does not exist` };
  const stats = statSync(full);
  if (stats.isDirectory()) return { ok: false, reason: `${target} is a folder` };
  const answer = await server.server.elicitInput({
    message: `Let the assistant read ${target} (${stats.size} bytes)?`,
    requestedSchema: {
      type: 'object',
      properties: { allow: { type: 'boolean', title: 'Allow' } },
      required: ['allow'],
    },
  });
  if (answer.action !== 'accept' || answer.content?.allow !== true) {
    return { ok: false, reason: `reading ${target} was not allowed (${answer.action})` };
  }
  return { ok: true, full, size: stats.size };
}
