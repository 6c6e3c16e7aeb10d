/**
 * The run report as the user sees it: per-file outcomes and a summary on top of the pipeline's `Report`,
 * printed for people (stderr) or as JSON (stdout, `--json`).
 */
import { createColors } from 'picocolors';
import { countByCause, countByShape, countDeprecated, countSites, sitesLeft, type CauseCount, type FileReport, type Report, type SiteOutcome } from './report.js';

export type RunMode = 'write' | 'dry-run' | 'check';

export interface FileResult extends FileReport {
  /** Where in the file the problem is, for skipped files (binary, encoding, minified). */
  line?: number;
  column?: number;
  /** The run wrote this file (in-place mode only). */
  written?: boolean;
  /** The run creates this file. */
  created?: boolean;
}

export interface RunSummary {
  filesScanned: number;
  /** Changed, or would change under --dry-run / --check. */
  filesChanged: number;
  filesWritten: number;
  filesUnchanged: number;
  filesSkipped: number;
  filesErrored: number;
  filesCreated: number;
  sites: Record<SiteOutcome, number>;
  /** The same per control-flow shape the sites sit in (straight, if, loop, try, switch, Promise.all, callback...). */
  byShape: Record<string, Record<SiteOutcome, number>>;
  /** Why the marked and skipped sites were left, per cause, the commonest first. */
  byCause: CauseCount[];
  /** What --check gates on: marked plus skipped sites. */
  sitesLeft: number;
  upgradeNotes: number;
  notes: number;
}

/** The machine-readable report: the pipeline's Report with `files` covering every file the run looked at. */
export interface RunReport extends Omit<Report, 'files'> {
  schemaVersion: 1;
  mode: RunMode;
  files: FileResult[];
  summary: RunSummary;
  exitCode: number;
}

export function summarize(report: Omit<Report, 'files'>, files: readonly FileResult[], scanned: number): RunSummary {
  const count = (pred: (f: FileResult) => boolean) => files.filter(pred).length;
  return {
    filesScanned: scanned,
    filesChanged: count(f => f.outcome === 'changed' && !f.created),
    filesWritten: count(f => f.written === true && !f.created),
    filesUnchanged: count(f => f.outcome === 'unchanged'),
    filesSkipped: count(f => f.outcome === 'skipped'),
    filesErrored: count(f => f.outcome === 'error'),
    filesCreated: count(f => f.created === true),
    sites: countSites({ ...report, files: [] }),
    byShape: countByShape(report),
    byCause: countByCause(report),
    sitesLeft: sitesLeft({ ...report, files: [] }),
    upgradeNotes: report.upgrade.length,
    notes: report.notes.length,
  };
}

export function formatJson(run: RunReport): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** `file:line:col` when the position is known, else `file`; a reason that is already located is kept as is. */
function locatedFileLine(f: FileResult, label: string): string {
  const reason = f.reason ?? '';
  if (reason.startsWith(`${f.file}:`)) {
    const space = reason.indexOf(' ');
    if (space < 0) return `${reason}  ${label}`;
    return `${reason.slice(0, space).replace(/:$/, '')}  ${label}  ${reason.slice(space + 1).trimStart()}`;
  }
  const where = f.line !== undefined ? `${f.file}:${f.line}:${f.column ?? 1}` : f.file;
  return `${where}  ${label}  ${reason || 'no reason given'}`;
}

export interface HumanOptions {
  color: boolean;
  /** Only errors (file errors); no summary, no site list. */
  quiet?: boolean;
}

/** Everything for stderr at the end of a run. Ends with a newline unless empty. */
export function formatHuman(run: RunReport, options: HumanOptions): string {
  const c = createColors(options.color);
  const out: string[] = [];
  const errored = run.files.filter(f => f.outcome === 'error');
  const skipped = run.files.filter(f => f.outcome === 'skipped');

  if (!options.quiet) {
    const marked = run.sites.filter(s => s.outcome === 'marked');
    const skippedSites = run.sites.filter(s => s.outcome === 'skipped');
    for (const [title, list] of [
      ['Marked for manual migration', marked],
      ['Skipped', skippedSites],
    ] as const) {
      if (!list.length) continue;
      out.push(c.bold(`${title}:`));
      for (const s of list) out.push(`${s.file}:${s.line}:${s.column}  ${c.yellow(s.kind)}  ${s.reason}`);
      out.push('');
    }
    if (run.upgrade.length) {
      out.push(c.bold('v1-to-v2 upgrade:'));
      // Errors and warnings one per line; an informational message repeated across files once, with a few of its places.
      const info = groupBy(run.upgrade.filter(u => u.level === 'info'), u => u.message);
      for (const u of run.upgrade) {
        if (u.level === 'info' && info.get(u.message)!.length >= REPEATED) {
          const all = info.get(u.message)!;
          if (all[0] === u) out.push(`${u.message}  ${c.dim('info')}  ${places(all.map(x => `${x.file}:${x.line}`))}`);
          continue;
        }
        const level = u.level === 'error' ? c.red(u.level) : u.level === 'warning' ? c.yellow(u.level) : u.level;
        out.push(`${u.file}:${u.line}  ${level}  ${u.message}`);
      }
      out.push('');
    }
    if (skipped.length) {
      out.push(c.bold('Files skipped:'));
      for (const f of skipped) out.push(locatedFileLine(f, c.dim('skipped')));
      out.push('');
    }
  }
  if (errored.length) {
    out.push(c.bold(c.red('Errors (these files were left as they were):')));
    for (const f of errored) out.push(locatedFileLine(f, c.red('error')));
    out.push('');
  }
  if (options.quiet) return out.length ? `${out.join('\n')}\n` : '';

  const s = run.summary;
  const changedWord = run.mode === 'write' ? 'changed' : 'to change';
  out.push(
    `${c.bold('mcp-migrate')}${run.mode === 'write' ? '' : c.dim(` (${run.mode}, nothing written)`)}: ` +
      `${plural(s.filesScanned, 'file')} scanned, ${s.filesChanged} ${changedWord}, ${s.filesUnchanged} unchanged, ` +
      `${s.filesSkipped} skipped, ${plural(s.filesErrored, 'error')}`,
  );
  out.push(
    `sites: ${c.green(`${s.sites.rewritten} rewritten`)}, ${s.sites.marked ? c.yellow(`${s.sites.marked} marked`) : '0 marked'}, ` +
      `${s.sites.skipped} skipped` + (run.mode === 'check' ? `; ${plural(s.sitesLeft, 'site')} left to migrate` : ''),
  );
  const shapes = Object.entries(countByShape(run));
  if (shapes.length > 1 || (shapes.length === 1 && shapes[0]![0] !== 'straight')) {
    const parts = shapes.map(([shape, n]) => `${shape} ${[n.rewritten && `${n.rewritten} rewritten`, n.marked && `${n.marked} marked`, n.skipped && `${n.skipped} skipped`].filter(Boolean).join('/')}`);
    out.push(`by shape: ${parts.join(', ')}`);
  }
  for (const row of countDeprecated(run)) out.push(c.yellow(`deprecated: ${plural(row.count, `${row.kind} site`)}; ${row.alternative}`));
  if (s.byCause.length) {
    out.push('left, by cause:');
    for (const row of s.byCause) {
      const shapes = Object.entries(row.shapes).map(([shape, n]) => `${shape} ${n}`).join(', ');
      out.push(`  ${String(row.count).padStart(3)} × ${row.cause} ${c.dim(`(${shapes})`)}`);
    }
  }
  if (run.created.length) {
    out.push(`${run.mode === 'write' ? 'created' : 'would create'}: ${run.created.join(', ')}`);
  }
  if (run.notes.length) {
    out.push('notes:');
    // "<file>: <the same words>" for many files (a package.json per package): one line.
    const aboutFile = (n: string) => /^(\S+?): (.+)$/.exec(n);
    const same = groupBy(run.notes.filter(n => aboutFile(n)), n => aboutFile(n)![2]!);
    for (const n of run.notes) {
      const m = aboutFile(n);
      const group = m ? same.get(m[2]!)! : [];
      if (group.length < REPEATED) out.push(`  - ${n}`);
      else if (group[0] === n) out.push(`  - ${m![2]}: ${places(group.map(g => aboutFile(g)![1]!))}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** From this many files with the same message on, the human report says it once. */
const REPEATED = 4;

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function places(list: string[]): string {
  const shown = list.slice(0, 3).join(', ');
  return list.length > 3 ? `${list.length} files (${shown} and ${list.length - 3} more; --json lists each)` : shown;
}
