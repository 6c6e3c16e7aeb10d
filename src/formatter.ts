/**
 * The project's own formatter (prettier, biome or dprint), so the files a run writes can end in the
 * project's style: src/rewrite/style.ts already writes like the file (quotes, indentation, semicolons),
 * but line breaks and wrapping are the formatter's, and only the formatter knows its settings.
 *
 * Detection is plain data read from the files (no formatter is loaded or asked); running it is
 * `--run-formatter`'s. Without the flag the report prints the command instead, because running a tool
 * the user did not ask for (it may rewrite more than our lines, or be a different version) is theirs to decide.
 */
import { execFile, type ExecFileException } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isSourceFile } from './files.js';
import { isRecord } from './values.js';

export type FormatterTool = 'prettier' | 'biome' | 'dprint';

/** In this order when one directory declares several equally (prettier is the commonest). */
const TOOLS: readonly FormatterTool[] = ['prettier', 'biome', 'dprint'];

/** The package that provides each tool's binary, as a project depends on it. */
const PACKAGE: Readonly<Record<FormatterTool, string>> = { prettier: 'prettier', biome: '@biomejs/biome', dprint: 'dprint' };

/** Each tool's configuration files (the names its own discovery looks for). */
const CONFIG: Readonly<Record<FormatterTool, RegExp>> = {
  prettier: /^(?:\.prettierrc(?:\.(?:json5?|ya?ml|toml|[cm]?[jt]s))?|prettier\.config\.[cm]?[jt]s)$/,
  biome: /^biome\.jsonc?$/,
  dprint: /^\.?dprint\.jsonc?$/,
};

const DEPENDENCY_SECTIONS = ['devDependencies', 'dependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** How long a formatter may take on the run's files before it is stopped (a hung formatter must not hang the run). */
export const FORMATTER_TIMEOUT_MS = 120_000;

export interface Formatter {
  tool: FormatterTool;
  /** The project directory (where its package.json is): the formatter runs from here, as the project's scripts would. */
  root: string;
  /** What declares it, relative to `root`: a config file (`.prettierrc`, `../biome.json`) or `package.json devDependencies`. */
  declaredBy: string;
  /** The project's own binary (`node_modules/.bin/<tool>`, found as npx finds it); undefined when not installed. */
  bin?: string;
}

interface Declaration {
  tool: FormatterTool;
  /** The file that declares it, in its directory. */
  file: string;
  /** Where in that file: `"prettier"`, `devDependencies`. */
  detail?: string;
  /** A config file (or package.json's "prettier" key) says more than a dependency, which may be left over. */
  byConfig: boolean;
}

/**
 * The formatter the project at `root` declares, or undefined. Directories are asked nearest first, as
 * the formatters find their own configuration: `root`, then its parents up to the top of its git work
 * tree (a monorepo's configuration sits there); outside git only `root`, so nothing of the machine above counts.
 */
export function detectFormatter(root: string): Formatter | undefined {
  for (const dir of searchDirectories(root)) {
    const found = chooseDeclaration(declarationsIn(dir));
    if (!found) continue;
    const file = toPosix(path.relative(root, path.join(dir, found.file)));
    return { tool: found.tool, root, declaredBy: found.detail ? `${file} ${found.detail}` : file, bin: findBinary(root, found.tool) };
  }
  return undefined;
}

/** `root` and its parents up to the directory holding `.git` (a directory, or a file in a linked work tree). */
function searchDirectories(root: string): string[] {
  const dirs: string[] = [];
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    dirs.push(dir);
    if (fs.existsSync(path.join(dir, '.git'))) return dirs;
    if (path.dirname(dir) === dir) return [path.resolve(root)];
  }
}

/** Config files first; among equals, the order of {@link TOOLS}. */
function chooseDeclaration(found: Declaration[]): Declaration | undefined {
  const rank = (d: Declaration) => (d.byConfig ? 0 : TOOLS.length) + TOOLS.indexOf(d.tool);
  return [...found].sort((a, b) => rank(a) - rank(b))[0];
}

/** What one directory declares: its config files, and its package.json's "prettier" key and dependencies. */
function declarationsIn(dir: string): Declaration[] {
  const found: Declaration[] = [];
  for (const name of listDirectory(dir)) {
    const tool = TOOLS.find(t => CONFIG[t].test(name));
    if (tool) found.push({ tool, file: name, byConfig: true });
  }
  const manifest = readManifest(path.join(dir, 'package.json'));
  if (!manifest) return found;
  if (manifest.prettier !== undefined) found.push({ tool: 'prettier', file: 'package.json', detail: '"prettier"', byConfig: true });
  for (const tool of TOOLS) {
    const section = DEPENDENCY_SECTIONS.find(s => isRecord(manifest[s]) && PACKAGE[tool] in (manifest[s] as Record<string, unknown>));
    if (section) found.push({ tool, file: 'package.json', detail: section, byConfig: false });
  }
  return found;
}

function listDirectory(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** A package.json's object, or undefined when absent or unreadable (then it declares nothing). */
function readManifest(file: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return isRecord(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** `node_modules/.bin/<tool>` in `root` or a parent (a hoisted install), as npx would run it; never a download. */
function findBinary(root: string, tool: FormatterTool): string | undefined {
  const name = process.platform === 'win32' ? `${tool}.cmd` : tool;
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'node_modules', '.bin', name);
    if (fs.existsSync(bin)) return bin;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The arguments that format exactly `files` in place (biome's `format`, not `check`: no lint fixes, no import sorting). */
export function formatterArgs(tool: FormatterTool, files: readonly string[]): string[] {
  if (tool === 'biome') return ['format', '--write', ...files];
  if (tool === 'dprint') return ['fmt', ...files];
  return ['--write', ...files];
}

/** The command a user can paste: `npx prettier --write src/a.ts`, prefixed with `cd <dir> &&` when the project is not `from`. */
export function formatterCommand(formatter: Pick<Formatter, 'tool' | 'root'>, files: readonly string[], from: string): string {
  const dir = path.relative(from, formatter.root);
  const command = [
    'npx',
    formatter.tool,
    ...formatterArgs(
      formatter.tool,
      files.map(f => toPosix(path.relative(formatter.root, f))),
    ),
  ]
    .map(shellWord)
    .join(' ');
  return dir ? `cd ${shellWord(toPosix(dir))} && ${command}` : command;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The files a formatter should get: the JavaScript and TypeScript sources written (not package.json, not other files). */
export function formattableFiles(files: readonly string[]): string[] {
  return files.filter(isSourceFile);
}

/** The nearest directory at or above `file`'s with a package.json: the project the file belongs to. */
export function projectRoot(file: string): string | undefined {
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Files grouped by their project, each with the formatter it declares; projects that declare none are left out. */
export function formattersFor(files: readonly string[]): { formatter: Formatter; files: string[] }[] {
  const byRoot = new Map<string, string[]>();
  for (const file of formattableFiles(files)) {
    const root = projectRoot(file);
    if (root) byRoot.set(root, [...(byRoot.get(root) ?? []), file]);
  }
  const out: { formatter: Formatter; files: string[] }[] = [];
  for (const [root, group] of [...byRoot].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const formatter = detectFormatter(root);
    if (formatter) out.push({ formatter, files: group.sort() });
  }
  return out;
}

/**
 * Run the formatter's own binary on `files` from the project root. Resolves with why it failed (not
 * installed, a non-zero exit, the timeout), or undefined when it succeeded; never rejects, because the
 * migration is already written and a formatter's failure must not read as a lost migration.
 */
export function runFormatter(
  formatter: Formatter,
  files: readonly string[],
  timeoutMs = FORMATTER_TIMEOUT_MS,
): Promise<string | undefined> {
  if (!formatter.bin)
    return Promise.resolve(
      `${formatter.tool} is declared (${formatter.declaredBy}) but not installed (no node_modules/.bin/${formatter.tool}: npm install installs it)`,
    );
  const args = formatterArgs(
    formatter.tool,
    files.map(f => path.relative(formatter.root, f)),
  );
  return new Promise(resolve => {
    // A .cmd shim on Windows only runs through the shell.
    const shell = process.platform === 'win32';
    const quote = (a: string) => (shell ? `"${a}"` : a);
    execFile(
      quote(formatter.bin!),
      args.map(quote),
      { cwd: formatter.root, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, shell, windowsHide: true },
      (err, _stdout, stderr) => {
        resolve(err ? failureMessage(formatter.tool, err, String(stderr), timeoutMs) : undefined);
      },
    );
  });
}

function failureMessage(tool: FormatterTool, err: ExecFileException, stderr: string, timeoutMs: number): string {
  if (err.killed) return `${tool} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`;
  const said = stderr
    .split('\n')
    .map(l => l.trim())
    .filter(Boolean)
    .slice(-1)[0];
  const how = typeof err.code === 'number' ? `exited with code ${err.code}` : `could not be run (${String(err.code ?? err.message)})`;
  return `${tool} ${how}${said ? `: ${said.length > 200 ? `${said.slice(0, 200)}…` : said}` : ''}`;
}
