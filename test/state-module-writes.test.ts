/**
 * What a run writes of the requestState module (src/stateModuleWrites.ts), through the pipeline: the
 * module and its seal side by side, the module naming the seal as the project's imports name files (with
 * `.js`, without extension, `.mjs`, `.cjs`) and declarations for both in a checked JavaScript project;
 * never a file over an existing one; nothing beside a self-contained module from before the seal; and a
 * run after an interrupted one completes whichever of the two files is missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, '__testfixtures__');
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-state-writes-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const ELICIT = fs.readFileSync(path.join(fixtures, 'elicit-form.input.ts'), 'utf8');
const ESM = fs.readFileSync(path.join(fixtures, 'javascript-esm.input.mjs'), 'utf8');
const SEAL_IMPORT = /(?:from |require\()['"]\.\/mcp-migrate-state-seal([^'"]*)['"]/g;

/** A directory named `name` holding `files`; the path of its first file. */
function project(name: string, files: Record<string, string>): { dir: string; main: string } {
  const dir = path.join(base, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return { dir, main: path.join(dir, Object.keys(files)[0]!) };
}

/** Migrates `file` as it is on disk, and writes what the run would. */
async function migrate(file: string, dir: string): Promise<MigrateResult> {
  const result = await migrateSources([{ path: file, text: fs.readFileSync(file, 'utf8') }], { cwd: dir });
  for (const change of result.changes) fs.writeFileSync(change.path, change.after);
  return result;
}

/** The extensions `file` names the seal with. */
const sealSpecifiers = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(SEAL_IMPORT)].map(m => m[1]);

describe('the requestState module a run writes', () => {
  it('is two files side by side, the module naming its seal with .js where the handlers name it so', async () => {
    const { dir, main } = project('ts', { 'server.ts': ELICIT });
    const result = await migrate(main, dir);
    expect(result.report.created).toEqual(['mcp-migrate-state.ts', 'mcp-migrate-state-seal.ts']);
    expect(fs.readFileSync(main, 'utf8')).toContain("from './mcp-migrate-state.js'");
    expect(sealSpecifiers(path.join(dir, 'mcp-migrate-state.ts'))).toEqual(['.js', '.js']);
  });

  it('names the seal without extension where the handlers import the module without one', async () => {
    const { dir, main } = project('extensionless', {
      'server.ts': `import { title } from './title';\n${ELICIT.replace('`Delete ${path}?`', 'title(path)')}`,
      'title.ts': 'export const title = (path: string) => `Delete ${path}?`;\n',
    });
    const result = await migrate(main, dir);
    expect(result.report.created).toEqual(['mcp-migrate-state.ts', 'mcp-migrate-state-seal.ts']);
    expect(fs.readFileSync(main, 'utf8')).toContain("from './mcp-migrate-state'");
    expect(sealSpecifiers(path.join(dir, 'mcp-migrate-state.ts'))).toEqual(['', '']);
  });

  it('is .mjs with declarations for both files in a JavaScript project TypeScript checks', async () => {
    const { dir, main } = project('checked-js', { 'server.mjs': ESM, 'tsconfig.json': '{"compilerOptions":{"checkJs":true}}' });
    const result = await migrate(main, dir);
    expect(result.report.created).toEqual([
      'mcp-migrate-state.mjs',
      'mcp-migrate-state-seal.mjs',
      'mcp-migrate-state.d.mts',
      'mcp-migrate-state-seal.d.mts',
    ]);
    expect(sealSpecifiers(path.join(dir, 'mcp-migrate-state.mjs'))).toEqual(['.mjs', '.mjs']);
    expect(sealSpecifiers(path.join(dir, 'mcp-migrate-state.d.mts'))).toEqual(['.mjs']);
  });

  it('writes nothing beside a self-contained module of an earlier version, and nothing over an existing seal', async () => {
    const old = "export * from './elsewhere.js';\n// a module from before the seal: it imports none\n";
    const { dir, main } = project('old-module', { 'server.ts': ELICIT, 'mcp-migrate-state.ts': old });
    const result = await migrate(main, dir);
    expect(result.report.created).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'mcp-migrate-state-seal.ts'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'mcp-migrate-state.ts'), 'utf8')).toBe(old);

    const mine = '// my own seal\n';
    const kept = project('existing-seal', { 'server.ts': ELICIT, 'mcp-migrate-state-seal.ts': mine });
    expect((await migrate(kept.main, kept.dir)).report.created).toEqual(['mcp-migrate-state.ts']);
    expect(fs.readFileSync(path.join(kept.dir, 'mcp-migrate-state-seal.ts'), 'utf8')).toBe(mine);
  });

  it('is completed by a second run when an earlier one left either file, or both, unwritten', async () => {
    const { dir, main } = project('interrupted', { 'server.ts': ELICIT });
    await migrate(main, dir);
    const files = Object.fromEntries(
      ['mcp-migrate-state.ts', 'mcp-migrate-state-seal.ts'].map(f => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
    );
    for (const gone of [['mcp-migrate-state-seal.ts'], ['mcp-migrate-state.ts'], ['mcp-migrate-state.ts', 'mcp-migrate-state-seal.ts']]) {
      for (const f of gone) fs.rmSync(path.join(dir, f));
      const again = await migrate(main, dir);
      expect(again.report.created, gone.join(', ')).toEqual(gone);
      for (const f of gone)
        expect(again.report.notes).toContainEqual(
          expect.stringMatching(
            new RegExp(`^${f.replace(/\./g, '\\.')} is imported by (migrated handlers|mcp-migrate-state\\.ts) but was missing`),
          ),
        );
      for (const [f, text] of Object.entries(files)) expect(fs.readFileSync(path.join(dir, f), 'utf8'), f).toBe(text);
    }
  });
});
