import path from 'node:path';
import type { SiteKind } from './siteKind.js';
import type { CauseId } from './tables/causes.js';

/**
 * The report: what a run found and did, per site and per file. Plain data, so the CLI can print it
 * as a table or as JSON and tests can assert on it.
 */

/** A file a run writes: its text before (`null` for a file the run creates) and after. */
export interface FileChange {
  /** Absolute path. */
  path: string;
  before: string | null;
  after: string;
}

/** What happened to one server-initiated request site. */
export type SiteOutcome = 'rewritten' | 'marked' | 'skipped';

export type { SiteKind } from './siteKind.js';

export interface SiteReport {
  file: string;
  line: number;
  column: number;
  kind: SiteKind;
  /** The call as written, e.g. `server.server.elicitInput(...)`. */
  call: string;
  outcome: SiteOutcome;
  /** Why it was marked or skipped; for rewritten sites, the handler it was rewritten in. */
  reason: string;
  /** The handler shape, e.g. `tools/call greet`, or `helper`, `oninitialized`. */
  handler?: string;
  /** The control-flow shape the site sits in: what the per-shape counts of the summary group by. */
  shape?: SiteShape;
  /** For marked and skipped sites: why, without the handler's name, so that the summary can count sites per cause. */
  cause?: string;
  /** For marked and skipped sites: the row of the causes table (src/tables/causes.ts) the cause was found as. */
  causeId?: CauseId;
  /** For a request of a kind the protocol deprecates (sampling, roots: SEP-2577), whatever the outcome: what to use instead. */
  deprecated?: string;
  /**
   * For a rewritten request: where the rewrite put it in the file's new text (1-based), the entry of
   * `inputRequests` it became. The pipeline sets it; a run that writes the file reports the site there,
   * and no report prints the field.
   */
  rewrittenAt?: { line: number; column: number };
  /**
   * Where the site was in the file as the run read it (1-based), when a run that wrote the file
   * reports it elsewhere: `line` and `column` are then in the file as written. In `--json` only.
   */
  readAt?: { line: number; column: number };
}

/** Request kinds SEP-2577 deprecates (migrated all the same, since they still work), with the alternative. */
export const DEPRECATED_KINDS: Partial<Record<SiteKind, string>> = {
  sampling: 'sampling is deprecated by SEP-2577 (MCP 2026-07-28): call a model from the server directly',
  roots: 'roots are deprecated by SEP-2577 (MCP 2026-07-28): take the paths as tool arguments',
};

/** The sites with a deprecation, each kind with its count and alternative. */
export function countDeprecated(report: Pick<Report, 'sites'>): { kind: SiteKind; count: number; alternative: string }[] {
  return Object.entries(DEPRECATED_KINDS)
    .map(([kind, alternative]) => ({ kind: kind as SiteKind, count: report.sites.filter(s => s.kind === kind).length, alternative }))
    .filter(row => row.count > 0);
}

/**
 * `helper`: the request came through a helper inlined into the handler (or a helper call left, marked, not inlined);
 * `expression`: awaited inside an expression and hoisted into a statement of its own first.
 */
export type SiteShape = 'straight' | 'if' | 'loop' | 'try' | 'switch' | 'Promise.all' | 'callback' | 'helper' | 'expression' | 'other';

/** What the per-shape counts call a site: its control-flow shape, or what it is when it is no request. */
function shapeLabel(s: SiteReport): string {
  if (s.shape) return s.shape;
  if (s.kind === 'entry') return 'serving entry';
  if (s.kind === 'registration') return 'oninitialized registration';
  if (s.kind === 'capabilities') return 'capability check';
  if (s.kind === 'connection') return 'initialize read';
  if (s.kind === 'logging') return 'log message';
  if (s.kind === 'list-change') return 'list change';
  return 'other';
}

/** Per shape: how many sites were rewritten, marked, skipped. */
export function countByShape(report: Pick<Report, 'sites'>): Record<string, Record<SiteOutcome, number>> {
  const counts: Record<string, Record<SiteOutcome, number>> = {};
  for (const s of report.sites) {
    const shape = shapeLabel(s);
    counts[shape] ??= { rewritten: 0, marked: 0, skipped: 0 };
    counts[shape][s.outcome]++;
  }
  return counts;
}

export interface CauseCount {
  cause: string;
  /** Marked and skipped sites with this cause. */
  count: number;
  /** The same per shape. */
  shapes: Record<string, number>;
}

/** Why sites were left: one row per cause of the marked and skipped sites, the commonest first. */
export function countByCause(report: Pick<Report, 'sites'>): CauseCount[] {
  const rows = new Map<string, CauseCount>();
  for (const s of report.sites) {
    if (s.outcome === 'rewritten') continue;
    const cause = s.cause ?? s.reason;
    let row = rows.get(cause);
    if (!row) rows.set(cause, (row = { cause, count: 0, shapes: {} }));
    row.count++;
    const shape = shapeLabel(s);
    row.shapes[shape] = (row.shapes[shape] ?? 0) + 1;
  }
  return [...rows.values()].sort((a, b) => b.count - a.count || a.cause.localeCompare(b.cause));
}

export type FileOutcome = 'changed' | 'unchanged' | 'error' | 'skipped';

export interface FileReport {
  file: string;
  outcome: FileOutcome;
  /** For error and skipped files: the located reason (`file:line:col message` where known). */
  reason?: string;
}

/** A finding of the official v1-to-v2 codemod, passed through. */
export interface UpgradeNote {
  file: string;
  line: number;
  level: 'error' | 'warning' | 'info';
  message: string;
}

export interface Report {
  sites: SiteReport[];
  files: FileReport[];
  upgrade: UpgradeNote[];
  /** Files the tool created (the requestState module), relative to the cwd. */
  created: string[];
  /** Human-readable notes for the end of the run (e.g. "install @modelcontextprotocol/server"). */
  notes: string[];
}

/** A file as the report names it: relative to the run's root, or by its name where it is the root (a run given one file). */
export function shownPath(cwd: string, file: string): string {
  return path.relative(cwd, file) || path.basename(file);
}

export function unchangedFile(absolutePath: string, cwd: string): FileReport {
  return { file: shownPath(cwd, absolutePath), outcome: 'unchanged' };
}

export function emptyReport(): Report {
  return { sites: [], files: [], upgrade: [], created: [], notes: [] };
}

export function countSites(report: Report): Record<SiteOutcome, number> {
  const counts: Record<SiteOutcome, number> = { rewritten: 0, marked: 0, skipped: 0 };
  for (const s of report.sites) counts[s.outcome]++;
  return counts;
}

/** Sites a user still has to act on: what `--check` gates on. */
export function sitesLeft(report: Report): number {
  return report.sites.filter(s => s.outcome !== 'rewritten').length;
}
