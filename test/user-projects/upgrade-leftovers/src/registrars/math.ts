import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { fail, invalidParams } from '../errors.js';

export function registerMath(server: Pick<McpServer, 'tool'>): void {
  server.tool('divide', 'Divide a by b', { a: z.number(), b: z.number() }, { readOnlyHint: true }, async ({ a, b }) => {
    if (b === 0) fail(invalidParams('b must not be 0'));
    return { content: [{ type: 'text', text: String(a / b) }] };
  });
}
