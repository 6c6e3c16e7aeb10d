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
 * - mcp-migrate: `mcp-migrate --dry-run .` (the built CLI); its diff is checked (one per MCP file + the
 *   requestState module) so a fast wrong answer cannot pass;
 * - official: `mcp-codemod v1-to-v2 --dry-run .` (@modelcontextprotocol/codemod);
 * - jscodeshift: an empty transform over the tree (`--dry --silent`): jscodeshift's own overhead;
 * - floor: a node script that walks the tree, reads every source and tests the trigger names.
 *
 * Flags: --sizes=1000,10000  --runs=5,3 (per size)  --only=mcp-migrate,floor  --keep  --out=<file.json>
 *        --ab (also mcp-migrate with the pipeline in the main thread)  --markdown (print a README table)
 */
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TRIGGER_PATTERN } from '../src/triggers.js';
import { generateTree, type GeneratedTree } from './generate.js';
import { measure, median, peakMethod, type Command, type Sample } from './measure.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NODE = process.execPath;
const CLI = path.join(REPO, 'dist', 'src', 'cli.js');
const CODEMOD = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'codemod', 'dist', 'cli.mjs');
const JSCODESHIFT = path.join(REPO, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
const GIB = 1024 ** 3;
/** Budget for one tool's runs on one tree: fewer runs for a peer slower than this (said in the output). */
const BUDGET_MS = 150_000;

type ToolName = 'mcp-migrate' | 'mcp-migrate-1t' | 'official' | 'jscodeshift' | 'floor';
const TOOLS: ToolName[] = ['mcp-migrate', 'official', 'jscodeshift', 'floor'];

interface TreeCase {
  id: string;
  label: string;
  files: number;
  mcpRatio: number;
  lookAlikes: boolean;
  runs: number;
  tools: ToolName[];
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

function args(): { sizes: number[]; runs: number[]; only?: ToolName[]; keep: boolean; out: string } {
  const get = (name: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = (get('sizes') ?? '1000,10000').split(',').map(Number);
  const runs = (get('runs') ?? '5,3').split(',').map(Number);
  const only = get('only')?.split(',') as ToolName[] | undefined;
  return { sizes, runs, only, keep: process.argv.includes('--keep'), out: get('out') ?? path.join(REPO, 'dist', 'bench', 'results.json') };
}

const sizeId = (files: number) => (files >= 1000 && files % 1000 === 0 ? `${files / 1000}k` : String(files));

function cases(sizes: number[], runs: number[], only?: ToolName[]): TreeCase[] {
  // --ab adds mcp-migrate with the pipeline in the main thread (MCP_MIGRATE_IN_PROCESS=1), next to the default.
  const ab = process.argv.includes('--ab');
  const pick = (ts: ToolName[]) => {
    const all: ToolName[] = ab ? ts.flatMap(t => (t === 'mcp-migrate' ? [t, 'mcp-migrate-1t' as const] : [t])) : ts;
    return only ? all.filter(t => only.includes(t)) : all;
  };
  const out: TreeCase[] = [];
  sizes.forEach((files, i) => {
    const r = runs[i] ?? runs[runs.length - 1] ?? 3;
    const k = sizeId(files);
    out.push({ id: `${k}-mcp`, label: `${files} files, 1% MCP`, files, mcpRatio: 0.01, lookAlikes: true, runs: r, tools: pick(TOOLS) });
  });
  const largest = Math.max(...sizes);
  const k = sizeId(largest);
  const r = runs[sizes.indexOf(largest)] ?? 3;
  out.push({ id: `${k}-none`, label: `${largest} files, no MCP (look-alikes only)`, files: largest, mcpRatio: 0, lookAlikes: true, runs: r, tools: pick(['mcp-migrate', 'floor']) });
  out.push({ id: `${k}-plain`, label: `${largest} files, no trigger name at all`, files: largest, mcpRatio: 0, lookAlikes: false, runs: r, tools: pick(['mcp-migrate', 'floor']) });
  return out;
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
        args: [JSCODESHIFT, '-t', path.join(scratch, 'empty-transform.cjs'), '--dry', '--silent', '--parser=ts',
          '--extensions=ts,tsx,mts,cts,js,jsx,mjs,cjs', '--ignore-pattern=**/node_modules/**', '--gitignore', '.'],
        cwd: root,
      };
    case 'floor':
      return { cmd: NODE, args: [path.join(scratch, 'floor.mjs'), '.'], cwd: root };
  }
}

/** Check a run did the job, so a fast wrong answer is not timed as a win. */
function check(tool: ToolName, s: Sample, tree: GeneratedTree, sourceFiles: number): string | undefined {
  if (s.code !== 0) return `exit ${s.code}: ${s.stderr.slice(-400)}`;
  const mcp = tree.mcpFiles.length;
  if (tool === 'mcp-migrate' || tool === 'mcp-migrate-1t') {
    // Source diffs only (package.json edits may come along).
    const diffs = (s.stdout.match(/^diff --git a\/\S+\.[mc]?[jt]sx? /gm) ?? []).length;
    const expected = mcp ? mcp + 1 : 0; // + the requestState module
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

const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const fmtMiB = (b?: number) => (b === undefined ? 'n/a' : `${Math.round(b / 1024 ** 2)} MiB`);
const fmtX = (x: number) => (x >= 10 ? `${x.toFixed(0)}x` : x >= 0.1 ? `${x.toFixed(1)}x` : `${x.toFixed(2)}x`);

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
    loadAverageAtStart: os.loadavg().map(l => l.toFixed(2)).join(' '),
    peakMemory: await peakMethod(),
  };
  console.log(`mcp-migrate benchmark: ${machine.cpus} cpus (${machine.cpuModel}), ${machine.memory}, node ${machine.node}`);
  console.log(`load average at start: ${machine.loadAverageAtStart}; peak memory from ${machine.peakMemory}`);
  console.log(`trees under ${scratch}\n`);

  const results: { case: TreeCase; tree: Omit<GeneratedTree, 'root'>; tools: ToolResult[] }[] = [];
  try {
    for (const c of cases(opts.sizes, opts.runs, opts.only)) {
      if (c.tools.length === 0) continue;
      const root = path.join(scratch, c.id);
      const tree = generateTree(root, { files: c.files, mcpRatio: c.mcpRatio, seed: 20260728 + c.files, lookAlikes: c.lookAlikes }, path.join(REPO, '__testfixtures__'));
      symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
      console.log(`${c.label}: ${tree.files} sources (${(tree.bytes / 1024 ** 2).toFixed(1)} MiB), ${tree.mcpFiles.length} MCP servers, ${tree.lookAlikes} look-alikes`);
      const samples = new Map<ToolName, Sample[]>(c.tools.map(t => [t, []]));
      const notes = new Map<ToolName, string>();
      for (let run = 0; run < c.runs; run++) {
        for (const tool of c.tools) {
          const done = samples.get(tool)!;
          // A peer that blows the budget gets fewer runs (at least one); said in the output.
          if (done.length > 0 && done.reduce((a, s) => a + s.wallMs, 0) / done.length * c.runs > BUDGET_MS) {
            notes.set(tool, `${done.length} run${done.length > 1 ? 's' : ''} instead of ${c.runs} (over the ${BUDGET_MS / 1000} s budget per tool and tree)`);
            continue;
          }
          const s = await measure(commandFor(tool, root, scratch), scratch);
          const problem = check(tool, s, tree, tree.files);
          if (problem) throw new Error(`${tool} on ${c.label}: ${problem}`);
          done.push(s);
          process.stdout.write(`  run ${run + 1}/${c.runs} ${tool.padEnd(11)} ${fmtMs(s.wallMs).padStart(8)}  ${fmtMiB(s.peakRss).padStart(9)}\n`);
        }
      }
      const tools = c.tools.map((tool): ToolResult => {
        const s = samples.get(tool)!;
        const medianMs = median(s.map(x => x.wallMs));
        const peaks = s.map(x => x.peakRss).filter((x): x is number => x !== undefined);
        return { tool, runs: s.length, wallMs: s.map(x => Math.round(x.wallMs)), medianMs: Math.round(medianMs), filesPerSecond: Math.round(c.files / (medianMs / 1000)), peakRssBytes: peaks.length ? Math.max(...peaks) : undefined, note: notes.get(tool) };
      });
      const { root: _root, ...treeInfo } = tree;
      void _root;
      results.push({ case: c, tree: treeInfo, tools });
      console.log(`\n${table(c, tools)}\n`);
      if (!opts.keep) rmSync(root, { recursive: true, force: true });
    }
  } finally {
    if (!opts.keep) rmSync(scratch, { recursive: true, force: true });
  }

  const goals = evaluateGoals(results);
  console.log('Goals:');
  for (const g of goals) console.log(`  [${g.met === undefined ? 'n/a' : g.met ? 'met' : 'NOT MET'}] ${g.goal}: ${g.detail}`);
  const totalSeconds = Math.round((Date.now() - started) / 1000);
  const loadAverageAtEnd = os.loadavg().map(l => l.toFixed(2)).join(' ');
  console.log(`\nTotal bench time ${totalSeconds} s; load average at end: ${loadAverageAtEnd}`);
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, JSON.stringify({ machine: { ...machine, loadAverageAtEnd }, totalSeconds, results, goals }, null, 2) + '\n');
  console.log(`Results as JSON: ${path.relative(process.cwd(), opts.out) || opts.out}`);
  if (process.argv.includes('--markdown')) console.log(`\n${markdown(results)}`);
}

function table(c: TreeCase, tools: ToolResult[]): string {
  const floor = tools.find(t => t.tool === 'floor');
  const head = ['tool', 'runs', 'median wall', 'files/s', 'peak RSS', 'vs floor', ...tools.filter(t => t.tool !== 'floor').map(t => `vs ${t.tool}`)];
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
  return [`${c.label}  (vs X = X's time / this tool's time: above 1x, this tool is faster)`, line(head), ...rows.map(line), ...notes].join('\n');
}

function markdown(results: { case: TreeCase; tools: ToolResult[] }[]): string {
  const lines = ['| tree | tool | runs | median wall | files/s | peak RSS | × floor |', '|---|---|---:|---:|---:|---:|---:|'];
  for (const r of results) {
    const floor = r.tools.find(t => t.tool === 'floor');
    for (const t of r.tools) {
      lines.push(`| ${r.case.label} | ${t.tool} | ${t.runs} | ${fmtMs(t.medianMs)} | ${t.filesPerSecond} | ${fmtMiB(t.peakRssBytes)} | ${floor ? fmtX(t.medianMs / floor.medianMs) : 'n/a'} |`);
    }
  }
  return lines.join('\n');
}

interface Goal {
  goal: string;
  met?: boolean;
  detail: string;
}

function evaluateGoals(results: { case: TreeCase; tools: ToolResult[] }[]): Goal[] {
  const get = (id: string, tool: ToolName) => results.find(r => r.case.id === id)?.tools.find(t => t.tool === tool);
  const largest = results.length ? Math.max(...results.map(r => r.case.files)) : 0;
  const k = sizeId(largest);
  const goals: Goal[] = [];
  for (const [id, what] of [[`${k}-none`, 'no MCP, look-alikes only'], [`${k}-plain`, 'no trigger name']] as const) {
    const ours = get(id, 'mcp-migrate');
    const floor = get(id, 'floor');
    goals.push({
      goal: `${largest} files with nothing to do (${what}) within 3x of the floor`,
      met: ours && floor ? ours.medianMs <= 3 * floor.medianMs : undefined,
      detail: ours && floor ? `${fmtMs(ours.medianMs)} vs floor ${fmtMs(floor.medianMs)} = ${fmtX(ours.medianMs / floor.medianMs)}` : 'not measured',
    });
  }
  for (const r of results.filter(x => x.case.mcpRatio > 0)) {
    const ours = r.tools.find(t => t.tool === 'mcp-migrate');
    const official = r.tools.find(t => t.tool === 'official');
    goals.push({
      goal: `${r.case.label}: at least 5x faster than the official codemod's dry run`,
      met: ours && official ? official.medianMs >= 5 * ours.medianMs : undefined,
      detail: ours && official ? `${fmtMs(ours.medianMs)} vs ${fmtMs(official.medianMs)} = ${fmtX(official.medianMs / ours.medianMs)} faster` : 'not measured',
    });
  }
  const peaks = results.filter(r => r.case.files === largest).map(r => r.tools.find(t => t.tool === 'mcp-migrate')?.peakRssBytes).filter((x): x is number => x !== undefined);
  goals.push({
    goal: `peak memory below 1 GiB at ${largest} files`,
    met: peaks.length ? Math.max(...peaks) < GIB : undefined,
    detail: peaks.length ? `largest peak ${fmtMiB(Math.max(...peaks))}` : 'not measured',
  });
  return goals;
}

await main();
