/**
 * The git guard as the README's order meets it: the tool is installed first (`npm i -D mcp-migrate` leaves
 * package.json changed), then run on `src`. The package.json above `src` is the one the run edits: a run
 * refuses over its uncommitted changes before it reads or analyses anything, and `--force` is honoured for
 * it as for the files under the path.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, git, LEGACY_SERVER, makeTree, REPO, removeTree, runCli } from './cli-helpers.js';

const RECORD = path.join(REPO, 'test', 'support', 'record-loads.mjs');
const PACKAGE_JSON = `${JSON.stringify({ name: 'guarded', version: '1.0.0', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.2.0' } }, null, 2)}\n`;
/** What `npm i -D mcp-migrate` does to it. */
const WITH_THE_TOOL = `${JSON.stringify({ name: 'guarded', version: '1.0.0', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.2.0' }, devDependencies: { 'mcp-migrate': '^0.1.0' } }, null, 2)}\n`;

const trees: string[] = [];
beforeAll(assertBuilt);
afterAll(async () => {
  await Promise.all(trees.map(removeTree));
});

/** A committed project whose package.json then gets the tool installed, uncommitted. */
async function projectWithToolInstalled(): Promise<string> {
  const root = await makeTree({ 'package.json': PACKAGE_JSON, 'src/server.ts': LEGACY_SERVER });
  trees.push(root);
  await git(['init', '-q'], root);
  await git(['add', '.'], root);
  await git(['commit', '-q', '-m', 'init'], root);
  await writeFile(path.join(root, 'package.json'), WITH_THE_TOOL);
  return root;
}

describe('the git guard for a package.json above the given path', { timeout: 600_000 }, () => {
  it('refuses before the analysis: the refusal names package.json and loads no compiler', async () => {
    const root = await projectWithToolInstalled();
    const loads = path.join(root, '..', `${path.basename(root)}-loads.txt`);
    trees.push(loads);
    const r = await runCli(['src'], root, { MCP_MIGRATE_TEST_LOADS: loads }, ['--import', RECORD]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/refusing to rewrite files in place: 1 file has uncommitted changes:\n\s+M\s+package\.json/);
    expect(r.stderr).toContain('--force');
    // Before the analysis: nothing of the compiler, the official codemod or the rewriter was loaded.
    const loaded = (await readFile(loads, 'utf8')).split('\n');
    expect(loaded.filter(url => /node_modules\/(ts-morph|typescript|jscodeshift|@modelcontextprotocol\/codemod)\//.test(url))).toEqual([]);
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).toBe(LEGACY_SERVER);
    expect(await readFile(path.join(root, 'package.json'), 'utf8')).toBe(WITH_THE_TOOL);
  });

  it('--force: the run goes through and edits that package.json, keeping the tool', async () => {
    const root = await projectWithToolInstalled();
    const r = await runCli(['--force', 'src'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('refusing');
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toHaveProperty('@modelcontextprotocol/server');
    expect(manifest.devDependencies).toEqual({ 'mcp-migrate': '^0.1.0' });
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).toMatch(/resumable\(server\)/);
  });

  it('a file given as the path: the package.json above it is guarded too', async () => {
    const root = await projectWithToolInstalled();
    const r = await runCli(['src/server.ts'], root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/\s+M\s+package\.json/);
  });

  it('--dry-run and --check look at a dirty tree without refusing', async () => {
    const root = await projectWithToolInstalled();
    expect((await runCli(['--dry-run', 'src'], root)).code).toBe(0);
    expect((await runCli(['--check', 'src'], root)).code).toBe(1);
  });
});
