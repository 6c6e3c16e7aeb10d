/**
 * verify: does the migrated server answer like the original? Three runs of one scenario:
 * a legacy client against `before`, a modern client against `after`, a legacy client against `after`
 * (served by the SDK's legacy shim), compared call by call.
 */
import { comparable, firstDifference, type Difference } from './compare.js';
import { runScenario, type CallOutcome, type RunResult, type ServerCommand } from './run.js';
import type { Scenario } from './scenario.js';

/** `before`: legacy client → original server; `modern`: modern client → migrated; `shim`: legacy client → migrated. */
export type RunName = 'before' | 'modern' | 'shim';

export const RUN_LABELS: Record<RunName, string> = {
  before: 'before, legacy client',
  modern: 'after, modern client',
  shim: 'after, legacy client',
};

export interface VerifyOptions {
  /** The original server: a shell command line, or one with its own cwd/env. */
  before: string | ServerCommand;
  /** The migrated server. */
  after: string | ServerCommand;
  scenario: Scenario;
  /** Per round (see runScenario). Default 10 000. */
  timeoutMs?: number;
  /** Working directory and extra environment for commands given as strings. */
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** For commands given as strings: they serve Streamable HTTP at this path (see `ServerCommand.http`). */
  http?: string;
  /** Run the three runs at once (default) or one after another. */
  parallel?: boolean;
}

export interface VerifyRow {
  /** Index into the scenario's calls. */
  index: number;
  call: string;
  run: RunName;
  ok: boolean;
  rounds: number;
  /** Why the row fails (or, for passing rows, nothing). */
  reason?: string;
  /** The first difference from the `before` run, for rows that differ. */
  difference?: Difference & { in: 'result' | 'requests' };
}

export interface VerifyResult {
  ok: boolean;
  runs: Record<RunName, RunResult>;
  /** One row per call and run, call-major: before, modern, shim for call 0, then call 1, ... */
  rows: VerifyRow[];
}

function toCommand(server: string | ServerCommand, options: VerifyOptions): ServerCommand {
  if (typeof server !== 'string') return server;
  return {
    command: server,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.http !== undefined ? { http: options.http } : {}),
  };
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

/** Problems of one call on its own: the run failed, the call hit violations or never ran. */
function ownProblem(run: RunResult, outcome: CallOutcome | undefined): string | undefined {
  if (!outcome) return 'no outcome';
  if (outcome.violations.length > 0) return `protocol violation: ${outcome.violations.join('; ')}`;
  if (outcome.rounds === 0 && outcome.error) return firstLine(outcome.error.message);
  if (run.fatal && !run.connected) return firstLine(run.fatal);
  return undefined;
}

export function compareRuns(runs: Record<RunName, RunResult>): VerifyResult {
  const rows: VerifyRow[] = [];
  const count = runs.before.calls.length;
  for (let index = 0; index < count; index++) {
    const base = runs.before.calls[index];
    const baseProblem = ownProblem(runs.before, base);
    for (const run of ['before', 'modern', 'shim'] as const) {
      const outcome = runs[run].calls[index];
      const row: VerifyRow = { index, call: base?.name ?? `#${index}`, run, ok: true, rounds: outcome?.rounds ?? 0 };
      const problem = ownProblem(runs[run], outcome);
      if (problem) {
        row.ok = false;
        row.reason = problem;
      } else if (run !== 'before' && baseProblem) {
        row.ok = false;
        row.reason = `no baseline: ${baseProblem}`;
      } else if (run !== 'before' && base && outcome) {
        const a = comparable(base);
        const b = comparable(outcome);
        const inResult = firstDifference(a.outcome, b.outcome);
        const inRequests = inResult ? undefined : firstDifference(a.requests, b.requests, 'requests');
        if (inResult) {
          row.ok = false;
          row.reason = 'final result differs';
          row.difference = { in: 'result', ...inResult };
        } else if (inRequests) {
          row.ok = false;
          row.reason = 'input requests differ';
          row.difference = { in: 'requests', ...inRequests };
        }
      }
      rows.push(row);
    }
  }
  const runsOk = Object.values(runs).every(r => r.violations.length === 0);
  return { ok: count > 0 && runsOk && rows.every(r => r.ok), runs, rows };
}

/** Runs the scenario three ways (see the module comment) and compares each call against the `before` run. */
export async function verify(options: VerifyOptions): Promise<VerifyResult> {
  const before = toCommand(options.before, options);
  const after = toCommand(options.after, options);
  const common = { scenario: options.scenario, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
  const jobs: Record<RunName, () => Promise<RunResult>> = {
    before: () => runScenario({ ...before, ...common, era: 'legacy' }),
    modern: () => runScenario({ ...after, ...common, era: 'modern' }),
    shim: () => runScenario({ ...after, ...common, era: 'legacy' }),
  };
  let runs: Record<RunName, RunResult>;
  if (options.parallel === false) {
    runs = { before: await jobs.before(), modern: await jobs.modern(), shim: await jobs.shim() };
  } else {
    const [b, m, s] = await Promise.all([jobs.before(), jobs.modern(), jobs.shim()]);
    runs = { before: b, modern: m, shim: s };
  }
  return compareRuns(runs);
}

function show(value: unknown, width = 70): string {
  const text =
    value === undefined ? 'undefined' : typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/**
 * A plain-text pass/fail table, one row per call and run, then the first difference of each failing row
 * (path, before value, after value) and the full reason of every failed run (with the server's stderr).
 */
export function formatVerifyTable(result: VerifyResult): string {
  const header = ['#', 'call', 'run', 'rounds', 'status'];
  const body = result.rows.map(row => [
    String(row.index + 1),
    row.call,
    RUN_LABELS[row.run],
    String(row.rounds),
    row.ok ? 'pass' : `FAIL ${row.reason ?? ''}`.trimEnd(),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map(r => Math.min(r[i]!.length, i === 4 ? 200 : 40))));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(header), line(widths.map(w => '-'.repeat(w))), ...body.map(line)];

  const differing = result.rows.filter(r => r.difference);
  if (differing.length > 0) {
    out.push('', 'Differences (first per call and run):');
    for (const row of differing) {
      const d = row.difference!;
      out.push(
        `  ${row.call} (${RUN_LABELS[row.run]}): ${d.in === 'result' ? 'final result' : 'input requests'} at ${d.path}`,
        `    before: ${show(d.before)}`,
        `    after:  ${show(d.after)}`,
      );
    }
  }
  const failedRuns = (Object.keys(result.runs) as RunName[]).filter(
    name => result.runs[name].fatal || result.runs[name].violations.length > 0,
  );
  if (failedRuns.length > 0) {
    out.push('', 'Run failures:');
    for (const name of failedRuns) {
      const run = result.runs[name];
      const text = [run.fatal, ...run.violations].filter(Boolean).join('\n');
      out.push(`  ${RUN_LABELS[name]} (${run.command}):`, ...text.split('\n').map(l => `    ${l}`));
    }
  }
  const passed = result.rows.filter(r => r.ok).length;
  out.push('', `${result.ok ? 'OK' : 'FAILED'}: ${passed}/${result.rows.length} rows pass`);
  return out.join('\n');
}
