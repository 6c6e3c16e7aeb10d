/**
 * The real-shaped trees of `npm run bench` (issue 19): seeded trees shaped like public servers
 * (generate-real.ts: 25, 150, 250 and 1,000 files, most importing the SDK) and the trimmed public servers
 * under test/real-servers, each copied to its own directory with `node_modules` linked to this
 * package's. On each: mcp-migrate, the official codemod, `tsc --noEmit -p tsconfig.json`, the floor and the
 * design's floor (bench/designFloor.ts).
 *
 * Checks, so a fast wrong answer is not timed as a win:
 * - generated trees: mcp-migrate gives one source diff per file that imports the SDK plus the requestState
 *   module's files (the module and its seal), and its summary says every ask in a handler's body was
 *   rewritten, every ask in a helper that a handler calls rewritten once (in the helper's body, which replay
 *   re-enters), and every ask in a helper no handler calls marked, none skipped; the official codemod changes
 *   every file that imports the SDK; tsc is clean (the tree is valid SDK 1.x code);
 * - public servers: every tool exits 0 and mcp-migrate gives at least one source diff; tsc's errors
 *   (their pinned zod/SDK versions are not the linked ones) are counted and shown, not failed on.
 */
import { cpSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { STATE_RUNTIME_FILES } from '../src/stateModule.js';
import { generateRealShapedTree } from './generate-real.js';
import type { Sample } from './measure.js';

export const REAL_SIZES = [25, 150, 250, 1000];
/** The smallest tree generate-real.ts writes at the size asked: its 4 fixed files and one of each other kind. */
export const REAL_MIN_SIZE = 9;

export type RealTool = 'mcp-migrate' | 'official' | 'tsc' | 'floor' | 'design-floor';
export const REAL_TOOLS: RealTool[] = ['mcp-migrate', 'official', 'tsc', 'floor', 'design-floor'];

/** A tree ready to be measured: its size, a one-line description, and the check of each tool's run. */
export interface PreparedTree {
  files: number;
  summary: string;
  info: Record<string, unknown>;
  check(tool: string, s: Sample): string | undefined;
  /** A remark on a tool's runs, shown beside its row (e.g. tsc's error count on a public server). */
  noteFor?(tool: string): string | undefined;
}

export interface RealCaseSpec {
  id: string;
  label: string;
  prepare(root: string, repo: string): PreparedTree;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'coverage']);

function countSources(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) n += SKIP.has(e.name) ? 0 : countSources(full);
    else if (e.isFile() && SOURCE.test(e.name) && !/\.d\.[mc]?ts$/.test(e.name)) n++;
  }
  return n;
}

const sourceDiffs = (stdout: string) => (stdout.match(/^diff --git a\/\S+\.[mc]?[jt]sx? /gm) ?? []).length;
const tscErrors = (stdout: string) => (stdout.match(/error TS\d+/g) ?? []).length;

function checkFloor(s: Sample, files: number): string | undefined {
  const seen = (JSON.parse(s.stdout) as { files: number }).files;
  return seen === files ? undefined : `expected ${files} files, saw ${seen}`;
}

/** The design's floor read the tree's sources (on a generated tree: all of them, those importing SDK 1.x upgraded). */
function checkDesignFloor(s: Sample, expected?: { files: number; sdkFiles: number }): string | undefined {
  const seen = JSON.parse(s.stdout) as { files: number; upgraded: number };
  if (!expected) return seen.files > 0 ? undefined : 'read no source';
  if (seen.files !== expected.files) return `expected ${expected.files} files, saw ${seen.files}`;
  return seen.upgraded === expected.sdkFiles ? undefined : `expected ${expected.sdkFiles} files upgraded, got ${seen.upgraded}`;
}

function generatedCase(files: number): RealCaseSpec {
  return {
    id: `real-${files}`,
    label: `${files} files, real-shaped`,
    prepare(root) {
      const t = generateRealShapedTree(root, { files, seed: 20260728 + files, name: `bench-real-${files}` });
      // Replay: a helper's ask is rewritten once, in its body, when a handler calls it; marked when none does.
      const rewritten = t.handlerAsks + t.calledHelpers;
      const marked = t.helperFunctions - t.calledHelpers;
      return {
        files: t.files,
        summary: `${t.files} sources (${(t.bytes / 1024).toFixed(0)} KiB), ${t.sdkFiles.length} import the SDK, ${t.asks} asks (${t.helperFunctions} in helper bodies, ${t.calledHelpers} of those called)`,
        info: {
          files: t.files,
          sdkFiles: t.sdkFiles.length,
          asks: t.asks,
          helperAsks: t.helperFunctions,
          calledHelpers: t.calledHelpers,
          bytes: t.bytes,
        },
        check(tool, s) {
          if (s.code !== 0) return `exit ${s.code}: ${(s.stderr || s.stdout).slice(-400)}`;
          if (tool === 'mcp-migrate') {
            const diffs = sourceDiffs(s.stdout);
            const expected = t.sdkFiles.length + STATE_RUNTIME_FILES.length;
            if (diffs !== expected) return `expected ${expected} source diffs, got ${diffs}`;
            const m = /sites: (\d+) rewritten, (\d+) marked, (\d+) skipped/.exec(s.stderr + s.stdout);
            if (!m) return 'no sites line in the summary';
            if (Number(m[1]) !== rewritten || Number(m[2]) !== marked || Number(m[3]) !== 0) {
              return `expected ${rewritten} rewritten, ${marked} marked, 0 skipped; got ${m[0]}`;
            }
          } else if (tool === 'official') {
            const changed = Number(/across (\d+) file/.exec(s.stdout)?.[1] ?? 0);
            if (changed !== t.sdkFiles.length) return `expected ${t.sdkFiles.length} files changed, got ${changed}`;
          } else if (tool === 'floor') return checkFloor(s, t.files);
          else if (tool === 'design-floor') return checkDesignFloor(s, { files: t.files, sdkFiles: t.sdkFiles.length });
          return undefined;
        },
      };
    },
  };
}

function publicServerCase(name: string): RealCaseSpec {
  return {
    id: `server-${name}`,
    label: `${name} (public server)`,
    prepare(root, repo) {
      const from = path.join(repo, 'test', 'real-servers', name);
      cpSync(from, root, { recursive: true, filter: src => path.basename(src) !== 'node_modules' });
      const files = countSources(root);
      let errors: number | undefined;
      return {
        files,
        summary: `${files} sources, copied from test/real-servers/${name}`,
        info: { files },
        noteFor: tool =>
          tool === 'tsc' && errors ? `${errors} type errors with the linked zod/SDK (not the server's pinned versions)` : undefined,
        check(tool, s) {
          if (tool === 'tsc') {
            // Exit 2 is "type errors" (the servers pin zod/SDK versions other than the linked ones): counted, not failed.
            if (s.code !== 0 && s.code !== 2) return `exit ${s.code}: ${s.stdout.slice(-400)}`;
            errors = tscErrors(s.stdout);
            return undefined;
          }
          if (s.code !== 0) return `exit ${s.code}: ${(s.stderr || s.stdout).slice(-400)}`;
          if (tool === 'mcp-migrate' && sourceDiffs(s.stdout) === 0) return 'no source diff';
          if (tool === 'floor') return checkFloor(s, files);
          if (tool === 'design-floor') return checkDesignFloor(s);
          return undefined;
        },
      };
    },
  };
}

export function realCaseSpecs(repo: string, sizes = REAL_SIZES): RealCaseSpec[] {
  const serversDir = path.join(repo, 'test', 'real-servers');
  const servers = readdirSync(serversDir)
    .filter(n => statSync(path.join(serversDir, n)).isDirectory())
    .sort();
  return [...sizes.map(generatedCase), ...servers.map(publicServerCase)];
}
