/**
 * Installable as the README says: the package is packed (`npm pack`), installed into a fresh project
 * outside the repository with SDK 1.x beside it, as a user's project is before migrating, and run from
 * there: `--help`, a dry run on a small SDK 1.x server, the library import, and the language server's start. Nothing of the
 * repository's own node_modules is on the way (the project lives under the temp directory).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from '../src/lsp/client.js';
import { assertBuilt, LEGACY_SERVER, REPO, removeTree } from './cli-helpers.js';

const run = promisify(execFile);

let work: string;
let project: string;
let bin: string;

beforeAll(async () => {
  assertBuilt();
  work = await realpath(await mkdtemp(path.join(tmpdir(), 'mcp-migrate-install-')));
  // The build is fresh (npm test builds first): pack it as it is, without running prepack again.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: REPO,
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = path.join(work, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  project = path.join(work, 'user-server');
  await mkdir(path.join(project, 'src'), { recursive: true });
  await writeFile(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'user-server', version: '1.0.0', private: true, type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '^4.2.0' } }, null, 2)}\n`,
  );
  await writeFile(path.join(project, 'src', 'server.ts'), LEGACY_SERVER);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
  await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  });
  bin = path.join(project, 'node_modules', '.bin', 'mcp-migrate');
}, 900_000);

afterAll(async () => {
  if (work) await removeTree(work);
});

describe('the packed package, installed into a fresh project', { timeout: 600_000 }, () => {
  it('ships the CLI, the transform, the README and the LICENSE, and no benchmark or source maps', async () => {
    const installed = path.join(project, 'node_modules', 'mcp-migrate');
    expect(existsSync(path.join(installed, 'dist', 'src', 'cli.js'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist', 'transforms', 'mrtr.js'))).toBe(true);
    expect(existsSync(path.join(installed, 'LICENSE'))).toBe(true);
    expect(existsSync(path.join(installed, 'README.md'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist', 'bench'))).toBe(false);
    const files = await readdir(path.join(installed, 'dist'), { recursive: true });
    expect(files.filter(f => f.endsWith('.map'))).toEqual([]);
  });

  it('npx mcp-migrate --help prints the usage and the exit codes', async () => {
    const { stdout } = await run('npx', ['--no', '--', 'mcp-migrate', '--help'], { cwd: project });
    expect(stdout).toContain('mcp-migrate [paths..]');
    expect(stdout).toContain('Exit codes:');
  });

  it('a dry run migrates the SDK 1.x server and writes nothing', async () => {
    const { stdout, stderr } = await run(bin, ['--dry-run', 'src'], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toMatch(/^\+\+\+ b\/src\/server\.ts$/m);
    expect(stdout).toContain('inputRequired(');
    expect(stdout).toMatch(/^\+\+\+ b\/src\/mcp-migrate-state\.ts$/m);
    // The seal too: the packed package carries both files of the module.
    expect(stdout).toMatch(/^\+\+\+ b\/src\/mcp-migrate-state-seal\.ts$/m);
    expect(stdout).toMatch(/^\+\s+"@modelcontextprotocol\/server": /m);
    expect(stderr).toMatch(/sites: 1 rewritten, 0 marked, 0 skipped/);
    expect(existsSync(path.join(project, 'src', 'mcp-migrate-state.ts'))).toBe(false);
  });

  it("imports as a library: runMigration's report from JavaScript, its types under NodeNext", async () => {
    await writeFile(
      path.join(project, 'api.mjs'),
      "import { runMigration } from 'mcp-migrate';\nconst { report, changes } = await runMigration({ paths: ['src'], cwd: process.cwd(), mode: 'dry-run', quiet: true });\nconsole.log(JSON.stringify({ sites: report.summary.sites, changed: changes.map(c => c.path.split('/').pop()) }));\n",
    );
    const { stdout } = await run(process.execPath, ['api.mjs'], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
    const out = JSON.parse(stdout) as { sites: { rewritten: number }; changed: string[] };
    expect(out.sites.rewritten).toBe(1);
    expect(out.changed).toContain('server.ts');
    await writeFile(
      path.join(project, 'api-types.mts'),
      "import { runMigration, type RunReport, type SiteReport } from 'mcp-migrate';\nconst { report }: { report: RunReport } = await runMigration({ paths: ['src'], cwd: '.', mode: 'check' });\nconst first: SiteReport | undefined = report.sites[0];\nexport const kind: string | undefined = first?.kind;\n",
    );
    const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      'api-types.mts',
    ];
    await run(process.execPath, [tsc, ...flags], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
  });

  it('mcp-migrate lsp starts, warns on the request site and shuts down cleanly', async () => {
    const client = await LspClient.start(bin, ['lsp', '--stdio'], { cwd: project });
    try {
      const uri = pathToFileURL(path.join(project, 'src', 'server.ts')).href;
      await client.open(uri, LEGACY_SERVER);
      const { diagnostics } = await client.diagnostics(uri, 1, 600_000);
      expect(diagnostics.map(d => d.code)).toContain('mcp-migrate/server-initiated-request');
    } finally {
      expect(await client.stop()).toBe(0);
    }
  });
});
