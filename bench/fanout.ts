/**
 * The fan-out trees of `npm run bench` (issue 34): one asking helper called from N handlers in N/5 files
 * (generate-fanout.ts; N = 10, 100 and 1,000 by default), to read a run's cost per handler call as N grows.
 * On each: mcp-migrate, the official codemod and `tsc --noEmit -p tsconfig.json`, `node_modules` linked as
 * for the other trees.
 *
 * Checks, so a fast wrong answer is not timed as a win:
 * - mcp-migrate: one source diff per file that imports the SDK plus the requestState module's files; its
 *   summary says the helper's two sites (the capability check and the request) were migrated, none skipped;
 *   and in the migrated text (the tree's files with the dry run's diff applied) every handler still calls
 *   the helper, is registered through `resumable(`, and journals its API call before it, and the helper
 *   asks through `ask(`;
 * - the official codemod changes every file that imports the SDK;
 * - tsc is clean (the tree is valid SDK 1.x code).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { STATE_RUNTIME_FILES } from '../src/stateModule.js';
import { generateFanoutTree, type FanoutTree } from './generate-fanout.js';
import type { Sample } from './measure.js';
import type { PreparedTree } from './real.js';

export const FANOUT_SIZES = [10, 100, 1000];

export type FanoutTool = 'mcp-migrate' | 'official' | 'tsc';
export const FANOUT_TOOLS: FanoutTool[] = ['mcp-migrate', 'official', 'tsc'];

/** The helper's sites: its capability check and its request. */
const HELPER_SITES = 2;

export interface FanoutCaseSpec {
  id: string;
  label: string;
  /** N: the handlers, each calling the helper once. */
  handlers: number;
  prepare(root: string): PreparedTree;
}

export function fanoutCaseSpecs(sizes = FANOUT_SIZES): FanoutCaseSpec[] {
  return sizes.map(handlers => ({
    id: `fanout-${handlers}`,
    label: `fan-out, ${handlers} handler calls`,
    handlers,
    prepare: root => prepareFanout(root, handlers),
  }));
}

function prepareFanout(root: string, handlers: number): PreparedTree {
  const t = generateFanoutTree(root, { handlers, seed: 20260728 + handlers, name: `bench-fanout-${handlers}` });
  return {
    files: t.files,
    summary: `${t.files} sources (${(t.bytes / 1024).toFixed(0)} KiB), ${t.toolFiles.length} tool files, ${t.handlers} handlers calling ${t.helper.fn}, ${t.sdkFiles.length} import the SDK`,
    info: { files: t.files, handlers: t.handlers, toolFiles: t.toolFiles.length, sdkFiles: t.sdkFiles.length, bytes: t.bytes },
    check(tool, s) {
      if (s.code !== 0) return `exit ${s.code}: ${(s.stderr || s.stdout).slice(-400)}`;
      if (tool === 'mcp-migrate') {
        try {
          return checkMigrate(t, s);
        } catch (e) {
          return (e as Error).message;
        }
      }
      if (tool === 'official') {
        const changed = Number(/across (\d+) file/.exec(s.stdout)?.[1] ?? 0);
        if (changed !== t.sdkFiles.length) return `expected ${t.sdkFiles.length} files changed, got ${changed}`;
      }
      return undefined;
    },
  };
}

function checkMigrate(t: FanoutTree, s: Sample): string | undefined {
  const diffs = (s.stdout.match(/^diff --git a\/\S+\.[mc]?[jt]sx? /gm) ?? []).length;
  const expected = t.sdkFiles.length + STATE_RUNTIME_FILES.length;
  if (diffs !== expected) return `expected ${expected} source diffs, got ${diffs}`;
  const m = /sites: (\d+) rewritten, (\d+) marked, (\d+) skipped/.exec(s.stderr + s.stdout);
  if (!m) return 'no sites line in the summary';
  if (Number(m[1]) + Number(m[2]) !== HELPER_SITES || Number(m[3]) !== 0)
    return `expected the helper's ${HELPER_SITES} sites migrated, 0 skipped; got ${m[0]}`;
  const after = migratedTexts(t.root, s.stdout);
  const helper = after(t.helper.rel);
  if (!/\bask\([^)]*\)\s*\.elicitInput\(/.test(helper)) return `${t.helper.rel}: the helper's request is not asked through ask(`;
  const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;
  for (const f of t.toolFiles) {
    const text = after(f.rel);
    const calls = count(text, new RegExp(`\\bawait ${t.helper.fn}\\(`, 'g'));
    const resumable = count(text, /\bresumable\(/g);
    const journaled = count(text, /\bjournaled\(/g);
    if (calls !== f.handlers || resumable !== f.handlers || journaled !== f.handlers) {
      return `${f.rel}: expected ${f.handlers} handlers each calling ${t.helper.fn}, registered through resumable( and journaling its API call; got ${calls} calls, ${resumable} resumable(, ${journaled} journaled(`;
    }
  }
  return undefined;
}

/** The text of a tree's file after the dry run: the file with its diff (if any) applied. */
function migratedTexts(root: string, diff: string): (rel: string) => string {
  const patches = new Map(
    parsePatch(diff)
      .filter(p => p.newFileName)
      .map(p => [p.newFileName!.replace(/^b\//, ''), p]),
  );
  return rel => {
    const before = readFileSync(path.join(root, rel), 'utf8');
    const patch = patches.get(rel);
    if (!patch) return before;
    const after = applyPatch(before, patch);
    if (after === false) throw new Error(`${rel}: the dry run's diff does not apply to the tree's file`);
    return after;
  };
}
