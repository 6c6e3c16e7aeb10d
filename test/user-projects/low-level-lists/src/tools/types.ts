import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** One tool of the server: what tools/list shows of it, and what tools/call runs. */
export interface ToolDef {
  name: string;
  description: string;
  inputSchema: unknown;
  run(args: Record<string, unknown>, server: Server): Promise<string>;
}

export class ToolInputError extends Error {}

export function requireString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw new ToolInputError(`${key} is required`);
  return value.trim();
}
