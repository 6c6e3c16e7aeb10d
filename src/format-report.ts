/**
 * The run report as the user sees it: per-file outcomes and a summary on top of the pipeline's `Report`,
 * printed for people (stderr) or as JSON (stdout, `--json`).
 */
import { createColors } from 'picocolors';
import { formatterCommand, type FormatterTool } from './formatter.js';
import {
  countByCause,
  countByShape,
  countDeprecated,
  countSites,
  sitesLeft,
  type CauseCount,
  type FileReport,
  type Report,
  type SiteOutcome,
  type UpgradeNote,
} from './report.js';
import type { SdkPatch } from './sdkPatches.js';

export type RunMode = 'write' | 'dry-run' | 'check';

/** Exit codes of a migration run (documented in --help, the README and docs/ci.md). */
export const EXIT_OK = 0;
/** `--check` only: something is left to migrate, or would change. */
export const EXIT_LEFT = 1;
/** A usage error, or a fatal one: nothing was written. */
export const EXIT_ERROR = 2;
/** Some files could not be migrated or written (left as they were, and reported); the others were. */
export const EXIT_FAILED = 3;
/** Migrated, but the migrated server throws as it starts until the places listed are migrated by hand. */
export const EXIT_WONT_START = 4;

export interface FileResult extends FileReport {
  /** Where in the file the problem is, for skipped files (binary, encoding, minified). */
  line?: number;
  column?: number;
  /** The run wrote this file (in-place mode only). */
  written?: boolean;
  /** The run creates this file. */
  created?: boolean;
  /** A package.json the run edits (not a source: not counted among the files scanned). */
  manifest?: boolean;
  /**
   * For a skipped file: whether it imports the SDK (names `@modelcontextprotocol/`), so that it stays on
   * SDK 1.x; `unknown` when it could not be read. `--check` counts those that do or may.
   */
  importsSdk?: boolean | 'unknown';
}

/** An `@mcp-codemod-error` marker in a file as the run leaves it: code the official codemod could not migrate. */
export interface CodemodLeftover {
  file: string;
  /** The line of the code the marker is about (the line below the marker). */
  line: number;
  column: number;
  message: string;
  /** The marked code throws as the migrated server starts (src/upgrade/markers.ts failsAtStart). */
  failsAtStart?: boolean;
}

export interface RunSummary {
  /** Source files looked at: changed + unchanged + skipped + errored. */
  filesScanned: number;
  /** Source files changed, or that would change under --dry-run / --check. */
  filesChanged: number;
  filesWritten: number;
  filesUnchanged: number;
  filesSkipped: number;
  filesErrored: number;
  /** package.json files changed (or that would change): counted apart from the sources. */
  manifestsChanged: number;
  filesCreated: number;
  /** Every file the run could not migrate, write or create: sources, package.json and created files. */
  failures: number;
  /** Skipped files that import the SDK (or could not be read to tell): they stay on SDK 1.x. */
  sdkFilesSkipped: number;
  /** `@mcp-codemod-error` markers in the files as the run leaves them. */
  codemodLeftovers: number;
  /** Those of them whose code throws as the migrated server starts: it will not start until they are migrated. */
  startFailures: number;
  /** `// mcp-migrate:` markers an earlier run left that no site of this run stands for (src/run.ts markersLeft). */
  markersLeft: number;
  /** patch-package patches of SDK 1.x that stop applying once the code runs on the 2.x packages (src/sdkPatches.ts). */
  sdkPatches: number;
  sites: Record<SiteOutcome, number>;
  /** The same per control-flow shape the sites sit in (straight, if, loop, try, switch, Promise.all, callback...). */
  byShape: Record<string, Record<SiteOutcome, number>>;
  /** Why the marked and skipped sites were left, per cause, the commonest first. */
  byCause: CauseCount[];
  /** Marked plus skipped sites. */
  sitesLeft: number;
  upgradeNotes: number;
  notes: number;
}

/** The machine-readable report: the pipeline's Report with `files` covering every file the run looked at. */
export interface RunReport extends Omit<Report, 'files'> {
  schemaVersion: 1;
  mode: RunMode;
  files: FileResult[];
  codemodLeftovers: CodemodLeftover[];
  /** The `// mcp-migrate:` markers an earlier run left that no site of this run stands for, where they are. */
  markersLeft?: CodemodLeftover[];
  /** The SDK 1.x patches (patch-package) that no longer apply, paths relative to the run's directory; a note says each. */
  sdkPatches: SdkPatch[];
  /** Told during the run (e.g. the target is not in a git repository, the formatter failed). */
  warnings: string[];
  /** The project's formatter for the files a write run wrote, per project (empty when none is declared, and under --dry-run / --check). */
  formatting: FormattingResult[];
  summary: RunSummary;
  exitCode: number;
}

/** A formatter the project declares (src/formatter.ts), and the files of that project the run wrote. */
export interface FormattingResult {
  tool: FormatterTool;
  /** The project directory it runs from, relative to the run's directory (`.` for it). */
  root: string;
  /** What declares it, relative to `root`: a config file or a package.json entry. */
  declaredBy: string;
  /** The written JavaScript and TypeScript files of the project, relative to the run's directory. */
  files: string[];
  /** The command that formats exactly those files, to paste in the run's directory. */
  command: string;
  /** Whether `--run-formatter` ran it. */
  ran: boolean;
  /** Why it failed, when it ran (not installed, a non-zero exit, the timeout): the migration stays written, unformatted. */
  error?: string;
}

export function summarize(
  report: Omit<Report, 'files'>,
  files: readonly FileResult[],
  leftovers: readonly CodemodLeftover[] = [],
  sdkPatches = 0,
  markersLeft = 0,
): RunSummary {
  const sources = files.filter(f => !f.manifest && !f.created);
  const count = (list: readonly FileResult[], pred: (f: FileResult) => boolean) => list.filter(pred).length;
  return {
    filesScanned: sources.length,
    filesChanged: count(sources, f => f.outcome === 'changed'),
    filesWritten: count(sources, f => f.written === true),
    filesUnchanged: count(sources, f => f.outcome === 'unchanged'),
    filesSkipped: count(sources, f => f.outcome === 'skipped'),
    filesErrored: count(sources, f => f.outcome === 'error'),
    manifestsChanged: count(files, f => f.manifest === true && f.outcome === 'changed'),
    filesCreated: count(files, f => f.created === true && f.outcome === 'changed'),
    failures: count(files, f => f.outcome === 'error'),
    sdkFilesSkipped: count(sources, f => f.outcome === 'skipped' && f.importsSdk !== undefined && f.importsSdk !== false),
    codemodLeftovers: leftovers.length,
    startFailures: leftovers.filter(l => l.failsAtStart).length,
    markersLeft,
    sdkPatches,
    sites: countSites({ ...report, files: [] }),
    byShape: countByShape(report),
    byCause: countByCause(report),
    sitesLeft: sitesLeft({ ...report, files: [] }),
    upgradeNotes: report.upgrade.length,
    notes: report.notes.length,
  };
}

/** What `--check` fails on, one phrase each; empty when nothing is left. */
export function checkFindings(s: RunSummary): string[] {
  return [
    s.sitesLeft && plural(s.sitesLeft, 'site') + ' left to migrate',
    s.codemodLeftovers &&
      plural(s.codemodLeftovers, 'place') +
        ' the official codemod could not migrate' +
        (s.startFailures ? ` (${s.startFailures} where the server throws at start-up)` : ''),
    s.markersLeft && plural(s.markersLeft, 'marker') + ' of an earlier run still in the sources',
    s.sdkPatches &&
      plural(s.sdkPatches, 'patch', 'patches') + ` of @modelcontextprotocol/sdk that no longer ${s.sdkPatches === 1 ? 'applies' : 'apply'}`,
    s.sdkFilesSkipped && plural(s.sdkFilesSkipped, 'skipped file') + ' importing the SDK',
    s.failures && plural(s.failures, 'file') + ' that failed',
    s.filesChanged && plural(s.filesChanged, 'file') + ' to change',
    s.manifestsChanged && plural(s.manifestsChanged, 'package.json', 'package.json files') + ' to change',
    s.filesCreated && plural(s.filesCreated, 'file') + ' to create',
  ].filter((x): x is string => typeof x === 'string');
}

/**
 * The exit code: under --check, 1 when anything is left or would change; otherwise 3 when a file
 * failed (the rest was done), 4 when the migrated server would throw as it starts (done, but not
 * usable: what is left elsewhere only keeps it from serving some clients), else 0.
 */
export function exitCodeOf(mode: RunMode, summary: RunSummary): number {
  if (mode === 'check') return checkFindings(summary).length > 0 ? EXIT_LEFT : EXIT_OK;
  if (summary.failures > 0) return EXIT_FAILED;
  return summary.startFailures > 0 ? EXIT_WONT_START : EXIT_OK;
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

type Colors = ReturnType<typeof createColors>;

/** What is left, file:line:col each: marked and skipped sites, the official codemod's leftovers, its findings, skipped files. */
function leftLines(run: RunReport, c: Colors): string[] {
  const out: string[] = [];
  const section = (title: string, lines: string[]) => {
    if (lines.length) out.push(c.bold(`${title}:`), ...lines, '');
  };
  const siteLine = (s: RunReport['sites'][number]) => `${s.file}:${s.line}:${s.column}  ${c.yellow(s.kind)}  ${s.reason}`;
  section('Marked for manual migration', run.sites.filter(s => s.outcome === 'marked').map(siteLine));
  section('Skipped', run.sites.filter(s => s.outcome === 'skipped').map(siteLine));
  // What the official codemod flags as needing action ranges from code that fails on SDK 2.x to a deprecation it
  // could not rule out (a raw shape schema it cannot see, which SDK 2.x still accepts): each needs a look.
  section(
    'Left by the official v1-to-v2 codemod (each marked in the file: see to it by hand, then delete its marker)',
    run.codemodLeftovers.map(l => `${l.file}:${l.line}:${l.column}  ${c.red('codemod')}  ${l.message}`),
  );
  section(
    'Marked by an earlier run (deal with each, then delete its marker)',
    (run.markersLeft ?? []).map(l => `${l.file}:${l.line}:${l.column}  ${c.yellow('marker')}  ${l.message}`),
  );
  // A finding the leftovers above already show (its marker is in the file) is not said twice.
  const shown = (u: UpgradeNote) =>
    u.level !== 'info' && run.codemodLeftovers.some(l => l.file === u.file && l.message.includes(u.message));
  section(
    'v1-to-v2 upgrade',
    upgradeLines(
      run.upgrade.filter(u => !shown(u)),
      c,
    ),
  );
  section(
    'Files skipped',
    run.files
      .filter(f => f.outcome === 'skipped')
      .map(f => {
        const sdk =
          f.importsSdk === true
            ? '; it imports the SDK and stays on 1.x'
            : f.importsSdk === 'unknown'
              ? '; whether it imports the SDK is unknown'
              : '';
        return locatedFileLine(f, c.dim('skipped')) + sdk;
      }),
  );
  return out;
}

/** Errors and warnings one per line; an informational message repeated across files once, with a few of its places. */
function upgradeLines(upgrade: UpgradeNote[], c: Colors): string[] {
  const out: string[] = [];
  const info = groupBy(
    upgrade.filter(u => u.level === 'info'),
    u => u.message,
  );
  for (const u of upgrade) {
    const all = info.get(u.message);
    if (u.level === 'info' && all!.length >= REPEATED) {
      if (all![0] === u) out.push(`${u.message}  ${c.dim('info')}  ${places(all!.map(x => `${x.file}:${x.line}`))}`);
      continue;
    }
    const level = u.level === 'error' ? c.red(u.level) : u.level === 'warning' ? c.yellow(u.level) : u.level;
    out.push(`${u.file}:${u.line}  ${level}  ${u.message}`);
  }
  return out;
}

/** The counts: files, sites, per shape and per cause. */
function summaryLines(run: RunReport, c: Colors): string[] {
  const s = run.summary;
  const out: string[] = [];
  const changedWord = run.mode === 'write' ? 'changed' : 'to change';
  const manifests = s.manifestsChanged ? `; ${plural(s.manifestsChanged, 'package.json', 'package.json files')} ${changedWord}` : '';
  out.push(
    `${c.bold('mcp-migrate')}${run.mode === 'write' ? '' : c.dim(` (${run.mode}, nothing written)`)}: ` +
      `${plural(s.filesScanned, 'source file')} scanned: ${s.filesChanged} ${changedWord}, ${s.filesUnchanged} unchanged, ` +
      `${s.filesSkipped} skipped, ${s.filesErrored} failed${manifests}`,
  );
  out.push(
    `sites: ${c.green(`${s.sites.rewritten} rewritten`)}, ${s.sites.marked ? c.yellow(`${s.sites.marked} marked`) : '0 marked'}, ` +
      `${s.sites.skipped} skipped` +
      (run.mode === 'check' ? `; ${plural(s.sitesLeft, 'site')} left to migrate` : ''),
  );
  const shapes = Object.entries(countByShape(run));
  if (shapes.length > 1 || (shapes.length === 1 && shapes[0]![0] !== 'straight')) {
    const parts = shapes.map(
      ([shape, n]) =>
        `${shape} ${[n.rewritten && `${n.rewritten} rewritten`, n.marked && `${n.marked} marked`, n.skipped && `${n.skipped} skipped`].filter(Boolean).join('/')}`,
    );
    out.push(`by shape: ${parts.join(', ')}`);
  }
  for (const row of countDeprecated(run)) out.push(c.yellow(`deprecated: ${plural(row.count, `${row.kind} site`)}; ${row.alternative}`));
  if (s.byCause.length) {
    out.push('left, by cause:');
    for (const row of s.byCause) {
      const shapes = Object.entries(row.shapes)
        .map(([shape, n]) => `${shape} ${n}`)
        .join(', ');
      out.push(`  ${String(row.count).padStart(3)} × ${row.cause} ${c.dim(`(${shapes})`)}`);
    }
  }
  return out;
}

/** The notes; "<file>: <the same words>" for many files (a package.json per package) on one line. */
function noteLines(notes: string[]): string[] {
  if (!notes.length) return [];
  const out = ['notes:'];
  const aboutFile = (n: string) => /^(\S+?): (.+)$/.exec(n);
  const same = groupBy(
    notes.filter(n => aboutFile(n)),
    n => aboutFile(n)![2]!,
  );
  for (const n of notes) {
    const m = aboutFile(n);
    const group = m ? same.get(m[2]!)! : [];
    if (group.length < REPEATED) out.push(`  - ${n}`);
    else if (group[0] === n) out.push(`  - ${m![2]}: ${places(group.map(g => aboutFile(g)![1]!))}`);
  }
  return out;
}

/** The last line: under --check the verdict, otherwise what failed. */
function verdictLines(run: RunReport, c: Colors): string[] {
  const s = run.summary;
  if (run.mode === 'check') {
    const left = checkFindings(s);
    return [left.length ? c.red(`check failed: ${left.join(', ')}`) : c.green('check passed: nothing left to migrate')];
  }
  const out: string[] = [];
  if (s.failures)
    out.push(
      c.red(
        `${plural(s.failures, 'file')} failed and ${s.failures === 1 ? 'was' : 'were'} left as ${s.failures === 1 ? 'it was' : 'they were'} (exit code ${EXIT_FAILED})`,
      ),
    );
  const done = run.mode === 'write' ? 'migrated' : 'once migrated';
  if (s.startFailures)
    out.push(
      c.red(
        `${done}, the server throws at start-up until ${s.startFailures === 1 ? 'the place' : `the ${s.startFailures} places`} marked so above ${s.startFailures === 1 ? 'is' : 'are'} migrated by hand${s.failures ? '' : ` (exit code ${EXIT_WONT_START})`}`,
      ),
    );
  return out;
}

/** Everything for stderr at the end of a run. Ends with a newline unless empty. */
export function formatHuman(run: RunReport, options: HumanOptions): string {
  const c = createColors(options.color);
  const out: string[] = options.quiet ? [] : leftLines(run, c);
  const errored = run.files.filter(f => f.outcome === 'error');
  if (errored.length)
    out.push(c.bold(c.red('Errors (these files were left as they were):')), ...errored.map(f => locatedFileLine(f, c.red('error'))), '');
  if (options.quiet) return out.length ? `${out.join('\n')}\n` : '';
  out.push(...summaryLines(run, c));
  if (run.created.length) out.push(`${run.mode === 'write' ? 'created' : 'would create'}: ${run.created.join(', ')}`);
  out.push(...formattingLines(run, c));
  out.push(...noteLines(run.notes), ...verdictLines(run, c));
  return `${out.join('\n')}\n`;
}

/** One line per project formatter: what it did, or the command to run. */
function formattingLines(run: RunReport, c: Colors): string[] {
  return run.formatting.map(f => {
    if (!f.ran) return `formatted with ${f.tool}? run: ${shownCommand(f)}`;
    if (f.error) return c.yellow(`not formatted: ${f.error}; the migration is written; run: ${shownCommand(f)}`);
    return `formatted with ${f.tool}: ${plural(f.files.length, 'file')}`;
  });
}

/** The command on one readable line: a long list of files shortened (the JSON report has it whole). */
function shownCommand(f: FormattingResult): string {
  if (f.command.length <= SHOWN_COMMAND || f.files.length <= 3) return f.command;
  // Both paths are relative to the run's directory: the relative path between them is the same from anywhere.
  const head = formatterCommand({ tool: f.tool, root: f.root }, f.files.slice(0, 3), '.');
  return `${head} … (${f.files.length - 3} more files; --json has the whole command)`;
}

/** A formatter command longer than this shows its first files only. */
const SHOWN_COMMAND = 160;

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

/** A few of many places (`file` or `file:line`), and how many there are: "5 locations in 2 files (a.ts:1, ...)". */
export function places(list: string[]): string {
  const shown = list.slice(0, 3).join(', ');
  if (list.length <= 3) return shown;
  const files = new Set(list.map(p => p.replace(/:\d+(?::\d+)?$/, ''))).size;
  const what = files === list.length ? plural(files, 'file') : `${plural(list.length, 'location')} in ${plural(files, 'file')}`;
  return `${what} (${shown} and ${list.length - 3} more; --json lists each)`;
}
