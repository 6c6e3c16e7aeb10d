/**
 * Every runnable fixture (one with a scenario), migrated as a user's project: the fixtures' inputs are the
 * sources of one package that declares only SDK 1.x and zod (the lockfile of a harness project), installed
 * with `npm ci` far from this repository, migrated by one CLI run, installed again as the notes ask, then
 * checked with the project's own strict `tsc` and `--check`, and each fixture verified on both eras against
 * its original, served from the project's own node_modules (test/support/serve-fixture.ts copied in: the
 * fixtures build a server but do not connect one). Nothing of it depends on mcp-migrate's own node_modules.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatVerifyTable, parseScenario, verify } from '../src/verify/index.js';
import { check, type Known } from './support/expectations.js';
import {
  REPO_ROOT,
  SERVER_ENV,
  TSX,
  migrateAsUser,
  runCli,
  typecheck,
  type CliRun,
  type Ran,
  type UserProjectRun,
} from './support/userProject.js';

const fixtures = path.join(REPO_ROOT, '__testfixtures__');
/** The package the fixtures become: a harness project's manifest, lockfile and strict tsconfig. */
const template = path.join(REPO_ROOT, 'test', 'user-projects', 'factory-server');

/**
 * Fixtures that mix a schema of their own into one of SDK 1.x's (`ElicitResultSchema.extend({ content:
 * z.object(...) })`): that needs the zod SDK 1.x builds its schemas with (zod 4), and the template project
 * installs zod 3, under which the original itself fails ("expected a Zod schema"). Served by
 * test/verify-fixtures.test.ts, with zod 4.
 */
const NEEDS_SDK_ZOD: ReadonlySet<string> = new Set(['request-custom-result-schema']);

/**
 * Fixtures with a scenario whose input imports nothing but SDK 1.x, zod and Node's modules, and whose output
 * carries no marker of the official codemod (that marker asks for a review, and fails the project's --check).
 */
function runnableFixtures(): { name: string; file: string; http: boolean }[] {
  const scenarios = new Set(fs.readdirSync(path.join(fixtures, 'scenarios')).map(f => f.replace(/\.json$/, '')));
  return fs
    .readdirSync(fixtures)
    .filter(f => /\.input\.[cm]?[jt]s$/.test(f) && scenarios.has(f.replace(/\.input\.[a-z]+$/, '')))
    .filter(f =>
      [...fs.readFileSync(path.join(fixtures, f), 'utf8').matchAll(/from\s*'([^']+)'/g)].every(m =>
        /^(@modelcontextprotocol\/sdk\/|zod$|node:)/.test(m[1]!),
      ),
    )
    .filter(f => !fs.readFileSync(path.join(fixtures, f.replace('.input', '.output')), 'utf8').includes('@mcp-codemod-error'))
    .filter(f => !NEEDS_SDK_ZOD.has(f.replace(/\.input\.[a-z]+$/, '')))
    .map(f => ({
      name: f.replace(/\.input\.[a-z]+$/, ''),
      file: f.replace('.input', ''),
      http: /from\s*'node:http'/.test(fs.readFileSync(path.join(fixtures, f), 'utf8')),
    }));
}

/**
 * Fixtures that fail here because of a known bug of the tool: test/verify-fixtures.test.ts's KNOWN, where each
 * is said (the runnable ones: no HTTP entry of their own).
 */
const KNOWN: Record<string, Known> = {};

/** The fixture served from `dir` (the copy of serve-fixture.ts there loads the SDK the project installed). */
const serving = (dir: string, file: string) => ({
  command: `${JSON.stringify(process.execPath)} ${JSON.stringify(TSX)} serve-fixture.ts src/${file}`,
  cwd: dir,
  env: SERVER_ENV,
});

/** `file(line,col): error TSxxxx` lines, without positions (the migration moves lines). */
const errors = (ran: Ran): string[] =>
  ran.stdout
    .split('\n')
    .filter(l => / error TS\d+/.test(l))
    .map(l => l.replace(/\(\d+,\d+\)/, ''));

describe('the runnable fixtures, migrated as one user project with only SDK 1.x installed', () => {
  const runnable = runnableFixtures();
  let project: UserProjectRun;
  let originalTsc: Ran;
  let migratedTsc: Ran;
  let checkRun: CliRun;

  beforeAll(async () => {
    const source = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-fixtures-src-'));
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.json']) fs.copyFileSync(path.join(template, f), path.join(source, f));
    fs.mkdirSync(path.join(source, 'src'));
    for (const { file } of runnable)
      fs.copyFileSync(path.join(fixtures, file.replace(/(\.[a-z]+)$/, '.input$1')), path.join(source, 'src', file));
    expect(runnable.length, 'runnable fixtures').toBeGreaterThan(20);
    project = await migrateAsUser({ name: 'fixtures', source });
    originalTsc = await typecheck(project.original);
    migratedTsc = await typecheck(project.migrated);
    checkRun = await runCli(project.migrated, ['.', '--check']);
    for (const dir of [project.original, project.migrated])
      fs.copyFileSync(path.join(REPO_ROOT, 'test', 'support', 'serve-fixture.ts'), path.join(dir, 'serve-fixture.ts'));
  }, 1_800_000);

  it('migrates every site of every fixture in one run, and exits 0', () => {
    const report = project.migration.report;
    expect(report, project.migration.stderr).toBeDefined();
    const left = report!.sites.filter(s => s.outcome !== 'rewritten').map(s => `${s.file}:${s.line} ${s.kind} ${s.outcome}: ${s.reason}`);
    expect(left).toEqual([]);
    const migrated = new Set(report!.sites.map(s => path.basename(s.file)));
    expect(
      runnable.map(r => r.file).filter(f => !migrated.has(f)),
      'fixtures with no site found',
    ).toEqual([]);
    expect(project.migration.status, project.migration.stderr).toBe(0);
  });

  it('installs what the notes name', () => {
    expect(project.install?.status, project.install?.stderr).toBe(0);
  });

  it("passes the project's own strict tsc with no error the original did not have", () => {
    const before = new Set(errors(originalTsc));
    expect(
      errors(migratedTsc).filter(e => !before.has(e)),
      migratedTsc.stdout,
    ).toEqual([]);
  });

  it('--check passes on the migrated project', () => {
    expect(checkRun.status, `${checkRun.stdout}\n${checkRun.stderr}`).toBe(0);
  });

  // Fixtures with an HTTP entry of their own are verified over HTTP by test/verify-fixtures.test.ts.
  for (const { name, file } of runnable.filter(r => !r.http)) {
    check(
      `${name}: the same final results on both eras as the original`,
      KNOWN[name],
      async () => {
        const scenario = parseScenario(JSON.parse(fs.readFileSync(path.join(fixtures, 'scenarios', `${name}.json`), 'utf8')));
        const result = await verify({
          before: serving(project.original, file),
          after: serving(project.migrated, file),
          scenario,
          timeoutMs: 120_000,
        });
        expect(result.ok, formatVerifyTable(result)).toBe(true);
      },
      600_000,
    );
  }
});
