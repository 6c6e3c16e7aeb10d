/**
 * A requested schema is written once in the migrated code: declared apart when it reads nothing of the
 * handler, read from the params where they are a const outside the handler, left in the request when it
 * reads the handler's values (the resuming phase then has nothing to repeat).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';

const work = path.resolve(import.meta.dirname, '..', '.tmp', 'schemas');

async function migrated(name: string, text: string): Promise<string> {
  const dir = path.join(work, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, path.basename(name));
  const result = await migrateSources([{ path: file, text }], { cwd: dir });
  expect(result.report.sites.map(s => s.outcome)).not.toContain('marked');
  return result.changes.find(c => c.path === file)!.after;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('requested schemas', () => {
  it('declares a static schema once, under a name the file does not have, before the statement holding the handler', async () => {
    const out = await migrated('static.ts', `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 'x', version: '1' });
const confirmDeleteSchema = 'taken';
// Deletes after asking.
server.registerTool('confirm-delete', {}, async () => {
  const answer = await server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return { content: [{ type: 'text', text: answer.action + confirmDeleteSchema }] };
});
`);
    expect(count(out, "properties: { ok: { type: 'boolean' } }")).toBe(1);
    expect(out).toContain(
      "const confirmDeleteSchema2: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } } };\n// Deletes after asking.\nserver.registerTool("
    );
    expect(out).toContain("requestedSchema: confirmDeleteSchema2 })");
    expect(out).toContain("elicitResult(ctx, 'answer', confirmDeleteSchema2)");
  });

  it('reads the schema from params held in a const outside the handler, and leaves one that reads the handler in its request', async () => {
    const out = await migrated('params.mjs', `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 'x', version: '1' });
const askParams = { message: 'Wipe?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } };
server.registerTool('wipe', { inputSchema: { path: z.string() } }, async ({ path }) => {
  const answer = await server.server.elicitInput(askParams);
  const why = await server.server.elicitInput({ message: 'Why?', requestedSchema: { type: 'object', properties: { [path]: { type: 'string' } } } });
  return { content: [{ type: 'text', text: answer.action + why.action }] };
});
import { z } from 'zod';
`);
    expect(count(out, "properties: { ok: { type: 'boolean' } }")).toBe(1);
    expect(out).toContain("elicitResult(ctx, 'answer', askParams.requestedSchema)");
    expect(count(out, '[path]: {')).toBe(1);
    expect(out).toContain("elicitResult(ctx, 'why')");
  });

  it('declares the schema of a handler declared as a function before a top-level await that comes first', async () => {
    const out = await migrated('hoisted.ts', `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 'x', version: '1' });
server.registerTool('wipe', {}, wipe);
await new Promise(resolve => setTimeout(resolve, 10));
async function wipe() {
  const answer = await server.server.elicitInput({ message: 'Wipe?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return { content: [{ type: 'text' as const, text: answer.action }] };
}
`);
    expect(out.indexOf('const wipeSchema')).toBeGreaterThan(-1);
    expect(out.indexOf('const wipeSchema')).toBeLessThan(out.indexOf('await new Promise'));
  });
});
