/**
 * Unified diffs of the run's changes, in git's layout (`a/` and `b/` prefixes, `/dev/null` for created files),
 * so `git apply` accepts the output of `--dry-run`. Colour is the caller's decision.
 */
import path from 'node:path';
import { structuredPatch } from 'diff';
import { createColors } from 'picocolors';
import { shownPath } from './report.js';

export interface DiffInput {
  /** Absolute path. */
  path: string;
  /** `null` for a created file. */
  before: string | null;
  after: string;
}

export interface DiffOptions {
  /** Paths in the headers are relative to this. */
  cwd: string;
  color: boolean;
  /** Lines of context around each hunk (default 3, like git). */
  context?: number;
}

/** Path as shown in a diff header: relative to cwd, forward slashes. */
export function displayPath(file: string, cwd: string): string {
  const rel = shownPath(cwd, file);
  return rel.split(path.sep).join('/');
}

/** Should output to `stream` be coloured: the explicit flag wins, then NO_COLOR / FORCE_COLOR, then whether it is a TTY. */
export function shouldColor(stream: { isTTY?: boolean }, flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return stream.isTTY === true;
}

/** A hunk range as git writes it: an empty side starts one line earlier (`-0,0` for a created file). */
function hunkRange(start: number, lines: number): string {
  if (lines === 1) return `${start}`;
  return `${lines === 0 ? start - 1 : start},${lines}`;
}

/** One file's unified diff, ending with a newline; empty string when nothing differs. */
export function formatDiff(change: DiffInput, options: DiffOptions): string {
  const before = change.before ?? '';
  if (change.before !== null && before === change.after) return '';
  const c = createColors(options.color);
  const name = displayPath(change.path, options.cwd);
  const oldName = change.before === null ? '/dev/null' : `a/${name}`;
  const newName = `b/${name}`;
  const patch = structuredPatch(oldName, newName, before, change.after, undefined, undefined, {
    context: options.context ?? 3,
  });

  const out: string[] = [c.bold(`diff --git a/${name} b/${name}`)];
  if (change.before === null) out.push(c.bold('new file mode 100644'));
  out.push(c.bold(`--- ${oldName}`), c.bold(`+++ ${newName}`));
  for (const h of patch.hunks) {
    out.push(c.cyan(`@@ -${hunkRange(h.oldStart, h.oldLines)} +${hunkRange(h.newStart, h.newLines)} @@`));
    for (const line of h.lines) {
      if (line.startsWith('+')) out.push(c.green(line));
      else if (line.startsWith('-')) out.push(c.red(line));
      else if (line.startsWith('\\')) out.push(c.dim(line));
      else out.push(line);
    }
  }
  return `${out.join('\n')}\n`;
}

/** Diffs of several files, in the order given. */
export function formatDiffs(changes: readonly DiffInput[], options: DiffOptions): string {
  return changes.map(ch => formatDiff(ch, options)).join('');
}
