/**
 * src/upgrade/repairs/zodJsonSchema.ts: schemas of tools zod 4 cannot write as JSON Schema (z.coerce.date()),
 * written as a string piped to a date.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('schemas of tools zod 4 cannot write as JSON Schema', () => {
  const ZOD_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const Range = z.object({ from: z.coerce.date(), to: z.coerce.date().optional() });
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('events', { inputSchema: { range: Range } }, async ({ range }) => ({ content: [{ type: 'text', text: range.from.toISOString() }] }));
server.registerTool('since', { inputSchema: { since: z.date() } }, async ({ since }) => ({ content: [{ type: 'text', text: since.toISOString() }] }));
server.registerTool('until', { inputSchema: z.object({ until: z.coerce.date() }) }, async ({ until }) => ({ content: [{ type: 'text', text: until.toISOString() }] }));
server.registerTool('big', { inputSchema: { n: z.coerce.bigint() } }, async ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }));
export const Row = z.object({ at: z.coerce.date() });
`;

  it("writes a registered schema's z.coerce.date() as a string piped to it, marks z.date(), and leaves schemas no registration is given", () => {
    const { text, notes } = upgraded(ZOD_SERVER, '/project/src/events.ts');
    expect(text).toContain(
      'const Range = z.object({ from: z.string().pipe(z.coerce.date()), to: z.string().pipe(z.coerce.date()).optional() });',
    );
    expect(text).toMatch(
      /@mcp-codemod-error z\.date\(\): zod 4, which SDK 2\.x needs, cannot write a Date as JSON Schema, so once zod is raised tools\/list \(prompts\/list\) fails for every tool/,
    );
    expect(text).toContain('inputSchema: z.object({ until: z.string().pipe(z.coerce.date()) })');
    expect(text).toMatch(/@mcp-codemod-error z\.coerce\.bigint\(\): zod 4, which SDK 2\.x needs, cannot write a bigint as JSON Schema/);
    expect(text).toContain('export const Row = z.object({ at: z.coerce.date() });');
    expect(notes.filter(n => /written as z\.string\(\)\.pipe\(z\.coerce\.date\(\)\)/.test(n))).toHaveLength(3);
  });

  it('what it claims, on zod 4: a Date fails the JSON Schema the SDK asks for; the string piped to z.coerce.date() is written as a string and reads the same Date', async () => {
    const { z } = await import('zod');
    const input = (schema: { '~standard': unknown }) =>
      (schema['~standard'] as { jsonSchema: { input(o: object): unknown } }).jsonSchema.input({ target: 'draft-2020-12' });
    expect(() => input(z.object({ from: z.coerce.date() }))).toThrow(/Date cannot be represented in JSON Schema/);
    expect(input(z.object({ from: z.string().pipe(z.coerce.date()) }))).toMatchObject({ properties: { from: { type: 'string' } } });
    const sent = '2026-07-28T10:00:00Z';
    expect(z.string().pipe(z.coerce.date()).parse(sent).getTime()).toBe(z.coerce.date().parse(sent).getTime());
  });
});
