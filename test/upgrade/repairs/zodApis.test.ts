/**
 * src/upgrade/repairs/zodApis.ts: zod 3 APIs zod 4 (which SDK 2.x needs) dropped, written as zod 4 reads them alike
 * or marked, in SDK files and in the zod-only modules of their package.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('zod 3 APIs that zod 4, which SDK 2.x needs, dropped', () => {
  it("writes what zod 3 reads alike where the value is certainly zod's, and marks the rest with what zod 4 reads", () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z, ZodError } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const Kind = z.enum(['a', 'b']);
server.registerTool('t', { inputSchema: { kind: Kind, name: z.string({ required_error: 'needed', invalid_type_error: 'text' }), errorMap: z.string(), nick: z.ostring() } }, async args => {
  const parsed = z.object({ n: z.number() }).safeParse(args);
  if (!parsed.success) return { content: [{ type: 'text', text: parsed.error.errors.map(e => e.message).join(', ') }] };
  try { z.string().ip().parse('x'); } catch (e) { if (e instanceof ZodError) return { content: [{ type: 'text', text: JSON.stringify(e.formErrors) }] }; }
  return { content: [{ type: 'text', text: Kind.Enum.a }] };
});
export const Deep = z.object({ a: z.object({ b: z.string() }) }).deepPartial();
export type Refined = z.ZodEffects<z.ZodString>;
export const kind = (s: z.ZodTypeAny) => (s._def as { typeName?: string }).typeName;
export const response = { errors: [] as string[] };
export const errors = response.errors;
export const named = Kind.toString() + Kind.constructor.name;
`);
    expect(text).toContain('nick: z.string().optional()');
    expect(text).toContain('parsed.error.issues.map(e => e.message)');
    expect(text).toContain('JSON.stringify(e.flatten())');
    expect(text).toContain('Kind.enum.a');
    // not zod's: left alone
    expect(text).toContain('export const errors = response.errors;');
    // a shape's key named like a param holds a schema
    expect(text).toContain('errorMap: z.string()');
    expect(text).toContain("name: z.string({ error: issue => (issue.input === undefined ? 'needed' : 'text') })");
    expect(text).toMatch(/@mcp-codemod-error \.ip: zod 4, which SDK 2\.x needs, has no z\.string\(\)\.ip\(\)/);
    expect(text).toMatch(/@mcp-codemod-error \.deepPartial: zod 4, which SDK 2\.x needs, has no \.deepPartial\(\)/);
    expect(text).toMatch(/@mcp-codemod-error z\.ZodEffects: zod 4, which SDK 2\.x needs, has no ZodEffects/);
    expect(text).toMatch(/@mcp-codemod-error \.typeName: zod 4, which SDK 2\.x needs, keeps a schema's definition in \._zod\.def/);
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(4);
    expect(notes).toContainEqual(expect.stringMatching(/^info: \.errors of a ZodError written as \.issues/));
    expect(notes).toContainEqual(expect.stringMatching(/^info: z\.ostring\(\) written as z\.string\(\)\.optional\(\)/));
  });
});

describe('modules that import zod and not the SDK, in a package moved to zod 4', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-zod-users-'));

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
    return { path: path.join(dir, file), text };
  };

  const schemas = `import { z } from 'zod';
export const Tags = z.record(z.string());
export const Deep = z.object({ a: z.object({ b: z.string() }) }).deepPartial();
`;

  const server = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Tags } from './schemas.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { tags: Tags } }, async () => ({ content: [] }));
`;

  it('get the zod repairs and markers the SDK files get, and only there', async () => {
    const { migrateSources } = await import('../../../src/pipeline.js');
    write(
      'package.json',
      '{\n  "name": "app",\n  "type": "module",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.24.0",\n    "zod": "^3.25.76"\n  }\n}\n',
    );
    write('tools/package.json', '{\n  "name": "tools",\n  "dependencies": {\n    "zod": "^3.25.76"\n  }\n}\n');
    const sources = [write('src/server.ts', server), write('src/schemas.ts', schemas), write('tools/schemas.ts', schemas)];
    const result = await migrateSources(sources, { cwd: dir });
    const after = (file: string) => result.changes.find(c => c.path === path.join(dir, file))?.after;
    expect(after('src/schemas.ts')).toContain('export const Tags = z.record(z.string(), z.string());');
    expect(after('src/schemas.ts')).toMatch(/\/\* @mcp-codemod-error \.deepPartial: zod 4[^\n]*\*\/\nexport const Deep/);
    expect(result.report.upgrade.filter(n => n.file === path.join('src', 'schemas.ts')).map(n => n.level)).toEqual(['info', 'warning']);
    // a package the run does not move to SDK 2.x keeps its zod
    expect(after('tools/schemas.ts')).toBeUndefined();
  });

  it('are left as they are where the package already declares zod 4', async () => {
    const { migrateSources } = await import('../../../src/pipeline.js');
    write(
      'package.json',
      '{\n  "name": "app",\n  "type": "module",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.24.0",\n    "zod": "^4.2.0"\n  }\n}\n',
    );
    const result = await migrateSources([write('src/server.ts', server), write('src/schemas.ts', schemas)], { cwd: dir });
    expect(result.changes.some(c => c.path === path.join(dir, 'src', 'schemas.ts'))).toBe(false);
  });
});
