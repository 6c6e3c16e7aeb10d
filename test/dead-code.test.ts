/**
 * Code the rewrite leaves unused goes (src/analysis/deadCode.ts): a wrapper of the file whose calls were all
 * unwrapped, with the constants and imports only it read; never one exported or called elsewhere, nor a
 * constant whose making may do something (said in a note instead).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';
import { typecheckFiles } from './support/typecheck.js';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-dead-code-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ask = `{ message: 'Sure?', requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } } }`;
const tool = (name: string, wrapper: string) => `
server.registerTool('${name}', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const answer = await ${wrapper}(async () => server.server.elicitInput(${ask}));
  return { content: [{ type: 'text' as const, text: \`\${id}: \${answer.action}\` }] };
});
`;

const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { format } from 'node:util';
import { z } from 'zod';

const LABEL = 'waiting';
const started = Date.now();

/** Says what it waits for. */
async function described<T>(work: () => Promise<T>): Promise<T> {
  console.error(format('%s', LABEL));
  return work();
}

// Says how long the server has been up.
const timed = async <T>(work: () => Promise<T>): Promise<T> => {
  console.error(\`up \${Date.now() - started} ms\`);
  return work();
};

export async function traced<T>(work: () => Promise<T>): Promise<T> {
  return work();
}

async function shared<T>(work: () => Promise<T>): Promise<T> {
  return work();
}

export const other = () => shared(async () => 1);

const server = new McpServer({ name: 'dead-code', version: '1.0.0' });
${tool('described', 'described')}${tool('timed', 'timed')}${tool('traced', 'traced')}${tool('shared', 'shared')}`;

describe('code the rewrite leaves unused', () => {
  it('goes with what only it read; what is exported, used elsewhere or may do something stays', async () => {
    const file = path.join(dir, 'tools.ts');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const result = await migrateSources([{ path: file, text: source }], { cwd: dir });
    for (const c of result.changes) fs.writeFileSync(c.path, c.after);
    expect(result.report.sites.map(s => s.outcome)).toEqual(Array(4).fill('rewritten'));
    const out = fs.readFileSync(file, 'utf8');
    expect(out).not.toMatch(/function described|Says what it waits for|const LABEL|node:util|const timed|Says how long/);
    expect(out).toContain('export async function traced<T>');
    expect(out).toContain('async function shared<T>');
    expect(out).toContain('const started = Date.now();');
    const notes = result.report.notes.join('\n');
    expect(notes).toMatch(/tools\.ts:\d+: described\(\) removed, no longer called: every call to it was unwrapped/);
    expect(notes).toMatch(/tools\.ts:\d+: LABEL removed, no longer used/);
    expect(notes).toMatch(/tools\.ts:\d+: timed\(\) removed, no longer called/);
    expect(notes).toMatch(/tools\.ts:6: started is no longer read .* kept, since making it may do something/);
    const unread = typecheckFiles([file], dir, { noUnusedLocals: true }).map(d => d.replace(/^tools\.ts:\d+: /, ''));
    expect(unread).toEqual([`'started' is declared but its value is never read.`]);
  }, 300_000);
});
