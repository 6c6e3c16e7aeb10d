/**
 * Runs that survive interruption, as a user's project meets them: SIGINT/SIGTERM in the middle of the
 * writes leave no temporary file; a second run completes a partial migration (package.json and the
 * requestState module are checked even when every source is already migrated); the git guard covers
 * package.json above the given paths; a run outside git says so; the summary counts add up.
 */
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI, git, hashTree, LEGACY_SERVER, makeTree, REPO, removeTree, runCli } from './cli-helpers.js';

const trees: string[] = [];
async function tree(files: Record<string, string | Buffer>): Promise<string> {
  const root = await makeTree(files);
  trees.push(root);
  return root;
}

beforeAll(assertBuilt);
afterAll(async () => {
  await Promise.all(trees.splice(0).map(removeTree));
});

const PACKAGE_JSON = `${JSON.stringify({ name: 'legacy', version: '1.0.0', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.2.0' } }, null, 2)}\n`;
const PROJECT = {
  'package.json': PACKAGE_JSON,
  'src/server.ts': LEGACY_SERVER,
  'src/other.ts': LEGACY_SERVER.replace("'legacy'", "'other'").replace("'greet'", "'welcome'"),
};

/** Every file of a tree except the ones an interrupted write could leave behind. */
async function temporaryFiles(root: string): Promise<string[]> {
  const all = await readdir(root, { recursive: true });
  return all.filter(f => f.endsWith('.tmp'));
}

/** Run the CLI with writes matching `hold` held forever, send `signal` once one is held; the exit and stderr. */
function interruptWhileWriting(root: string, hold: string, signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', path.join(REPO, 'test', 'support', 'hold-writes.mjs'), CLI, 'src'], {
      cwd: root,
      env: { ...process.env, MCP_MIGRATE_TEST_HOLD_WRITES: hold, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', chunk => {
      stderr += chunk;
      if (!sent && stderr.includes('HOLD ')) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('error', reject);
    child.on('close', code => resolve({ code, stderr }));
  });
}

describe('interrupted while writing', { timeout: 600_000 }, () => {
  it('SIGINT: exit 130, no temporary file left, what was written stays; a second run completes the migration', async () => {
    const root = await tree(PROJECT);
    const reference = await tree(PROJECT);
    expect((await runCli(['src'], reference)).code).toBe(0);

    const r = await interruptWhileWriting(root, 'package\\.json$', 'SIGINT');
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/interrupted by SIGINT while writing: 4 of 5 files written, temporary files removed/);
    expect(r.stderr).toMatch(/Not written: package\.json\. Run mcp-migrate again to complete the migration/);
    expect(await temporaryFiles(root)).toEqual([]);
    expect(await readFile(path.join(root, 'package.json'), 'utf8')).toBe(PACKAGE_JSON);
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).not.toBe(LEGACY_SERVER);

    const again = await runCli(['src'], root);
    expect(again.code, again.stderr).toBe(0);
    expect(await hashTree(root, { mtime: false })).toEqual(await hashTree(reference, { mtime: false }));
    const check = await runCli(['--check', 'src'], root);
    expect(check.code, check.stderr).toBe(0);
  });

  it('SIGTERM: exit 143, no temporary file left', async () => {
    const root = await tree(PROJECT);
    const r = await interruptWhileWriting(root, 'server\\.ts$', 'SIGTERM');
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/interrupted by SIGTERM while writing/);
    expect(await temporaryFiles(root)).toEqual([]);
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).toBe(LEGACY_SERVER);
  });
});

describe('a second run completes a partial migration', { timeout: 600_000 }, () => {
  it('every source already migrated, package.json and the requestState module not: --check fails, a run completes them', async () => {
    const reference = await tree(PROJECT);
    expect((await runCli(['src'], reference)).code).toBe(0);
    const partial = await tree(PROJECT);
    for (const f of ['src/server.ts', 'src/other.ts']) await cp(path.join(reference, f), path.join(partial, f));

    const check = await runCli(['--check', '--json', 'src'], partial);
    expect(check.code, check.stderr).toBe(1);
    const report = JSON.parse(check.stdout);
    expect(report.summary).toMatchObject({ filesChanged: 0, manifestsChanged: 1, filesCreated: 2, sitesLeft: 0 });
    expect(report.created).toEqual(['src/mcp-migrate-state.ts', 'src/mcp-migrate-state-seal.ts']);
    expect(check.stderr).toMatch(/check failed: 1 package\.json to change, 2 files to create/);

    const run = await runCli(['src'], partial);
    expect(run.code, run.stderr).toBe(0);
    expect(await hashTree(partial, { mtime: false })).toEqual(await hashTree(reference, { mtime: false }));
  });
});

describe('the git guard and the warning outside git', { timeout: 600_000 }, () => {
  async function repo(): Promise<string> {
    const root = await tree(PROJECT);
    await git(['init', '-q'], root);
    await git(['add', '.'], root);
    await git(['commit', '-q', '-m', 'init'], root);
    return root;
  }

  it('refuses when package.json, above the given paths, has uncommitted changes the run would write over', async () => {
    const root = await repo();
    const edited = PACKAGE_JSON.replace('"1.0.0"', '"1.0.1"');
    await writeFile(path.join(root, 'package.json'), edited);
    // git status refreshes its index: compare the work tree only.
    const workTree = async () => Object.fromEntries(Object.entries(await hashTree(root)).filter(([f]) => !f.startsWith('.git')));
    const before = await workTree();
    const r = await runCli(['src'], root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/ M {2}package\.json/);
    expect(r.stderr).toContain('--force');
    expect(await workTree()).toEqual(before);
    // With it committed, the same run goes through, and says nothing about git.
    await git(['commit', '-qam', 'bump'], root);
    const ok = await runCli(['src'], root);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).not.toContain('not in a git repository');
    expect(await readFile(path.join(root, 'package.json'), 'utf8')).toContain('@modelcontextprotocol/server');
  });

  it('refuses when either file of the requestState module has uncommitted changes', async () => {
    const root = await repo();
    expect((await runCli(['src'], root)).code).toBe(0);
    await git(['add', '.'], root);
    await git(['commit', '-qm', 'migrated'], root);
    for (const file of ['src/mcp-migrate-state.ts', 'src/mcp-migrate-state-seal.ts']) {
      const text = await readFile(path.join(root, file), 'utf8');
      await writeFile(path.join(root, file), `${text}// edited\n`);
      const r = await runCli(['src'], root);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(` M  ${file}`);
      await writeFile(path.join(root, file), text);
    }
  });

  it('warns when the target is not in a git repository (in-place runs only)', async () => {
    const root = await tree(PROJECT);
    const dry = await runCli(['--dry-run', 'src'], root);
    expect(dry.stderr).not.toContain('not in a git repository');
    const r = await runCli(['src'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^mcp-migrate: warning: src: not in a git repository, so the changes cannot be reviewed with git diff or undone/m,
    );
    const json = JSON.parse((await runCli(['--json', '--force', 'src'], await tree(PROJECT))).stdout);
    expect(json.warnings).toEqual([expect.stringContaining('not in a git repository')]);
  });
});

describe('summary counts', { timeout: 600_000 }, () => {
  it('count the sources apart from package.json and the created module, and add up', async () => {
    const root = await tree({ ...PROJECT, 'src/plain.ts': 'export const x = 1;\n' });
    const r = await runCli(['--dry-run', '--json', 'src'], root);
    expect(r.code, r.stderr).toBe(0);
    const { summary, files } = JSON.parse(r.stdout);
    expect(summary).toMatchObject({
      filesScanned: 3,
      filesChanged: 2,
      filesUnchanged: 1,
      filesSkipped: 0,
      filesErrored: 0,
      manifestsChanged: 1,
      filesCreated: 2,
    });
    expect(summary.filesChanged + summary.filesUnchanged + summary.filesSkipped + summary.filesErrored).toBe(summary.filesScanned);
    expect(files.filter((f: { manifest?: boolean; created?: boolean }) => !f.manifest && !f.created)).toHaveLength(summary.filesScanned);
    expect(r.stderr).toMatch(/3 source files scanned: 2 to change, 1 unchanged, 0 skipped, 0 failed; 1 package\.json to change/);
    expect(r.stderr).toMatch(/would create: src\/mcp-migrate-state\.ts, src\/mcp-migrate-state-seal\.ts/);
  });
});
