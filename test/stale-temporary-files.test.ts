/**
 * A run killed while writing (SIGKILL: no handler runs) leaves the temporary file of the write it was in
 * beside its target. The next run that writes removes such files, whoever's they were (a killed run of
 * this tool, by the name writeAtomic gives them, whose process is gone), and says so; it leaves alone a
 * file of that name whose process still runs (a concurrent run) and every other file.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeStaleTemporaryFiles } from '../src/io.js';
import { assertBuilt, CLI, hashTree, LEGACY_SERVER, makeTree, REPO, removeTree, runCli } from './cli-helpers.js';

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
const PROJECT = { 'package.json': PACKAGE_JSON, 'src/server.ts': LEGACY_SERVER };

const temporaryFiles = async (root: string) => (await readdir(root, { recursive: true })).filter(f => f.endsWith('.tmp')).sort();

/** The pid of a process that has ended. */
function endedPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}

/** Runs the CLI with the write of a target matching `hold` held forever, and kills it with SIGKILL once it is held. */
function killWhileWriting(root: string, hold: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', path.join(REPO, 'test', 'support', 'hold-writes.mjs'), CLI, 'src'], {
      cwd: root,
      env: { ...process.env, MCP_MIGRATE_TEST_HOLD_WRITES: hold, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', chunk => {
      stderr += chunk;
      if (stderr.includes('HOLD ')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`not killed: ${stderr}`))));
  });
}

describe('temporary files a killed run left', { timeout: 600_000 }, () => {
  it('SIGKILL while writing leaves one; the next run removes it, says so, and completes the migration', async () => {
    const root = await tree(PROJECT);
    const reference = await tree(PROJECT);
    expect((await runCli(['src'], reference)).code).toBe(0);

    await killWhileWriting(root, 'package\\.json$');
    const left = await temporaryFiles(root);
    expect(left).toEqual([expect.stringMatching(/^\.package\.json\.mcp-migrate\.\d+\.[0-9a-f]{8}\.tmp$/)]);

    const again = await runCli(['src'], root);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `mcp-migrate: warning: removed 1 temporary file left by an interrupted run (killed while writing): ${left[0]}`,
    );
    expect(await temporaryFiles(root)).toEqual([]);
    expect(await hashTree(root, { mtime: false })).toEqual(await hashTree(reference, { mtime: false }));
    // said in the JSON report's warnings too, and only once
    const quiet = await runCli(['--json', 'src'], root);
    expect(JSON.parse(quiet.stdout).warnings).not.toContainEqual(expect.stringMatching(/temporary file/));
  });

  it("removes the files of ended processes by either name the tool has given them, beside sources and package.json; leaves a running process's and every other file", async () => {
    const root = await tree({ ...PROJECT, 'src/lib/util.ts': 'export const x = 1;\n' });
    const dead = await endedPid();
    const stale = [
      'src/.server.ts.mcp-migrate.' + dead + '.0123abcd.tmp',
      'src/lib/.util.ts.' + dead + '.deadbeef.tmp',
      '.package.json.mcp-migrate.' + dead + '.00ff00ff.tmp',
    ];
    const kept = [
      'src/.server.ts.mcp-migrate.' + process.pid + '.0123abcd.tmp',
      'src/notes.tmp',
      'src/.server.ts.backup.tmp',
      'src/.server.ts.123.nothex!.tmp',
    ];
    for (const f of [...stale, ...kept]) await writeFile(path.join(root, f), 'x');
    const run = await runCli(['--json', 'src'], root);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).warnings).toContain(
      `removed 3 temporary files left by an interrupted run (killed while writing): ${[...stale].sort().join(', ')}`,
    );
    expect(await temporaryFiles(root)).toEqual(kept.map(f => f).sort());
    for (const f of kept) expect(await readFile(path.join(root, f), 'utf8')).toBe('x');
  });

  it('removeStaleTemporaryFiles: a directory that cannot be read is passed over', async () => {
    expect(removeStaleTemporaryFiles([path.join(REPO, 'no-such-directory')])).toEqual([]);
  });
});
