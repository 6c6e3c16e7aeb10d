/**
 * The project's formatter: detection from config files and package.json (plain data, temp dirs outside
 * the repository), the command, running its own binary, and the CLI end to end with a fake formatter in
 * node_modules/.bin that records what it was given.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHuman, summarize, type FormattingResult, type RunReport } from '../src/format-report.js';
import { detectFormatter, formatterArgs, formatterCommand, formattersFor, runFormatter } from '../src/formatter.js';
import { emptyReport } from '../src/report.js';
import { assertBuilt, LEGACY_SERVER, PLAIN_SOURCE, REPO, runCli } from './cli-helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp directory with these files (outside the repository, so its git and config are not found). */
function project(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-migrate-fmt-')));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/**
 * A fake formatter binary: appends its cwd and arguments to calls.jsonl beside it, then exits with `code`
 * (after `sleep` ms). Dynamic import: it runs whether the project is ESM or CommonJS.
 */
function fakeFormatter(root: string, tool: string, options: { code?: number; sleep?: number; say?: string } = {}): string {
  const bin = path.join(root, 'node_modules', '.bin', tool);
  mkdirSync(path.dirname(bin), { recursive: true });
  const log = JSON.stringify(path.join(root, 'calls.jsonl'));
  writeFileSync(
    bin,
    `#!/usr/bin/env node
import('node:fs').then(fs => {
  fs.appendFileSync(${log}, JSON.stringify({ cwd: process.cwd(), argv: process.argv.slice(2) }) + '\\n');
  ${options.say ? `process.stderr.write(${JSON.stringify(options.say)});` : ''}
  setTimeout(() => process.exit(${options.code ?? 0}), ${options.sleep ?? 0});
});
`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

function calls(root: string): { cwd: string; argv: string[] }[] {
  const file = path.join(root, 'calls.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map(line => JSON.parse(line));
}

const pkg = (extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'p', version: '1.0.0', ...extra });

describe('detectFormatter', () => {
  it('finds each tool by its config file', () => {
    expect(detectFormatter(project({ 'package.json': pkg(), '.prettierrc': '{}' }))).toMatchObject({
      tool: 'prettier',
      declaredBy: '.prettierrc',
    });
    expect(detectFormatter(project({ 'package.json': pkg(), 'prettier.config.mjs': 'export default {};' }))).toMatchObject({
      tool: 'prettier',
      declaredBy: 'prettier.config.mjs',
    });
    expect(detectFormatter(project({ 'package.json': pkg(), 'biome.jsonc': '{}' }))).toMatchObject({
      tool: 'biome',
      declaredBy: 'biome.jsonc',
    });
    expect(detectFormatter(project({ 'package.json': pkg(), '.dprint.json': '{}' }))).toMatchObject({
      tool: 'dprint',
      declaredBy: '.dprint.json',
    });
  });

  it('finds prettier by the "prettier" key of package.json, and each tool by a dependency', () => {
    expect(detectFormatter(project({ 'package.json': pkg({ prettier: '@acme/prettier-config' }) }))).toMatchObject({
      tool: 'prettier',
      declaredBy: 'package.json "prettier"',
    });
    expect(detectFormatter(project({ 'package.json': pkg({ devDependencies: { '@biomejs/biome': '^2.0.0' } }) }))).toMatchObject({
      tool: 'biome',
      declaredBy: 'package.json devDependencies',
    });
    expect(detectFormatter(project({ 'package.json': pkg({ dependencies: { dprint: '^0.50.0' } }) }))).toMatchObject({
      tool: 'dprint',
      declaredBy: 'package.json dependencies',
    });
  });

  it('prefers a config file to a dependency (which may be left over), and finds nothing where nothing is declared', () => {
    expect(detectFormatter(project({ 'package.json': pkg({ devDependencies: { prettier: '^3.0.0' } }), 'biome.json': '{}' }))?.tool).toBe(
      'biome',
    );
    expect(
      detectFormatter(project({ 'package.json': pkg({ devDependencies: { typescript: '^5.0.0' } }), 'tsconfig.json': '{}' })),
    ).toBeUndefined();
    // A config-looking name that is not one.
    expect(detectFormatter(project({ 'package.json': pkg(), '.prettierrc.bak': '{}', 'biome.json.orig': '{}' }))).toBeUndefined();
  });

  it('looks above the package up to the top of its git work tree (a monorepo), and not above a package outside git', () => {
    const mono = project({ '.git/HEAD': 'ref: refs/heads/main\n', '.prettierrc': '{}', 'packages/a/package.json': pkg() });
    expect(detectFormatter(path.join(mono, 'packages/a'))).toMatchObject({
      tool: 'prettier',
      declaredBy: '../../.prettierrc',
      root: path.join(mono, 'packages/a'),
    });
    const loose = project({ '.prettierrc': '{}', 'packages/a/package.json': pkg() });
    expect(detectFormatter(path.join(loose, 'packages/a'))).toBeUndefined();
  });

  it("finds the project's own binary, hoisted to a parent's node_modules too; none when not installed", () => {
    const root = project({ '.git/HEAD': '', 'packages/a/package.json': pkg({ devDependencies: { prettier: '^3.0.0' } }) });
    expect(detectFormatter(path.join(root, 'packages/a'))?.bin).toBeUndefined();
    const bin = fakeFormatter(root, 'prettier');
    expect(detectFormatter(path.join(root, 'packages/a'))?.bin).toBe(bin);
  });
});

describe('the command', () => {
  it('formats exactly the files given, in place', () => {
    expect(formatterArgs('prettier', ['a.ts'])).toEqual(['--write', 'a.ts']);
    expect(formatterArgs('biome', ['a.ts'])).toEqual(['format', '--write', 'a.ts']);
    expect(formatterArgs('dprint', ['a.ts'])).toEqual(['fmt', 'a.ts']);
  });

  it('is relative to where it is pasted, enters the project when that is elsewhere, and quotes what the shell would split', () => {
    const cwd = path.join(path.sep, 'w');
    expect(formatterCommand({ tool: 'prettier', root: cwd }, [path.join(cwd, 'src/a.ts')], cwd)).toBe('npx prettier --write src/a.ts');
    expect(formatterCommand({ tool: 'biome', root: path.join(cwd, 'pkg') }, [path.join(cwd, 'pkg/src/my file.ts')], cwd)).toBe(
      "cd pkg && npx biome format --write 'src/my file.ts'",
    );
  });
});

describe('the report line', () => {
  const human = (formatting: FormattingResult[]) => {
    const base = emptyReport();
    const report: RunReport = {
      schemaVersion: 1,
      mode: 'write',
      ...base,
      files: [],
      codemodLeftovers: [],
      sdkPatches: [],
      warnings: [],
      formatting,
      summary: summarize(base, []),
      exitCode: 0,
    };
    return formatHuman(report, { color: false });
  };
  const many = Array.from({ length: 30 }, (_, i) => `src/tools/tool-number-${i}.ts`);
  const result = (files: string[], extra: Partial<FormattingResult> = {}): FormattingResult => ({
    tool: 'prettier',
    root: '.',
    declaredBy: '.prettierrc',
    files,
    command: `npx prettier --write ${files.join(' ')}`,
    ran: false,
    ...extra,
  });

  it('prints the command, its first files only when the list is long (the JSON report has it whole)', () => {
    expect(human([result(['src/a.ts'])])).toContain('formatted with prettier? run: npx prettier --write src/a.ts\n');
    expect(human([result(many)])).toContain(
      'formatted with prettier? run: npx prettier --write src/tools/tool-number-0.ts src/tools/tool-number-1.ts src/tools/tool-number-2.ts … (27 more files; --json has the whole command)\n',
    );
  });

  it('says what ran, or why it failed', () => {
    expect(human([result(['src/a.ts'], { ran: true })])).toContain('formatted with prettier: 1 file\n');
    expect(human([result(['src/a.ts'], { ran: true, error: 'prettier exited with code 2' })])).toContain(
      'not formatted: prettier exited with code 2; the migration is written; run: npx prettier --write src/a.ts\n',
    );
  });
});

describe('formattersFor', () => {
  it('groups the written sources by project, leaves out package.json and projects that declare no formatter', () => {
    const root = project({
      'a/package.json': pkg({ devDependencies: { prettier: '^3.0.0' } }),
      'a/src/x.ts': '',
      'a/src/y.mts': '',
      'b/package.json': pkg(),
      'b/src/z.ts': '',
      'c/package.json': pkg(),
      'c/dprint.json': '{}',
      'c/z.js': '',
    });
    const found = formattersFor(
      ['a/src/y.mts', 'a/package.json', 'a/src/x.ts', 'a/README.md', 'b/src/z.ts', 'c/z.js'].map(f => path.join(root, f)),
    );
    expect(found.map(f => ({ tool: f.formatter.tool, files: f.files.map(x => path.relative(root, x)) }))).toEqual([
      { tool: 'prettier', files: ['a/src/x.ts', 'a/src/y.mts'] },
      { tool: 'dprint', files: ['c/z.js'] },
    ]);
  });
});

describe('runFormatter', () => {
  it('runs the binary from the project root on the files, relative to it', async () => {
    const root = project({ 'package.json': pkg(), '.prettierrc': '{}', 'src/a.ts': '' });
    fakeFormatter(root, 'prettier');
    expect(await runFormatter(detectFormatter(root)!, [path.join(root, 'src/a.ts')])).toBeUndefined();
    expect(calls(root)).toEqual([{ cwd: root, argv: ['--write', 'src/a.ts'] }]);
  });

  it('says why it failed: not installed, a non-zero exit with its last words, the timeout', async () => {
    const missing = project({ 'package.json': pkg(), 'biome.json': '{}' });
    expect(await runFormatter(detectFormatter(missing)!, [])).toMatch(/^biome is declared \(biome\.json\) but not installed/);
    const failing = project({ 'package.json': pkg(), 'biome.json': '{}' });
    fakeFormatter(failing, 'biome', { code: 3, say: 'noise\nsrc/a.ts: parse error\n' });
    expect(await runFormatter(detectFormatter(failing)!, [])).toBe('biome exited with code 3: src/a.ts: parse error');
    const slow = project({ 'package.json': pkg(), 'dprint.json': '{}' });
    fakeFormatter(slow, 'dprint', { sleep: 20_000 });
    expect(await runFormatter(detectFormatter(slow)!, [], 1000)).toMatch(/^dprint did not finish within 1 s/);
  });
});

describe('--run-formatter, end to end', { timeout: 600_000 }, () => {
  /** A legacy server project with SDK 1.x installed and prettier declared; `fake` as its prettier binary. */
  function legacyProject(fake: Parameters<typeof fakeFormatter>[2] = {}): string {
    const root = project({
      'package.json': pkg({
        type: 'module',
        dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.2.0' },
        devDependencies: { prettier: '^3.0.0' },
      }),
      'src/server.ts': LEGACY_SERVER,
      'src/plain.ts': PLAIN_SOURCE,
    });
    mkdirSync(path.join(root, 'node_modules', '@modelcontextprotocol'), { recursive: true });
    symlinkSync(
      path.join(REPO, 'node_modules', '@modelcontextprotocol', 'sdk'),
      path.join(root, 'node_modules', '@modelcontextprotocol', 'sdk'),
      'dir',
    );
    symlinkSync(path.join(REPO, 'node_modules', 'zod'), path.join(root, 'node_modules', 'zod'), 'dir');
    fakeFormatter(root, 'prettier', fake);
    return root;
  }
  const WRITTEN = ['src/mcp-migrate-state-seal.ts', 'src/mcp-migrate-state.ts', 'src/server.ts'];

  beforeAll(assertBuilt);

  it('runs the formatter on exactly the sources the run wrote (not package.json, not unchanged files)', async () => {
    const root = legacyProject();
    const r = await runCli(['--run-formatter', '--json', 'src'], root);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const written = report.files.filter((f: { written?: boolean }) => f.written).map((f: { file: string }) => f.file);
    expect(written).toEqual(expect.arrayContaining([...WRITTEN, 'package.json']));
    expect(calls(root)).toEqual([{ cwd: root, argv: ['--write', ...WRITTEN] }]);
    expect(report.formatting).toEqual([
      {
        tool: 'prettier',
        root: '.',
        declaredBy: 'package.json devDependencies',
        files: WRITTEN,
        command: `npx prettier --write ${WRITTEN.join(' ')}`,
        ran: true,
      },
    ]);
    expect(r.stderr).toContain('formatted with prettier: 3 files');
  });

  it('without the flag prints the command and runs nothing', async () => {
    const root = legacyProject();
    const r = await runCli(['--json', 'src'], root);
    expect(r.code).toBe(0);
    expect(calls(root)).toEqual([]);
    expect(r.stderr).toContain(`formatted with prettier? run: npx prettier --write ${WRITTEN.join(' ')}\n`);
    expect(JSON.parse(r.stdout).formatting).toEqual([
      expect.objectContaining({ tool: 'prettier', command: `npx prettier --write ${WRITTEN.join(' ')}`, ran: false }),
    ]);
  });

  it('a failing formatter is a warning: the migration stays written and the exit code is 0', async () => {
    const root = legacyProject({ code: 2, say: '[error] src/server.ts: SyntaxError\n' });
    const r = await runCli(['--run-formatter', 'src'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'mcp-migrate: warning: prettier exited with code 2: [error] src/server.ts: SyntaxError; the migrated files are written, not formatted; run: npx prettier --write',
    );
    expect(readFileSync(path.join(root, 'src/server.ts'), 'utf8')).not.toBe(LEGACY_SERVER);
    expect(existsSync(path.join(root, 'src/mcp-migrate-state.ts'))).toBe(true);
  });

  it('is a usage error where nothing is written', async () => {
    const root = project({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--run-formatter', '--check'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--run-formatter formats the files a run writes; --check writes none');
  });
});
