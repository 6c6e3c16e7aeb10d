/**
 * The git guard for in-place runs: refuse to rewrite files that have uncommitted changes, so every edit
 * the tool makes can be reviewed with `git diff` and undone with `git checkout`.
 * Outside a git work tree (or without git installed) there is nothing to protect and the run is allowed.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface DirtyFile {
  /** Absolute path. */
  path: string;
  /** The two-letter porcelain status, e.g. ` M`, `A `, `??`. */
  status: string;
}

/** git exists and was asked, but answered with something other than "not a repository". */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitError';
  }
}

interface GitOutput {
  stdout: string;
  stderr: string;
}

function git(args: string[], cwd: string): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--literal-pathspecs', '-c', 'core.quotePath=false', ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
      (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { stdout, stderr }));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/** Top of the work tree containing `dir`, or undefined when `dir` is not in one (or git is not installed). */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  try {
    const { stdout } = await git(['rev-parse', '--show-toplevel'], dir);
    const top = stdout.trim();
    return top ? await fs.realpath(top) : undefined;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') return undefined; // no git binary
    const stderr = e.stderr ?? '';
    if (/not a git repository/i.test(stderr)) return undefined;
    if (/must be run in a work tree/i.test(stderr)) return undefined; // inside a .git directory
    throw new GitError(`git rev-parse failed in ${dir}: ${stderr.trim() || e.message}`);
  }
}

/** The paths (absolute) that are in no git work tree: a run writing there cannot be reviewed with `git diff` or undone. */
export async function outsideGit(paths: readonly string[]): Promise<string[]> {
  const outside: string[] = [];
  for (const p of paths) {
    const dir = await fs.stat(p).then(
      st => (st.isDirectory() ? p : path.dirname(p)),
      () => path.dirname(p),
    );
    const top = await gitTopLevel(dir).catch(() => dir); // git answered oddly: the dirty-tree check reports it
    if (top === undefined) outside.push(p);
  }
  return outside;
}

/** Parse `git status --porcelain=v1 -z` output into [status, path relative to the top] pairs. */
export function parsePorcelainZ(out: string): { status: string; path: string }[] {
  const parts = out.split('\0');
  const result: { status: string; path: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    result.push({ status, path: entry.slice(3) });
    if (status[0] === 'R' || status[0] === 'C') i++; // the rename's source follows
  }
  return result;
}

/**
 * Files under `paths` (absolute) with uncommitted changes, tracked or untracked, in whichever work trees
 * they belong to. Sorted by path. Paths outside any work tree contribute nothing.
 */
export async function findDirtyFiles(paths: readonly string[]): Promise<DirtyFile[]> {
  const byTop = new Map<string, string[]>();
  for (const p of paths) {
    let dir = p;
    try {
      if (!(await fs.stat(p)).isDirectory()) dir = path.dirname(p);
    } catch {
      dir = path.dirname(p);
    }
    const top = await gitTopLevel(dir);
    if (top === undefined) continue;
    const list = byTop.get(top) ?? [];
    list.push(path.relative(top, p) || '.');
    byTop.set(top, list);
  }
  const dirty: DirtyFile[] = [];
  for (const [top, rels] of byTop) {
    let out: GitOutput;
    try {
      out = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...rels], top);
    } catch (err) {
      const e = err as Error & { stderr?: string };
      throw new GitError(`git status failed in ${top}: ${e.stderr?.trim() || e.message}`);
    }
    for (const { status, path: rel } of parsePorcelainZ(out.stdout)) {
      dirty.push({ status, path: path.join(top, rel) });
    }
  }
  return dirty.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The message for a refused run: which files, and the ways forward. */
export function formatDirtyRefusal(dirty: readonly DirtyFile[], cwd: string, limit = 20): string {
  const shown = dirty.slice(0, limit).map(d => `  ${d.status}  ${path.relative(cwd, d.path).split(path.sep).join('/') || '.'}`);
  if (dirty.length > limit) shown.push(`  … and ${dirty.length - limit} more`);
  return [
    `mcp-migrate: refusing to rewrite files in place: ${dirty.length} file${dirty.length === 1 ? ' has' : 's have'} uncommitted changes:`,
    ...shown,
    '',
    'Commit or stash them first (git stash --include-untracked), so the migration can be reviewed with `git diff`',
    'and undone with `git checkout`. Or preview with --dry-run, or pass --force to rewrite anyway.',
  ].join('\n');
}
