/**
 * src/upgrade/repairs/zodRecord.ts: z.record() with one argument, which zod 4 reads otherwise, given its key schema.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('zod 3 calls that zod 4, which SDK 2.x needs, no longer takes', () => {
  it('gives z.record its key schema, which zod 3 reads alike', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { tags: z.record(z.string()), pairs: z.record(z.string(), z.number()) } }, async () => ({ content: [] }));
`);
    expect(text).toContain('tags: z.record(z.string(), z.string()), pairs: z.record(z.string(), z.number())');
    expect(notes).toContainEqual(expect.stringMatching(/^info: z\.record\(value\) written as z\.record\(z\.string\(\), value\)/));
  });
});
