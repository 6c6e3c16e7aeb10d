/**
 * The migrated copies of `npm run bench` (issue 34's CI gate): after a tree's dry-run timings, a copy of the
 * tree (its sources copied, `node_modules` linked as for the tree) is migrated for real by `mcp-migrate .`,
 * untimed. On that copy, where nothing is left to do, `mcp-migrate --check .` and a second
 * `mcp-migrate --dry-run .` are timed against the official codemod's `--dry-run .`: the gate a CI runs on every
 * change should cost no more than the official codemod's dry run.
 *
 * Checks, which fail a goal line when they fail, and do not stop the bench (a gate that fails on a tree its own
 * run migrated is what the bench is there to show), each with the head of the run's report:
 * - `mcp-migrate .` exits 0 (no file failed, the migrated server starts); the copy is timed as long as the
 *   run wrote it (exit 0, 3 or 4);
 * - `mcp-migrate --check .` exits 0: nothing left to migrate, nothing would change;
 * - the second dry run exits 0 and prints no diff;
 * - the official codemod's dry run exits 0.
 */
import { cpSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { EXIT_FAILED, EXIT_OK, EXIT_WONT_START } from '../src/format-report.js';
import { measure, type Command, type Sample } from './measure.js';

export const MIGRATED_CHECK = 'mcp-migrate --check (migrated)';
export const MIGRATED_DRY_RUN = 'mcp-migrate --dry-run (migrated)';
export const MIGRATED_OFFICIAL = 'official (migrated)';
export type MigratedTool = typeof MIGRATED_CHECK | typeof MIGRATED_DRY_RUN | typeof MIGRATED_OFFICIAL;

export const isMigratedTool = (tool: string): tool is MigratedTool =>
  tool === MIGRATED_CHECK || tool === MIGRATED_DRY_RUN || tool === MIGRATED_OFFICIAL;

/** The lines of a report shown with a failed check. */
const HEAD_LINES = 8;

/**
 * The head of a run's report (stderr, else stdout): its verdict line first when there is one (`check failed:
 * ...`), then its first lines, each cut at 300 characters.
 */
export function reportHead(s: Sample): string {
  const text = (s.stderr.trim() ? s.stderr : s.stdout).trimEnd();
  const verdict = /^check failed: .*$/m.exec(text)?.[0];
  const lines = text
    .split('\n')
    .filter(l => l.trim() && l !== verdict)
    .slice(0, HEAD_LINES);
  return [verdict, ...lines]
    .filter((l): l is string => l !== undefined)
    .map(l => (l.length > 300 ? `${l.slice(0, 300)}...` : l))
    .join('\n');
}

/** The copy of a tree at `root` (all but its `node_modules`, which is linked to `nodeModules`): `<root>-migrated`. */
export function copyTree(root: string, nodeModules: string): string {
  const copy = `${root}-migrated`;
  cpSync(root, copy, { recursive: true, filter: src => src === root || path.basename(src) !== 'node_modules' });
  symlinkSync(nodeModules, path.join(copy, 'node_modules'), 'dir');
  return copy;
}

export interface MigrateRun {
  code: number | null;
  /** Whether the run wrote the copy (exit 0, 3 or 4), so the copy is worth timing. */
  written: boolean;
  /** Why the run failed its check (an exit other than 0), with the head of its report. */
  problem?: string;
}

/** `mcp-migrate .` on the copy, for real and untimed. */
export async function migrateCopy(command: Command, scratch: string): Promise<MigrateRun> {
  const s = await measure(command, scratch);
  const written = s.code === EXIT_OK || s.code === EXIT_FAILED || s.code === EXIT_WONT_START;
  return { code: s.code, written, problem: s.code === EXIT_OK ? undefined : `exit ${s.code}: ${reportHead(s)}` };
}

/** What is wrong with a timed run on a migrated copy, with the head of its report; undefined when nothing is. */
export function checkMigrated(tool: MigratedTool, s: Sample): string | undefined {
  if (s.code !== EXIT_OK) return `exit ${s.code}: ${reportHead(s)}`;
  if (tool !== MIGRATED_DRY_RUN) return undefined;
  const files = [...s.stdout.matchAll(/^diff --git a\/(\S+) /gm)].map(m => m[1]);
  if (files.length === 0) return undefined;
  return `${files.length} diff${files.length > 1 ? 's' : ''} on a tree already migrated: ${files.slice(0, 10).join(', ')}${files.length > 10 ? ', ...' : ''}\n${reportHead(s)}`;
}
