/**
 * Migrates a project as its user would, far from this repository: the project is copied to a fresh
 * directory under the system temp directory (no package.json, tsconfig.json or node_modules anywhere
 * above it, so nothing of mcp-migrate's own dependencies can be seen), installed with `npm ci` from
 * its own committed lockfile, committed to a git repository of its own (the CLI's dirty-tree guard),
 * and migrated by one run of the built CLI. Then what the report's notes name is installed (`npm
 * install`: the migrated package.json declares the 2.x packages), and the project's own TypeScript,
 * the CLI's `--check` and `verify` (the original against the migrated copy, on both eras) run on it.
 *
 * The original stays beside the migrated copy, installed from the same lockfile: verify needs it as
 * the baseline. Installing once per project and copying the installed tree (`cp -a`, symlinks and
 * all) gives the second copy exactly what a second `npm ci` from that lockfile would.
 *
 * npm runs quiet and offline-friendly (`--no-audit --no-fund --prefer-offline`) over the one npm cache
 * every run shares. Nothing here waits on a clock: each step runs to its end (spawned servers are
 * bounded by verify's own per-round limits, which are generous).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verify, type ServerCommand, type Scenario, type VerifyResult } from '../../src/verify/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(REPO_ROOT, 'dist', 'src', 'cli.js');
/** The runner for TypeScript entries; the entry's own imports still resolve from the project's node_modules. */
export const TSX = path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
/** For projects that declare no TypeScript of their own (the trimmed real servers): the compiler only, types come from the project. */
const REPO_TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** A configured key, as a deployment gives it, on one instance (its memory keeps the nonces: said with MCP_REQUEST_STATE_STORE). */
export const SERVER_ENV = { MCP_REQUEST_STATE_KEY: 'user-project-key-for-request-state-0123456789', MCP_REQUEST_STATE_STORE: 'memory' };

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a user's shell would have. Under `npm test` the outer npm exports its own settings
 * (`npm_config_*`, `npm_package_*`, the lifecycle's prefix): they would point the project's npm at
 * this repository, so they are left out.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key) && key !== 'INIT_CWD') env[key] = value;
  return { ...env, NO_COLOR: '1', FORCE_COLOR: undefined, ...extra };
}

/** Runs a program to its end; never rejects on a non-zero exit. */
export function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = userEnv()): Promise<Ran> {
  return new Promise(resolve => {
    execFile(file, args, { cwd, env, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: unknown }).code : 0;
      resolve({
        status: typeof code === 'number' ? code : null,
        stdout,
        stderr: err && typeof code !== 'number' ? `${stderr}\n${err.message}` : stderr,
      });
    });
  });
}

export async function npm(dir: string, args: string[]): Promise<Ran> {
  return run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], dir);
}

async function must(ran: Promise<Ran> | Ran, what: string): Promise<Ran> {
  const r = await ran;
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stderr}\n${r.stdout}`.trim());
  return r;
}

export function git(dir: string, args: string[]): Promise<Ran> {
  return run(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args],
    dir,
  );
}

/**
 * A new directory under the system temp directory, checked to have no package.json, tsconfig.json or
 * node_modules in any directory above it: a project there resolves only what it installs itself.
 */
export function isolatedDir(label: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `mcp-migrate-user-${label}-`)));
  for (let up = path.dirname(dir); ; up = path.dirname(up)) {
    for (const name of ['node_modules', 'package.json', 'tsconfig.json']) {
      if (fs.existsSync(path.join(up, name)))
        throw new Error(`${path.join(up, name)} is above the temp directory: a project there would not be isolated`);
    }
    if (path.dirname(up) === up) break;
  }
  if (dir.startsWith(REPO_ROOT + path.sep)) throw new Error(`the temp directory ${dir} is inside the repository`);
  return dir;
}

/** Copies a project's sources (never a node_modules or .git it may have in the repository). */
export function copySources(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: src => !/(^|[\\/])(node_modules|\.git)$/.test(src) });
}

/** A git repository of its own, everything committed; node_modules kept out without touching the project's files. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await must(git(dir, ['init', '-q']), 'git init');
  fs.appendFileSync(path.join(dir, '.git', 'info', 'exclude'), 'node_modules/\n');
  await must(git(dir, ['add', '-A']), 'git add');
  await must(git(dir, ['commit', '-qm', message]), 'git commit');
}

/** `cp -a`: a faithful copy of an installed tree (symlinks, modes, workspace links). */
export function copyInstalled(from: string, to: string): Promise<Ran> {
  return must(run('cp', ['-a', from, to], path.dirname(to)), `cp -a ${from}`);
}

export interface CliRun extends Ran {
  /** The `--json` report, when stdout parsed as one. */
  report?: Report;
}

export interface ReportSite {
  file: string;
  line: number;
  column: number;
  kind: string;
  call?: string;
  outcome: string;
  reason: string;
  handler?: string;
  shape?: string;
  /** Where it was in the file as read, when the run wrote the file and reports it there instead. */
  readAt?: { line: number; column: number };
}

export interface Report {
  sites: ReportSite[];
  notes: string[];
  files: { file: string; outcome: string; reason?: string }[];
  created?: string[];
  summary: {
    sitesLeft: number;
    filesErrored: number;
    filesSkipped: number;
    startFailures: number;
    sites: { rewritten: number; marked: number; skipped: number };
  };
  exitCode?: number;
}

/** `node dist/src/cli.js <args>` in `dir`, as a user types it. */
export async function runCli(dir: string, args: string[]): Promise<CliRun> {
  const r = await run(process.execPath, [CLI, ...args], dir);
  let report: Report | undefined;
  try {
    report = args.includes('--json') ? (JSON.parse(r.stdout) as Report) : undefined;
  } catch {
    report = undefined;
  }
  return { ...r, report };
}

/** The project's own TypeScript (`node_modules/typescript`), else, for a project that declares none, the repository's compiler. */
export function typecheck(dir: string, tsconfig = 'tsconfig.json'): Promise<Ran> {
  const own = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  return run(process.execPath, [fs.existsSync(own) ? own : REPO_TSC, '--noEmit', '--pretty', 'false', '-p', tsconfig], dir);
}

/** How the project's entry is started: JavaScript with node, TypeScript with tsx, both from the project's directory. */
export function entryCommand(dir: string, entry: string): ServerCommand {
  const [file, ...args] = entry.split(' ');
  const runner = /\.[cm]?js$/.test(file!) ? '' : `${JSON.stringify(TSX)} `;
  return { command: `${JSON.stringify(process.execPath)} ${runner}${[file!, ...args].join(' ')}`, cwd: dir, env: SERVER_ENV };
}

export interface UserProjectOptions {
  /** A label for the temp directory. */
  name: string;
  /** The project in the repository. */
  source: string;
  /** Where, inside the project, the user runs the CLI (default: the project's root). */
  runFrom?: string;
}

/** What a user's migration of one project left behind. */
export interface UserProjectRun {
  base: string;
  /** The original, installed from its lockfile. */
  original: string;
  /** The copy the CLI migrated, then installed again. */
  migrated: string;
  /** The one CLI run (`mcp-migrate . --json`). */
  migration: CliRun;
  /** The install after migrating, when the notes asked for one. */
  install?: Ran;
  /** Milliseconds per step (install, migrate, install after), for the suite's budget. */
  timings: Record<string, number>;
}

/** Runs `step`, adding its wall time to `timings[name]`. */
export async function timed<T>(timings: Record<string, number>, name: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    timings[name] = (timings[name] ?? 0) + Math.round(performance.now() - started);
  }
}

/** Copies, installs (npm ci from the project's lockfile), commits and migrates one project; then installs what the notes name. */
export async function migrateAsUser(options: UserProjectOptions): Promise<UserProjectRun> {
  const base = isolatedDir(options.name);
  const original = path.join(base, 'original');
  const migrated = path.join(base, 'migrated');
  copySources(options.source, original);
  if (!fs.existsSync(path.join(original, 'package-lock.json')))
    throw new Error(`${options.source} has no package-lock.json: commit one beside its package.json`);
  const timings: Record<string, number> = {};
  await timed(timings, 'npm ci', async () => {
    await must(npm(original, ['ci']), `npm ci in ${options.name}`);
    await copyInstalled(original, migrated);
    await commitAll(migrated, 'original');
  });
  const cwd = path.join(migrated, options.runFrom ?? '.');
  const migration = await timed(timings, 'migrate', () => runCli(cwd, ['.', '--json']));
  const install = await timed(timings, 'install', () => installWhatNotesName(migrated, migration.report?.notes ?? []));
  return { base, original, migrated, migration, timings, ...(install ? { install } : {}) };
}

/**
 * What a user does after reading the notes: `npm install` when a package.json changed ("run your package
 * manager's install"), naming the packages a note asks to raise (`package.json: zod "^3.25.76" stays on
 * 3.x, but ... needs zod >= 4.2; raise it`), in the workspace package whose package.json the note names.
 */
export function installCommands(notes: string[]): string[][] {
  const commands: string[][] = [];
  for (const note of notes) {
    const manifest = /^(\S*package\.json):/.exec(note)?.[1];
    for (const m of note.matchAll(/needs (\S+) >= ([\d.]+); raise it/g)) {
      const workspace = manifest && manifest !== 'package.json' ? ['-w', path.posix.dirname(manifest)] : [];
      commands.push(['install', `${m[1]}@^${m[2]}`, ...workspace]);
    }
  }
  if (commands.length === 0 && notes.some(n => /run your package manager's install/.test(n))) commands.push(['install']);
  return commands;
}

async function installWhatNotesName(dir: string, notes: string[]): Promise<Ran | undefined> {
  let last: Ran | undefined;
  for (const args of installCommands(notes)) {
    last = await npm(dir, args);
    if (last.status !== 0) return last;
  }
  return last;
}

/** The scenario on the original (legacy client) and on the migrated copy (both eras). */
export interface ServeOptions {
  /** Where the server is started from, relative to the project. */
  runFrom?: string;
  /** The server speaks Streamable HTTP at this path, on the PORT verify gives it. */
  http?: string;
  /** The server's environment instead of SERVER_ENV (a deployment with no MCP_REQUEST_STATE_KEY). */
  env?: Record<string, string>;
}

export function verifyProject(project: UserProjectRun, entry: string, scenario: Scenario, serve: ServeOptions = {}): Promise<VerifyResult> {
  const command = (dir: string) => ({
    ...entryCommand(path.join(dir, serve.runFrom ?? '.'), entry),
    ...(serve.env ? { env: serve.env } : {}),
    ...(serve.http ? { http: serve.http } : {}),
  });
  return verify({ before: command(project.original), after: command(project.migrated), scenario, timeoutMs: 30_000 });
}

/** Every file under `dir` but node_modules and .git, with a hash of its bytes. */
export function treeDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of fs.readdirSync(at).sort()) {
      if (name === 'node_modules' || name === '.git') continue;
      const full = path.join(at, name);
      if (fs.statSync(full).isDirectory()) walk(full);
      else out[path.relative(dir, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** Runs at most `n` of the tasks given to it at once, in the order given. */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async task => {
    // A finishing task hands its slot straight to the next in line, so no newcomer can slip in between.
    if (active < n) active++;
    else await new Promise<void>(resolve => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
