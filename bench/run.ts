/**
 * `npm run bench`: mcp-migrate's dry run against its peers on synthetic monorepos, side by side, in one run.
 *
 * Trees (generated under os.tmpdir(), seeded, removed afterwards unless --keep):
 * - 1k and 10k files with ~1% legacy MCP servers (shapes from __testfixtures__) and ~3% look-alikes;
 * - 10k files with nothing to do: no MCP server, the same look-alikes;
 * - 10k files with nothing to do and no trigger name at all (the pre-filter's fast path).
 * Each tree has `node_modules` linked to this package's, so `@modelcontextprotocol/sdk` resolves as in a
 * real install; every tool is told (or knows) not to enter it.
 *
 * Tools, each a child process run from the tree's root, interleaved run by run so load changes hit all alike:
 * - mcp-migrate: `mcp-migrate --dry-run .` (the built CLI); its diff is checked (one per MCP file + one
 *   requestState module per package with a server) so a fast wrong answer cannot pass;
 * - official: `mcp-codemod v1-to-v2 --dry-run .` (@modelcontextprotocol/codemod);
 * - jscodeshift: an empty transform over the tree (`--dry --silent`): jscodeshift's own overhead;
 * - floor: a node script that walks the tree, reads every source and tests the trigger names.
 *
 * Real-shaped trees (bench/real.ts, issue 19): seeded trees shaped like public servers (most files import the
 * SDK) and the trimmed public servers of test/real-servers, each timed with mcp-migrate, the official
 * codemod, `tsc --noEmit -p tsconfig.json` (the tree's node_modules/.bin/tsc), the floor, and the design's floor
 * (bench/designFloor.ts: mcp-migrate's modules loaded, the official transforms run, the analysis program made).
 *
 * Fan-out trees (bench/fanout.ts, issue 34): one asking helper called from N handlers in N/5 files, the server
 * passed in parameters and class fields (N = 10, 100, 1,000), each timed with mcp-migrate, the official codemod
 * and `tsc --noEmit`; printed per N: the wall time and the time per handler call (wall / N), and the ratio of
 * mcp-migrate's time per call at the largest N to that at the smallest (the goal: at most 1.5x).
 *
 * Issue 34's goals on the real-shaped and fan-out trees: mcp-migrate's dry run within the official codemod's
 * median wall plus the tree's tsc's, its peak RSS at most 1.5x the larger of theirs. And its CI gate
 * (bench/migrated.ts): on a copy of each tree migrated by `mcp-migrate .` (untimed), `mcp-migrate --check` and a
 * second `mcp-migrate --dry-run`, each within the official codemod's dry run on the copy, timed interleaved with
 * it; `--check` must exit 0 there (a failed check is printed with the head of the report; the bench goes on).
 *
 * Flags: --sizes=1000,10000  --runs=5,3 (per size)  --only=mcp-migrate,floor  --keep  --out=<file.json>
 *        --ab (also mcp-migrate with the pipeline in the main thread)  --markdown (print a README table)
 *        --trees=all|synthetic|real|fanout (default all)  --real-sizes=25,150,250,1000  --real-runs=3
 *        --fanout-sizes=10,100,1000  --fanout-runs=3  --no-migrated (no migrated copies)
 */
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TRIGGER_PATTERN } from '../src/triggers.js';
import { STATE_RUNTIME_FILES } from '../src/stateModule.js';
import { generateTree } from './generate.js';
import { measure, median, peakMethod, type Command, type Sample } from './measure.js';
import { REAL_MIN_SIZE, REAL_SIZES, REAL_TOOLS, realCaseSpecs, type PreparedTree } from './real.js';
import { FANOUT_SIZES, FANOUT_TOOLS, fanoutCaseSpecs } from './fanout.js';
import {
  MIGRATED_CHECK,
  MIGRATED_DRY_RUN,
  MIGRATED_OFFICIAL,
  checkMigrated,
  copyTree,
  isMigratedTool,
  migrateCopy,
  type MigratedTool,
} from './migrated.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NODE = process.execPath;
const CLI = path.join(REPO, 'dist', 'src', 'cli.js');
const CODEMOD = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'codemod', 'dist', 'cli.mjs');
const DESIGN_FLOOR = path.join(REPO, 'dist', 'bench', 'designFloor.js');
const JSCODESHIFT = path.join(REPO, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
const GIB = 1024 ** 3;
/** Budget for one tool's runs on one tree: fewer runs for a peer slower than this (said in the output). */
const BUDGET_MS = 150_000;

type ToolName = 'mcp-migrate' | 'mcp-migrate-1t' | 'official' | 'jscodeshift' | 'tsc' | 'floor' | 'design-floor' | MigratedTool;
const TOOLS: ToolName[] = ['mcp-migrate', 'official', 'jscodeshift', 'floor'];

interface TreeCase {
  id: string;
  label: string;
  /**
   * synthetic: the monorepos of generate.ts; real: the real-shaped trees and public servers of real.ts;
   * fanout: the one-helper, N-handler trees of fanout.ts.
   */
  kind: 'synthetic' | 'real' | 'fanout';
  files: number;
  /** Fan-out trees: N, the handlers calling the helper. */
  handlers?: number;
  mcpRatio: number;
  runs: number;
  tools: ToolName[];
  /** The tools timed on the tree's migrated copy (bench/migrated.ts); none for the synthetic trees. */
  migratedTools: ToolName[];
  /** Writes the tree under root (node_modules linked after). */
  prepare(root: string): PreparedTree;
}

type Result = { case: TreeCase; tree: Record<string, unknown>; tools: ToolResult[]; migrated?: MigratedResult };

/** The runs on a tree's migrated copy: the untimed `mcp-migrate .` that made it, the timed tools, their failed checks. */
interface MigratedResult {
  write: { code: number | null; problem?: string };
  tools: ToolResult[];
  /** The first failed check of each tool, with the head of its report. */
  problems: Partial<Record<ToolName, string>>;
}

interface ToolResult {
  tool: ToolName;
  runs: number;
  wallMs: number[];
  medianMs: number;
  filesPerSecond: number;
  peakRssBytes?: number;
  note?: string;
}

interface Options {
  sizes: number[];
  runs: number[];
  only?: ToolName[];
  keep: boolean;
  out: string;
  trees: 'all' | 'synthetic' | 'real' | 'fanout';
  realSizes: number[];
  realRuns: number;
  fanoutSizes: number[];
  fanoutRuns: number;
  /** Time the migrated copies of the real-shaped and fan-out trees (off with --no-migrated). */
  migrated: boolean;
}

function args(): Options {
  const get = (name: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = (get('sizes') ?? '1000,10000').split(',').map(Number);
  const runs = (get('runs') ?? '5,3').split(',').map(Number);
  const only = get('only')?.split(',') as ToolName[] | undefined;
  const trees = get('trees') ?? 'all';
  if (trees !== 'all' && trees !== 'synthetic' && trees !== 'real' && trees !== 'fanout')
    throw new Error(`--trees=${trees}: all, synthetic, real or fanout`);
  const realSizes = get('real-sizes')?.split(',').map(Number) ?? REAL_SIZES;
  const bad = realSizes.find(n => !Number.isInteger(n) || n < REAL_MIN_SIZE);
  if (bad !== undefined) throw new Error(`--real-sizes: ${bad}: whole numbers of files from ${REAL_MIN_SIZE} (e.g. 25,150,250,1000)`);
  const realRuns = Number(get('real-runs') ?? 3);
  const fanoutSizes = get('fanout-sizes')?.split(',').map(Number) ?? FANOUT_SIZES;
  const fanoutRuns = Number(get('fanout-runs') ?? 3);
  const migrated = !process.argv.includes('--no-migrated');
  return {
    sizes,
    runs,
    only,
    keep: process.argv.includes('--keep'),
    out: get('out') ?? path.join(REPO, 'dist', 'bench', 'results.json'),
    trees,
    realSizes,
    realRuns,
    fanoutSizes,
    fanoutRuns,
    migrated,
  };
}

const sizeId = (files: number) => (files >= 1000 && files % 1000 === 0 ? `${files / 1000}k` : String(files));

function toolPicker(only?: ToolName[]): (ts: ToolName[]) => ToolName[] {
  // --ab adds mcp-migrate with the pipeline in the main thread (MCP_MIGRATE_IN_PROCESS=1), next to the default.
  const ab = process.argv.includes('--ab');
  return ts => {
    const all: ToolName[] = ab ? ts.flatMap(t => (t === 'mcp-migrate' ? [t, 'mcp-migrate-1t' as const] : [t])) : ts;
    return only ? all.filter(t => only.includes(t)) : all;
  };
}

/** The migrated copy's tools for a tree's: the two mcp-migrate runs with mcp-migrate, the official dry run with it. */
function migratedToolsFor(tools: ToolName[], on: boolean): ToolName[] {
  if (!on) return [];
  const ours: ToolName[] = tools.includes('mcp-migrate') ? [MIGRATED_CHECK, MIGRATED_DRY_RUN] : [];
  return tools.includes('official') ? [...ours, MIGRATED_OFFICIAL] : ours;
}

function cases(opts: Options): TreeCase[] {
  const pick = toolPicker(opts.only);
  const out: TreeCase[] = [];
  const want = (kind: TreeCase['kind']) => opts.trees === 'all' || opts.trees === kind;
  if (want('synthetic')) out.push(...syntheticCases(opts.sizes, opts.runs, pick));
  if (want('real')) {
    for (const spec of realCaseSpecs(REPO, opts.realSizes)) {
      const files = Number(/^real-(\d+)$/.exec(spec.id)?.[1] ?? 0);
      const tools = pick(REAL_TOOLS);
      out.push({
        id: spec.id,
        label: spec.label,
        kind: 'real',
        files,
        mcpRatio: 0,
        runs: opts.realRuns,
        tools,
        migratedTools: migratedToolsFor(tools, opts.migrated),
        prepare: root => spec.prepare(root, REPO),
      });
    }
  }
  if (want('fanout')) {
    for (const spec of fanoutCaseSpecs(opts.fanoutSizes)) {
      const tools = pick(FANOUT_TOOLS);
      out.push({
        id: spec.id,
        label: spec.label,
        kind: 'fanout',
        files: 0,
        handlers: spec.handlers,
        mcpRatio: 0,
        runs: opts.fanoutRuns,
        tools,
        migratedTools: migratedToolsFor(tools, opts.migrated),
        prepare: spec.prepare,
      });
    }
  }
  return out;
}

function syntheticCases(sizes: number[], runs: number[], pick: (ts: ToolName[]) => ToolName[]): TreeCase[] {
  const out: TreeCase[] = [];
  const synthetic = (
    id: string,
    label: string,
    files: number,
    mcpRatio: number,
    lookAlikes: boolean,
    r: number,
    tools: ToolName[],
  ): TreeCase => ({
    id,
    label,
    kind: 'synthetic',
    files,
    mcpRatio,
    runs: r,
    tools: pick(tools),
    migratedTools: [],
    prepare: root => syntheticTree(root, { files, mcpRatio, seed: 20260728 + files, lookAlikes }),
  });
  sizes.forEach((files, i) => {
    const r = runs[i] ?? runs[runs.length - 1] ?? 3;
    out.push(synthetic(`${sizeId(files)}-mcp`, `${files} files, 1% MCP`, files, 0.01, true, r, TOOLS));
  });
  const largest = Math.max(...sizes);
  const k = sizeId(largest);
  const r = runs[sizes.indexOf(largest)] ?? 3;
  out.push(synthetic(`${k}-none`, `${largest} files, no MCP (look-alikes only)`, largest, 0, true, r, ['mcp-migrate', 'floor']));
  out.push(synthetic(`${k}-plain`, `${largest} files, no trigger name at all`, largest, 0, false, r, ['mcp-migrate', 'floor']));
  return out;
}

function syntheticTree(root: string, spec: { files: number; mcpRatio: number; seed: number; lookAlikes: boolean }): PreparedTree {
  const tree = generateTree(root, spec, path.join(REPO, '__testfixtures__'));
  const { root: _root, ...info } = tree;
  void _root;
  return {
    files: tree.files,
    summary: `${tree.files} sources (${(tree.bytes / 1024 ** 2).toFixed(1)} MiB), ${tree.mcpFiles.length} MCP servers, ${tree.lookAlikes} look-alikes`,
    info,
    check: (tool, s) => check(tool as ToolName, s, tree),
  };
}

function floorScript(): string {
  // The same names the pipeline's pre-filter looks for, plus the SDK's package scope.
  return `import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
const TRIGGER = new RegExp(${JSON.stringify(TRIGGER_PATTERN.source)});
const MCP = /@modelcontextprotocol\\//;
const EXT = /\\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'coverage']);
let files = 0, hits = 0;
const walk = dir => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) { if (!SKIP.has(e.name)) walk(full); }
    else if (e.isFile() && EXT.test(e.name) && !/\\.d\\.[mc]?ts$/.test(e.name)) {
      files++;
      const text = readFileSync(full, 'utf8');
      if (TRIGGER.test(text) || MCP.test(text)) hits++;
    }
  }
};
walk(process.argv[2] ?? '.');
console.log(JSON.stringify({ files, hits }));
`;
}

function commandFor(tool: ToolName, root: string, scratch: string): Command {
  switch (tool) {
    case 'mcp-migrate':
      return { cmd: NODE, args: [CLI, '--dry-run', '.'], cwd: root, env: { NO_COLOR: '1' } };
    case 'mcp-migrate-1t':
      return { cmd: NODE, args: [CLI, '--dry-run', '.'], cwd: root, env: { NO_COLOR: '1', MCP_MIGRATE_IN_PROCESS: '1' } };
    case 'official':
      return { cmd: NODE, args: [CODEMOD, 'v1-to-v2', '--dry-run', '.'], cwd: root, env: { NO_COLOR: '1' } };
    case 'jscodeshift':
      return {
        cmd: NODE,
        args: [
          JSCODESHIFT,
          '-t',
          path.join(scratch, 'empty-transform.cjs'),
          '--dry',
          '--silent',
          '--parser=ts',
          '--extensions=ts,tsx,mts,cts,js,jsx,mjs,cjs',
          '--ignore-pattern=**/node_modules/**',
          '--gitignore',
          '.',
        ],
        cwd: root,
      };
    case 'tsc':
      // The tree's own compiler (node_modules is linked), on its tsconfig.json, as its CI would run it.
      return { cmd: NODE, args: [path.join(root, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], cwd: root };
    case 'floor':
      return { cmd: NODE, args: [path.join(scratch, 'floor.mjs'), '.'], cwd: root };
    case 'design-floor':
      return { cmd: NODE, args: [DESIGN_FLOOR], cwd: root };
    // On a tree's migrated copy (root is the copy).
    case MIGRATED_CHECK:
      return { cmd: NODE, args: [CLI, '--check', '.'], cwd: root, env: { NO_COLOR: '1' } };
    case MIGRATED_DRY_RUN:
      return { cmd: NODE, args: [CLI, '--dry-run', '.'], cwd: root, env: { NO_COLOR: '1' } };
    case MIGRATED_OFFICIAL:
      return { cmd: NODE, args: [CODEMOD, 'v1-to-v2', '--dry-run', '.'], cwd: root, env: { NO_COLOR: '1' } };
  }
}

/** Check a run did the job, so a fast wrong answer is not timed as a win. */
function check(tool: ToolName, s: Sample, tree: ReturnType<typeof generateTree>): string | undefined {
  const sourceFiles = tree.files;
  if (s.code !== 0) return `exit ${s.code}: ${s.stderr.slice(-400)}`;
  const mcp = tree.mcpFiles.length;
  if (tool === 'mcp-migrate' || tool === 'mcp-migrate-1t') {
    // Source diffs only (package.json edits may come along).
    const diffs = (s.stdout.match(/^diff --git a\/\S+\.[mc]?[jt]sx? /gm) ?? []).length;
    // + the requestState module's files per workspace package that has a server (each package gets its own).
    const packages = new Set(tree.mcpFiles.map(f => f.split('/').slice(0, 2).join('/'))).size;
    const expected = mcp + packages * STATE_RUNTIME_FILES.length;
    if (diffs !== expected) return `expected ${expected} source diffs, got ${diffs}`;
  } else if (tool === 'official') {
    const m = /across (\d+) file/.exec(s.stdout);
    const changed = m ? Number(m[1]) : 0;
    if (changed !== mcp) return `expected ${mcp} files changed, got ${changed}`;
  } else if (tool === 'floor') {
    // The floor does not read .gitignore: it also reads the ignored sources.
    const { files } = JSON.parse(s.stdout) as { files: number };
    if (files !== sourceFiles + tree.ignored) return `expected ${sourceFiles + tree.ignored} files, saw ${files}`;
  }
  return undefined;
}

const fmtMs = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
const fmtMiB = (b?: number) => (b === undefined ? 'n/a' : `${Math.round(b / 1024 ** 2)} MiB`);
const fmtPerCall = (ms: number) => (ms >= 10 ? fmtMs(ms) : `${ms.toFixed(2)} ms`);
const fmtX = (x: number) => (x >= 10 ? `${x.toFixed(0)}x` : x >= 0.1 ? `${x.toFixed(1)}x` : `${x.toFixed(2)}x`);
/** A goal's ratio to its bound, to two places (three near 1, so a ratio just above it does not print as 1.00x). */
const fmtGoalX = (x: number) => `${x.toFixed(Math.abs(x - 1) < 0.005 ? 3 : 2)}x`;

async function main(): Promise<void> {
  const opts = args();
  const scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-bench-')));
  writeFileSync(path.join(scratch, 'empty-transform.cjs'), 'module.exports = function emptyTransform() { return undefined; };\n');
  writeFileSync(path.join(scratch, 'floor.mjs'), floorScript());
  const started = Date.now();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memory: `${(os.totalmem() / GIB).toFixed(1)} GiB`,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(' '),
    peakMemory: await peakMethod(),
  };
  console.log(`mcp-migrate benchmark: ${machine.cpus} cpus (${machine.cpuModel}), ${machine.memory}, node ${machine.node}`);
  console.log(`load average at start: ${machine.loadAverageAtStart}; peak memory from ${machine.peakMemory}`);
  console.log(`trees under ${scratch}\n`);

  const results: Result[] = [];
  try {
    for (const c of cases(opts)) {
      if (c.tools.length > 0) results.push(await runCase(c, scratch, opts.keep));
    }
  } finally {
    if (!opts.keep) rmSync(scratch, { recursive: true, force: true });
  }
  report(results, opts, started, machine);
}

/** One tree: written, its tools timed and checked (a failed check stops the bench), then its migrated copy's runs. */
async function runCase(c: TreeCase, scratch: string, keep: boolean): Promise<Result> {
  const root = path.join(scratch, c.id);
  const tree = c.prepare(root);
  c.files = tree.files;
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  console.log(`${c.label}: ${tree.summary}`);
  const tools = await timeTools(c, c.tools, root, scratch, (tool, s) => {
    const problem = tree.check(tool, s);
    if (problem) throw new Error(`${tool} on ${c.label}: ${problem}`);
  });
  for (const t of tools) {
    const note = tree.noteFor?.(t.tool);
    if (note) t.note = t.note ? `${t.note}; ${note}` : note;
  }
  console.log(`\n${table(c.label, tools)}\n`);
  const result: Result = { case: c, tree: tree.info, tools };
  if (c.migratedTools.length) result.migrated = await migratedRuns(c, root, scratch);
  if (!keep) {
    rmSync(root, { recursive: true, force: true });
    rmSync(`${root}-migrated`, { recursive: true, force: true });
  }
  return result;
}

/**
 * Each tool's runs in `cwd`, interleaved run by run so load changes hit all alike; every run handed to `check`.
 * A peer that blows the budget gets fewer runs (at least one), said in its note.
 */
async function timeTools(
  c: TreeCase,
  tools: ToolName[],
  cwd: string,
  scratch: string,
  check: (tool: ToolName, s: Sample) => void,
): Promise<ToolResult[]> {
  const samples = new Map<ToolName, Sample[]>(tools.map(t => [t, []]));
  const notes = new Map<ToolName, string>();
  const width = Math.max(11, ...tools.map(t => t.length));
  for (let run = 0; run < c.runs; run++) {
    for (const tool of tools) {
      const done = samples.get(tool)!;
      if (done.length > 0 && (done.reduce((a, s) => a + s.wallMs, 0) / done.length) * c.runs > BUDGET_MS) {
        notes.set(
          tool,
          `${done.length} run${done.length > 1 ? 's' : ''} instead of ${c.runs} (over the ${BUDGET_MS / 1000} s budget per tool and tree)`,
        );
        continue;
      }
      const s = await measure(commandFor(tool, cwd, scratch), scratch);
      check(tool, s);
      done.push(s);
      process.stdout.write(
        `  run ${run + 1}/${c.runs} ${tool.padEnd(width)} ${fmtMs(s.wallMs).padStart(8)}  ${fmtMiB(s.peakRss).padStart(9)}\n`,
      );
    }
  }
  return tools.map((tool): ToolResult => {
    const s = samples.get(tool)!;
    const medianMs = median(s.map(x => x.wallMs));
    const peaks = s.map(x => x.peakRss).filter((x): x is number => x !== undefined);
    return {
      tool,
      runs: s.length,
      wallMs: s.map(x => Math.round(x.wallMs)),
      medianMs: Math.round(medianMs),
      filesPerSecond: Math.round(c.files / (medianMs / 1000)),
      peakRssBytes: peaks.length ? Math.max(...peaks) : undefined,
      note: notes.get(tool),
    };
  });
}

/**
 * Issue 34's CI gate (bench/migrated.ts): a copy of the tree migrated for real by `mcp-migrate .` (untimed), then
 * `mcp-migrate --check`, a second `mcp-migrate --dry-run` and the official codemod's dry run timed on it. A failed
 * check is kept with the head of the run's report, printed, and fails the gate's goal line; the bench goes on.
 */
async function migratedRuns(c: TreeCase, root: string, scratch: string): Promise<MigratedResult> {
  const copy = copyTree(root, path.join(REPO, 'node_modules'));
  const write = await migrateCopy({ cmd: NODE, args: [CLI, '.'], cwd: copy, env: { NO_COLOR: '1' } }, scratch);
  console.log(`${c.label}, migrated copy: mcp-migrate . exited ${write.code}${write.written ? '' : ', nothing written: not timed'}`);
  const problems: Partial<Record<ToolName, string>> = {};
  const tools = !write.written
    ? []
    : await timeTools(c, c.migratedTools, copy, scratch, (tool, s) => {
        const problem = isMigratedTool(tool) ? checkMigrated(tool, s) : undefined;
        if (problem && !problems[tool]) problems[tool] = problem;
      });
  for (const t of tools) {
    if (problems[t.tool]) t.note = `failed its check: ${problems[t.tool]!.split('\n')[0]}`;
  }
  const result: MigratedResult = { write: { code: write.code, problem: write.problem }, tools, problems };
  if (tools.length) console.log(`\n${table(`${c.label}, migrated copy`, tools)}`);
  for (const f of failedChecks(result)) console.log(`  FAILED CHECK ${indent(f)}`);
  console.log('');
  return result;
}

/** The migrated copy's failed checks, each with the head of the run's report. */
const failedChecks = (m: MigratedResult): string[] => [
  ...(m.write.problem ? [`mcp-migrate . (making the copy): ${m.write.problem}`] : []),
  ...Object.entries(m.problems).map(([tool, p]) => `${tool}: ${p}`),
];

const indent = (text: string, by = '    ') => text.split('\n').join(`\n${by}`);

function report(results: Result[], opts: Options, started: number, machine: Record<string, unknown>): void {
  const fanout = results.filter(r => r.case.kind === 'fanout');
  if (fanout.length) console.log(`${fanoutSummary(fanout)}\n`);
  const goals = evaluateGoals(results);
  console.log('Goals:');
  for (const g of goals)
    console.log(`  [${g.met === undefined ? 'n/a' : g.met ? 'met' : 'NOT MET'}] ${g.goal}: ${indent(g.detail, '      ')}`);
  const totalSeconds = Math.round((Date.now() - started) / 1000);
  const loadAverageAtEnd = os
    .loadavg()
    .map(l => l.toFixed(2))
    .join(' ');
  console.log(`\nTotal bench time ${totalSeconds} s; load average at end: ${loadAverageAtEnd}`);
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, JSON.stringify({ machine: { ...machine, loadAverageAtEnd }, totalSeconds, results, goals }, null, 2) + '\n');
  console.log(`Results as JSON: ${path.relative(process.cwd(), opts.out) || opts.out}`);
  if (process.argv.includes('--markdown')) {
    const synthetic = results.filter(r => r.case.kind === 'synthetic');
    const real = results.filter(r => r.case.kind === 'real');
    if (synthetic.length) console.log(`\n${markdown(synthetic)}`);
    if (real.length) console.log(`\n${realMarkdown(real)}`);
    if (fanout.length) console.log(`\n${fanoutMarkdown(fanout)}`);
  }
}

function table(label: string, tools: ToolResult[]): string {
  const floor = tools.find(t => t.tool === 'floor');
  // On a migrated copy's table (its label says so), the columns name the tools without ' (migrated)'.
  const head = [
    'tool',
    'runs',
    'median wall',
    'files/s',
    'peak RSS',
    'vs floor',
    ...tools.filter(t => t.tool !== 'floor').map(t => `vs ${t.tool.replace(' (migrated)', '')}`),
  ];
  const rows = tools.map(t => [
    t.tool,
    String(t.runs),
    fmtMs(t.medianMs),
    String(t.filesPerSecond),
    fmtMiB(t.peakRssBytes),
    floor ? fmtX(t.medianMs / floor.medianMs) : 'n/a',
    ...tools.filter(p => p.tool !== 'floor').map(p => (p === t ? '-' : fmtX(p.medianMs / t.medianMs))),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)));
  const line = (r: string[]) => r.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ');
  const notes = tools.filter(t => t.note).map(t => `  note: ${t.tool}: ${t.note}`);
  return [`${label}  (vs X = X's time / this tool's time: above 1x, this tool is faster)`, line(head), ...rows.map(line), ...notes].join(
    '\n',
  );
}

/** A tree's rows: its tools, then those timed on its migrated copy. */
const rowsOf = (r: Result): ToolResult[] => [...r.tools, ...(r.migrated?.tools ?? [])];

/** The official codemod's row a row is compared with: on the migrated copy, the official codemod's dry run there. */
const officialFor = (r: Result, t: ToolResult) => rowsOf(r).find(x => x.tool === (isMigratedTool(t.tool) ? MIGRATED_OFFICIAL : 'official'));

/** The real-shaped trees, each tool's row, then its migrated copy's (× official there against the official codemod's run on the copy; no tsc). */
function realMarkdown(results: Result[]): string {
  const lines = [
    '| tree | tool | runs | median wall | peak RSS | wall × official | RSS × official | wall × tsc |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    for (const t of rowsOf(r)) {
      const official = officialFor(r, t);
      const tsc = isMigratedTool(t.tool) ? undefined : r.tools.find(x => x.tool === 'tsc');
      const rss = t.peakRssBytes && official?.peakRssBytes ? fmtX(t.peakRssBytes / official.peakRssBytes) : 'n/a';
      lines.push(
        `| ${r.case.label} | ${t.tool} | ${t.runs} | ${fmtMs(t.medianMs)} | ${fmtMiB(t.peakRssBytes)} | ${official ? fmtX(t.medianMs / official.medianMs) : 'n/a'} | ${rss} | ${tsc ? fmtX(t.medianMs / tsc.medianMs) : 'n/a'} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The fan-out trees by N: each tool's median wall and its time per handler call (wall / N), then the migrated copy's rows. */
function fanoutMarkdown(results: Result[]): string {
  const lines = [
    '| tree | files | tool | runs | median wall | per handler call | peak RSS | wall × official |',
    '|---|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of byHandlers(results)) {
    for (const t of rowsOf(r)) {
      const official = officialFor(r, t);
      lines.push(
        `| ${r.case.label} | ${r.case.files} | ${t.tool} | ${t.runs} | ${fmtMs(t.medianMs)} | ${fmtPerCall(t.medianMs / r.case.handlers!)} | ${fmtMiB(t.peakRssBytes)} | ${official ? fmtX(t.medianMs / official.medianMs) : 'n/a'} |`,
      );
    }
  }
  return lines.join('\n');
}

function markdown(results: { case: TreeCase; tools: ToolResult[] }[]): string {
  const lines = ['| tree | tool | runs | median wall | files/s | peak RSS | × floor |', '|---|---|---:|---:|---:|---:|---:|'];
  for (const r of results) {
    const floor = r.tools.find(t => t.tool === 'floor');
    for (const t of r.tools) {
      lines.push(
        `| ${r.case.label} | ${t.tool} | ${t.runs} | ${fmtMs(t.medianMs)} | ${t.filesPerSecond} | ${fmtMiB(t.peakRssBytes)} | ${floor ? fmtX(t.medianMs / floor.medianMs) : 'n/a'} |`,
      );
    }
  }
  return lines.join('\n');
}

interface Goal {
  goal: string;
  met?: boolean;
  detail: string;
}

function evaluateGoals(all: Result[]): Goal[] {
  const results = all.filter(r => r.case.kind === 'synthetic');
  const fanout = all.filter(r => r.case.kind === 'fanout');
  const realShaped = all.filter(r => r.case.kind === 'real');
  const real = [...costGoals(realShaped), ...costGoals(fanout), ...fanoutGoals(fanout), ...gateGoals([...realShaped, ...fanout])];
  if (results.length === 0) return real;
  const get = (id: string, tool: ToolName) => results.find(r => r.case.id === id)?.tools.find(t => t.tool === tool);
  const largest = results.length ? Math.max(...results.map(r => r.case.files)) : 0;
  const k = sizeId(largest);
  const goals: Goal[] = [];
  for (const [id, what] of [
    [`${k}-none`, 'no MCP, look-alikes only'],
    [`${k}-plain`, 'no trigger name'],
  ] as const) {
    const ours = get(id, 'mcp-migrate');
    const floor = get(id, 'floor');
    goals.push({
      goal: `${largest} files with nothing to do (${what}) within 3x of the floor`,
      met: ours && floor ? ours.medianMs <= 3 * floor.medianMs : undefined,
      detail:
        ours && floor
          ? `${fmtMs(ours.medianMs)} vs floor ${fmtMs(floor.medianMs)} = ${fmtX(ours.medianMs / floor.medianMs)}`
          : 'not measured',
    });
  }
  for (const r of results.filter(x => x.case.mcpRatio > 0)) {
    const ours = r.tools.find(t => t.tool === 'mcp-migrate');
    const official = r.tools.find(t => t.tool === 'official');
    goals.push({
      goal: `${r.case.label}: at least 5x faster than the official codemod's dry run`,
      met: ours && official ? official.medianMs >= 5 * ours.medianMs : undefined,
      detail:
        ours && official
          ? `${fmtMs(ours.medianMs)} vs ${fmtMs(official.medianMs)} = ${fmtX(official.medianMs / ours.medianMs)} faster`
          : 'not measured',
    });
  }
  const peaks = results
    .filter(r => r.case.files === largest)
    .map(r => r.tools.find(t => t.tool === 'mcp-migrate')?.peakRssBytes)
    .filter((x): x is number => x !== undefined);
  goals.push({
    goal: `peak memory below 1 GiB at ${largest} files`,
    met: peaks.length ? Math.max(...peaks) < GIB : undefined,
    detail: peaks.length ? `largest peak ${fmtMiB(Math.max(...peaks))}` : 'not measured',
  });
  return [...goals, ...real];
}

/**
 * Issue 34's first goal on every real-shaped and fan-out tree: mcp-migrate's dry run within the official codemod's
 * median wall plus the tree's `tsc --noEmit` (same run), and its peak RSS at most 1.5x the larger of theirs. Beside
 * each, what the design's floor alone takes against the same bound (timed on the real-shaped trees only).
 */
function costGoals(results: Result[]): Goal[] {
  const goals: Goal[] = [];
  for (const r of results) {
    const get = (tool: ToolName) => r.tools.find(t => t.tool === tool);
    const [ours, official, tsc, floor] = [get('mcp-migrate'), get('official'), get('tsc'), get('design-floor')];
    const floorOf = (x?: number, bound?: number) =>
      x === undefined || bound === undefined ? '' : `; the design's floor alone: ${fmtGoalX(x / bound)}`;
    const wallBound = official && tsc ? official.medianMs + tsc.medianMs : undefined;
    const wall = ours && wallBound !== undefined ? ours.medianMs / wallBound : undefined;
    goals.push({
      goal: `${r.case.label}: wall ≤ the official codemod's + the tree's tsc --noEmit`,
      met: wall === undefined ? undefined : wall <= 1,
      detail:
        wall === undefined
          ? 'not measured'
          : `${fmtMs(ours!.medianMs)} vs ${fmtMs(official!.medianMs)} + ${fmtMs(tsc!.medianMs)} = ${fmtMs(wallBound!)}: ${fmtGoalX(wall)}${floorOf(floor?.medianMs, wallBound)}`,
    });
    const larger =
      official?.peakRssBytes !== undefined && tsc?.peakRssBytes !== undefined
        ? Math.max(official.peakRssBytes, tsc.peakRssBytes)
        : undefined;
    const rssBound = larger === undefined ? undefined : 1.5 * larger;
    const rss = ours?.peakRssBytes !== undefined && rssBound !== undefined ? ours.peakRssBytes / rssBound : undefined;
    const whose = larger === official?.peakRssBytes ? 'the official codemod' : 'tsc';
    goals.push({
      goal: `${r.case.label}: peak RSS ≤ 1.5x the larger of the official codemod's and tsc's`,
      met: rss === undefined ? undefined : rss <= 1,
      detail:
        rss === undefined
          ? 'not measured'
          : `${fmtMiB(ours!.peakRssBytes)} vs 1.5 x ${fmtMiB(larger)} (${whose}) = ${fmtMiB(rssBound)}: ${fmtGoalX(rss)}${floorOf(floor?.peakRssBytes, rssBound)}`,
    });
  }
  return goals;
}

/**
 * Issue 34's CI gate on each tree's migrated copy (bench/migrated.ts): its checks passed (the copy made by
 * `mcp-migrate .` with exit 0, `--check` exits 0 there, a second dry run changes nothing, the official codemod's
 * dry run exits 0), and `mcp-migrate --check` and `mcp-migrate --dry-run` each within 1.0x the official
 * codemod's dry run on the copy.
 */
function gateGoals(results: Result[]): Goal[] {
  const goals: Goal[] = [];
  for (const r of results) {
    const m = r.migrated;
    if (!m) continue;
    const failed = failedChecks(m);
    goals.push({
      goal: `${r.case.label}: on the migrated copy, nothing left to do (mcp-migrate . and --check exit 0, a second dry run changes nothing)`,
      met: failed.length === 0,
      detail: failed.length
        ? `${failed.map(f => f.split('\n')[0]).join('; ')} (the report's head is printed with the copy's table)`
        : 'every run passed its check',
    });
    const official = m.tools.find(t => t.tool === MIGRATED_OFFICIAL);
    for (const tool of [MIGRATED_CHECK, MIGRATED_DRY_RUN] as const) {
      const ours = m.tools.find(t => t.tool === tool);
      const x = ours && official ? ours.medianMs / official.medianMs : undefined;
      goals.push({
        goal: `${r.case.label}: ${tool.replace(' (migrated)', '')} on the migrated copy ≤ 1.0x the official codemod's dry run on it`,
        met: x === undefined ? undefined : x <= 1,
        detail: x === undefined ? 'not measured' : `${fmtMs(ours!.medianMs)} vs ${fmtMs(official!.medianMs)}: ${fmtGoalX(x)}`,
      });
    }
  }
  return goals;
}

const byHandlers = (results: Result[]) => [...results].sort((a, b) => a.case.handlers! - b.case.handlers!);

/**
 * The fan-out trees, per N: each tool's median wall, its time per handler call (wall / N), and what each
 * call added since the previous N ((wall - previous wall) / (N - previous N), which the fixed cost of a run
 * does not blur).
 */
function fanoutSummary(results: Result[]): string {
  const sorted = byHandlers(results);
  const head = ['N', 'files', 'tool', 'median wall', 'per call', 'added per call'];
  const rows: string[][] = [];
  sorted.forEach((r, i) => {
    const prev = sorted[i - 1];
    for (const t of rowsOf(r)) {
      const before = prev ? rowsOf(prev).find(p => p.tool === t.tool) : undefined;
      const added = before ? fmtPerCall((t.medianMs - before.medianMs) / (r.case.handlers! - prev.case.handlers!)) : '-';
      rows.push([
        String(r.case.handlers),
        String(r.case.files),
        t.tool,
        fmtMs(t.medianMs),
        fmtPerCall(t.medianMs / r.case.handlers!),
        added,
      ]);
    }
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)));
  const line = (r: string[]) => r.map((x, i) => (i === 2 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ');
  return ['Fan-out: one asking helper called from N handlers in N/5 files; per call = median wall / N', line(head), ...rows.map(line)].join(
    '\n',
  );
}

/** Issue 34's goal on the fan-out trees: mcp-migrate's time per handler call at the largest N at most 1.5x that at the smallest. */
function fanoutGoals(results: Result[]): Goal[] {
  if (results.length === 0) return [];
  const sorted = byHandlers(results);
  const [small, large] = [sorted[0], sorted[sorted.length - 1]];
  const goal = `fan-out: mcp-migrate's time per handler call at N=${large.case.handlers} ≤ 1.5x that at N=${small.case.handlers}`;
  const perCall = (r: Result, tool: ToolName) => {
    const t = r.tools.find(x => x.tool === tool);
    return t ? t.medianMs / r.case.handlers! : undefined;
  };
  const [a, b] = [perCall(small, 'mcp-migrate'), perCall(large, 'mcp-migrate')];
  if (small === large || a === undefined || b === undefined) return [{ goal, detail: 'needs mcp-migrate on two sizes' }];
  const [oa, ob] = [perCall(small, 'official'), perCall(large, 'official')];
  const official = oa !== undefined && ob !== undefined ? `; the official codemod: ${fmtX(ob / oa)}` : '';
  return [{ goal, met: b <= 1.5 * a, detail: `${fmtPerCall(b)} vs ${fmtPerCall(a)} per call = ${fmtX(b / a)}${official}` }];
}

await main();
