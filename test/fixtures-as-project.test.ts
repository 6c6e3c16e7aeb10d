/**
 * Every runnable fixture (one with a scenario), migrated as a user's project: the fixtures' inputs are the
 * sources of one package that declares only SDK 1.x and zod (the lockfile of a harness project), installed
 * with `npm ci` far from this repository, migrated by one CLI run, installed again as the notes ask, then
 * checked with the project's own strict `tsc` and `--check`. Their behaviour on both eras is
 * test/verify-fixtures.test.ts's; what this adds is that nothing of it depends on mcp-migrate's own
 * node_modules (types resolved, imports and packages written as a user's project needs them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, migrateAsUser, runCli, typecheck, type CliRun, type Ran, type UserProjectRun } from './support/userProject.js';

const fixtures = path.join(REPO_ROOT, '__testfixtures__');
/** The package the fixtures become: a harness project's manifest, lockfile and strict tsconfig. */
const template = path.join(REPO_ROOT, 'test', 'user-projects', 'factory-server');

/** Fixtures with a scenario whose input imports nothing but SDK 1.x, zod and Node's modules. */
function runnableFixtures(): { name: string; file: string }[] {
  const scenarios = new Set(fs.readdirSync(path.join(fixtures, 'scenarios')).map(f => f.replace(/\.json$/, '')));
  return fs
    .readdirSync(fixtures)
    .filter(f => /\.input\.[cm]?[jt]s$/.test(f) && scenarios.has(f.replace(/\.input\.[a-z]+$/, '')))
    .filter(f => [...fs.readFileSync(path.join(fixtures, f), 'utf8').matchAll(/from\s*'([^']+)'/g)].every(m => /^(@modelcontextprotocol\/sdk\/|zod$|node:)/.test(m[1]!)))
    .map(f => ({ name: f.replace(/\.input\.[a-z]+$/, ''), file: f.replace('.input', '') }));
}

/** `file(line,col): error TSxxxx` lines, without positions (the migration moves lines). */
const errors = (ran: Ran): string[] => ran.stdout.split('\n').filter(l => / error TS\d+/.test(l)).map(l => l.replace(/\(\d+,\d+\)/, ''));

describe('the runnable fixtures, migrated as one user project with only SDK 1.x installed', () => {
  const runnable = runnableFixtures();
  let project: UserProjectRun;
  let originalTsc: Ran;
  let migratedTsc: Ran;
  let check: CliRun;

  beforeAll(async () => {
    const source = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-fixtures-src-'));
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.json']) fs.copyFileSync(path.join(template, f), path.join(source, f));
    fs.mkdirSync(path.join(source, 'src'));
    for (const { file } of runnable) fs.copyFileSync(path.join(fixtures, file.replace(/(\.[a-z]+)$/, '.input$1')), path.join(source, 'src', file));
    expect(runnable.length, 'runnable fixtures').toBeGreaterThan(20);
    project = await migrateAsUser({ name: 'fixtures', source });
    originalTsc = await typecheck(project.original);
    migratedTsc = await typecheck(project.migrated);
    check = await runCli(project.migrated, ['.', '--check']);
  }, 1_800_000);

  it('migrates every site of every fixture in one run, and exits 0', () => {
    const report = project.migration.report;
    expect(report, project.migration.stderr).toBeDefined();
    const left = report!.sites.filter(s => s.outcome !== 'rewritten').map(s => `${s.file}:${s.line} ${s.kind} ${s.outcome}: ${s.reason}`);
    expect(left).toEqual([]);
    const migrated = new Set(report!.sites.map(s => path.basename(s.file)));
    expect(runnable.map(r => r.file).filter(f => !migrated.has(f)), 'fixtures with no site found').toEqual([]);
    expect(project.migration.status, project.migration.stderr).toBe(0);
  });

  it('installs what the notes name', () => {
    expect(project.install?.status, project.install?.stderr).toBe(0);
  });

  it("passes the project's own strict tsc with no error the original did not have", () => {
    const before = new Set(errors(originalTsc));
    expect(errors(migratedTsc).filter(e => !before.has(e)), migratedTsc.stdout).toEqual([]);
  });

  it('--check passes on the migrated project', () => {
    expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
  });
});
