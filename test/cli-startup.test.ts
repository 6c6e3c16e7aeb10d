/**
 * What the command line loads before it knows what it is asked: `--help`, `--version`, a usage error and
 * `verify --help` answer from the arguments alone, without the compiler (TypeScript, ts-morph), the
 * official codemod or the rewriter, which took seconds to load before any of them could answer. Said by
 * the modules the process loaded, never by a clock.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, REPO, runCli } from './cli-helpers.js';

const RECORD = path.join(REPO, 'test', 'support', 'record-loads.mjs');
/** Packages only the migration itself needs (TypeScript comes in through ts-morph's require, which an import hook does not see). */
const HEAVY = /node_modules\/(typescript|ts-morph|@ts-morph|jscodeshift|recast|@babel|@modelcontextprotocol\/codemod)\//;

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(path.join(tmpdir(), 'mcp-migrate-startup-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI with its module loads recorded; the result and the modules it loaded. */
async function loadsOf(args: string[], label: string): Promise<{ code: number | null; stdout: string; stderr: string; loaded: string[] }> {
  const file = path.join(dir, `${label}.txt`);
  const r = await runCli(args, dir, { MCP_MIGRATE_TEST_LOADS: file }, ['--import', RECORD]);
  const loaded = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return { ...r, loaded };
}

describe('the command line answers from its arguments before loading the migration', { timeout: 120_000 }, () => {
  it('--help: the usage, without the compiler', async () => {
    const r = await loadsOf(['--help'], 'help');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/mcp-migrate \[paths\.\.\]/);
    expect(r.loaded.some(url => url.endsWith('/dist/src/cli.js'))).toBe(true);
    expect(r.loaded.filter(url => HEAVY.test(url))).toEqual([]);
  });

  it('--version: the version, without the compiler', async () => {
    const r = await loadsOf(['--version'], 'version');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.loaded.filter(url => HEAVY.test(url))).toEqual([]);
  });

  it('a usage error: exit 2 and the message, without the compiler', async () => {
    const r = await loadsOf(['--jobs', '0', '.'], 'usage');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jobs takes a whole number from 1 to 64/);
    expect(r.loaded.filter(url => HEAVY.test(url))).toEqual([]);
  });

  it('verify --help: its usage, without the compiler', async () => {
    const r = await loadsOf(['verify', '--help'], 'verify-help');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/verify/);
    expect(r.loaded.filter(url => HEAVY.test(url))).toEqual([]);
  });

  it('the recording itself sees the compiler when a run needs it', async () => {
    // A run over a file with an SDK server loads the analysis: without this the checks above could pass on a hook that records nothing.
    const project = await mkdtemp(path.join(dir, 'project-'));
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      path.join(project, 'server.ts'),
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const server = new McpServer({ name: 'x', version: '1.0.0' });\nawait server.server.elicitInput({ message: 'hi', requestedSchema: { type: 'object', properties: {} } });\n",
    );
    const file = path.join(dir, 'run.txt');
    const r = await runCli(['--dry-run', '--jobs', '1', project], dir, { MCP_MIGRATE_TEST_LOADS: file }, ['--import', RECORD]);
    expect(r.code, r.stderr).toBe(0);
    const loaded = (await readFile(file, 'utf8')).split('\n');
    // (ts-morph is imported, TypeScript required by it: an import hook sees the first)
    expect(loaded.some(url => /node_modules\/ts-morph\//.test(url))).toBe(true);
  });
});
