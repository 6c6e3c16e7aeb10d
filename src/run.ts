/**
 * One command-line run, start to end: discover → guard → read → migrate (pipeline) → write or diff → report.
 * No argument parsing and no printing of the final report here (that is the CLI's part); this returns what
 * happened. Per-file problems never stop the run: the file is left byte-identical and reported.
 */
import fsSync, { promises as fs } from 'node:fs';
import path from 'node:path';
import { discoverSources, selectShard, type Discovery, type Shard } from './files.js';
import { findDirtyFiles, formatDirtyRefusal, outsideGit } from './git.js';
import { owningManifest } from './owningManifest.js';
import {
  digestBytes,
  fileContains,
  finalizeText,
  keepShebang,
  readSource,
  readSourceIfWanted,
  removeStaleTemporaryFiles,
  removeTemporaryFiles,
  writeAtomic,
  type DecodedSource,
} from './io.js';
import type { SourceInput } from './pipeline.js';
import { movedNote, positionMapper, type Position } from './positions.js';
import { emptyReport, type FileReport, type Report } from './report.js';
// (the names only: stateModule.ts loads the compiler)
import { isStateModuleFile } from './stateModuleNames.js';
// markers.ts imports types only: loading it loads nothing of the official codemod.
import { CODEMOD_MARKER, failsAtStart } from './upgrade/markers.js';
import {
  HELPER_IMPORT_DEPTH,
  helperCallers,
  importedHelpers,
  isCandidate,
  importsAmong,
  requestAliasHolders,
  REGISTRATION_CALL,
  TRIGGER_PATTERN,
  worthAnalysing,
  ZOD_IMPORT,
} from './triggers.js';
import { createProgress, type Progress, type ProgressStream } from './progress.js';
import { findSdkPatches, runsOnV2Packages, sdkPatchNote, type SdkPatch } from './sdkPatches.js';
import {
  exitCodeOf,
  summarize,
  type CodemodLeftover,
  type FileResult,
  type FormattingResult,
  type RunMode,
  type RunReport,
} from './format-report.js';
import { formattableFiles, formatterCommand, formattersFor, runFormatter } from './formatter.js';
import { byCodePoint } from './values.js';

export interface RunOptions {
  paths: readonly string[];
  cwd: string;
  mode: RunMode;
  include?: readonly string[];
  exclude?: readonly string[];
  /** Skip the git guard. */
  force?: boolean;
  /** Run the official v1-to-v2 codemod first (default true). */
  upgradeV1?: boolean;
  /** Where a progress bar may go (a TTY only). */
  progressStream?: ProgressStream;
  quiet?: boolean;
  /** Only this part of the discovered files (`--shard i/n`, by a stable hash of the path relative to cwd). */
  shard?: Shard;
  /** Threads for the analysis (default: src/parallel.ts defaultThreads); 1 keeps it in this thread. */
  threads?: number;
  /** Run the project's formatter on the files written (`--run-formatter`); without it the report names its command. */
  runFormatter?: boolean;
  /** Told at once, before the run's work, what the user should know (also kept in the report's `warnings`). */
  warn?: (message: string) => void;
  /**
   * SIGINT or SIGTERM while files are being written: the temporary files are already removed; this says
   * what was written and ends the process. Without it the process ends by the signal.
   */
  onInterrupt?: (signal: NodeJS.Signals, progress: { written: string[]; left: string[] }) => void;
}

/** A change as it will be (or was) applied: text already finalized for its file. */
export interface AppliedChange {
  /** Absolute path. */
  path: string;
  before: string | null;
  after: string;
}

export interface RunResult {
  report: RunReport;
  /** The effective changes, sorted by path (created files included), for the diff. */
  changes: AppliedChange[];
}

/** The run cannot start (bad path, dirty tree): exit 2, nothing touched. */
export class RunRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunRefused';
  }
}

/** What a run knows about its files as it goes. */
interface RunState {
  cwd: string;
  /** Path relative to the cwd, with forward slashes. */
  rel: (abs: string) => string;
  discovery: Discovery;
  /** Decoded sources, by absolute path (package.json files the pipeline edits join them). */
  sources: Map<string, DecodedSource>;
  /** Files the pre-filter found nothing in: not decoded. */
  unwanted: Set<string>;
  /** Per-file outcomes decided so far, by absolute path. */
  results: Map<string, FileResult>;
}

/**
 * A file no migration needs, unless it holds a marker of the official codemod (a leftover to report) or imports
 * zod (the upgrade moves a server's package to zod 4, and repairs the zod 3 calls of its files).
 */
const wanted = (text: string) =>
  isCandidate(text) || text.includes(CODEMOD_MARKER) || ZOD_IMPORT.test(text) || REGISTRATION_CALL.test(text);

function relativeTo(cwd: string): (abs: string) => string {
  // Every file gets a report line: slicing the common prefix off is most of the cost of 10,000 of them.
  const prefix = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  return abs => {
    const r = abs.startsWith(prefix) ? abs.slice(prefix.length) : path.relative(cwd, abs) || '.';
    return path.sep === '/' ? r : r.split(path.sep).join('/');
  };
}

async function skip(run: RunState, file: string, r: { reason: string; location?: { line: number; column: number } }): Promise<void> {
  const mentions = fileContains(file, '@modelcontextprotocol/');
  run.results.set(file, {
    file: run.rel(file),
    outcome: 'skipped',
    reason: r.reason,
    line: r.location?.line,
    column: r.location?.column,
    importsSdk: mentions ?? 'unknown',
  });
}

/**
 * A helper file a candidate imports may name no trigger and import no SDK (a helper handed
 * `extra.sendRequest`, or one that only calls another helper): the pre-filter left it undecoded. Decode
 * those the candidates reach by relative imports (only those, a few hops deep) so the analysis sees them.
 */
async function decodeImportedHelpers(run: RunState, seeds: SourceInput[], inputs: SourceInput[]): Promise<void> {
  const all = new Map<string, { path: string; text?: string }>(
    run.discovery.files.map(p => [p, { path: p, text: run.sources.get(p)?.text }]),
  );
  const from = seeds.map(s => all.get(s.path) ?? { path: s.path, text: s.text });
  for (let round = 0; round <= HELPER_IMPORT_DEPTH; round++) {
    const missing: string[] = [];
    importedHelpers(from, [...all.values()], f => {
      if (f.text === undefined && run.unwanted.has(f.path)) missing.push(f.path);
      return f.text;
    });
    if (missing.length === 0) return;
    for (const p of missing) {
      run.unwanted.delete(p);
      const r = await readSource(p);
      if (!r.ok) {
        await skip(run, p, r);
        continue;
      }
      run.sources.set(p, r);
      inputs.push({ path: p, text: r.text });
      all.get(p)!.text = r.text;
    }
  }
}

/**
 * What the whole tree has worth analysing, this shard's inputs with the other shards' files: the
 * requestState module's place is chosen from them, so that every shard of a run picks the same one.
 * The other shards' files are only read through the pre-filter, never analysed.
 */
async function candidatesOfOtherShards(
  wholeTree: readonly string[],
  mine: ReadonlySet<string>,
  inputs: SourceInput[],
): Promise<SourceInput[]> {
  const all = [...inputs];
  for (const file of wholeTree) {
    if (mine.has(file)) continue;
    const r = await readSourceIfWanted(file, isCandidate);
    if (r.ok && !('unwanted' in r)) all.push({ path: file, text: r.text });
  }
  return worthAnalysing(all);
}

/**
 * Refuse an in-place run over uncommitted changes to files it may write, before anything is read or
 * analysed: under the given paths, the sources it reads, package.json files and requestState modules;
 * above them, the package.json that owns them (the package.json edit goes there). Other files (a report
 * redirected into the tree, notes, build output) are not its business.
 */
async function guardTree(discovery: Discovery, options: RunOptions, cwd: string): Promise<void> {
  if (options.force) return;
  const above = manifestsAbove(discovery.roots, cwd);
  const dirty = await findDirtyFiles([...discovery.roots, ...above]).catch((err: Error) => {
    throw new RunRefused(`${err.message}\n(pass --force to skip the git check)`);
  });
  if (dirty.length === 0) return;
  // git names files by their real paths; discovery by the paths it was given.
  const sources = new Set(discovery.files.map(realPath));
  const manifests = new Set(above.map(realPath));
  const mayWrite = (file: string) =>
    sources.has(realPath(file)) || manifests.has(realPath(file)) || path.basename(file) === 'package.json' || isStateModuleFile(file);
  const relevant = dirty.filter(d => mayWrite(d.path));
  if (relevant.length) throw new RunRefused(formatDirtyRefusal(relevant, options.cwd));
}

/**
 * The package.json files above the given paths (not above the run's directory) that own their files: the
 * nearest one at or above each path. A file under a path is owned by a package.json under that path, which
 * the paths' own check covers, or by this one.
 */
function manifestsAbove(roots: readonly string[], cwd: string): string[] {
  const above = new Set<string>();
  for (const root of roots) {
    const isDirectory = fsSync.statSync(root, { throwIfNoEntry: false })?.isDirectory() ?? false;
    // For a directory, a file directly in it: its own package.json counts, being under the path, anyway.
    const manifest = owningManifest(isDirectory ? path.join(root, 'package.json') : root, cwd, p => fsSync.existsSync(p));
    if (manifest && !roots.some(r => manifest === r || manifest.startsWith(r + path.sep))) above.add(manifest);
  }
  return [...above];
}

function realPath(file: string): string {
  try {
    return fsSync.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * A module exporting a request method under another name (`export const ask =
 * server.server.elicitInput.bind(server.server)`): the files calling `ask(...)` may name no trigger and
 * import no SDK, so the pre-filter left them undecoded. Decode those that import such a module, so the
 * analysis finds their calls (rare: only read again when some input reads a request method as a value).
 */
async function decodeAliasImporters(run: RunState, inputs: SourceInput[]): Promise<void> {
  const holders = requestAliasHolders(inputs);
  if (holders.size === 0) return;
  for (const p of [...run.unwanted]) {
    const r = await readSource(p);
    if (!r.ok || importsAmong({ path: p, text: r.text }, holders).length === 0) continue;
    run.unwanted.delete(p);
    run.sources.set(p, r);
    inputs.push({ path: p, text: r.text });
  }
}

/**
 * Handlers calling a helper of another module may sit in a file that names no trigger and imports no SDK
 * (`import { server } from './server.js'`, `asker.askName()`): the pre-filter left it undecoded. Decode
 * the files that import a request-making input (helperCallers), so the helper's callers are seen.
 */
async function decodeHelperCallers(run: RunState, inputs: SourceInput[]): Promise<void> {
  const makers = new Set(inputs.filter(f => TRIGGER_PATTERN.test(f.text)).map(f => f.path));
  if (makers.size === 0) return;
  const read = new Map<string, DecodedSource>();
  const others: SourceInput[] = [];
  for (const p of run.unwanted) {
    const r = await readSource(p);
    if (!r.ok) continue;
    read.set(p, r);
    others.push({ path: p, text: r.text });
  }
  for (const p of helperCallers([...inputs, ...others], makers)) {
    const r = read.get(p);
    if (!r) continue;
    run.unwanted.delete(p);
    run.sources.set(p, r);
    inputs.push({ path: p, text: r.text });
  }
}

/** What a run killed while writing (SIGKILL, a crash) left beside the files this one may write: removed, and said. */
function removeStaleTemporaries(run: RunState, options: RunOptions, warnings: string[]): void {
  const { files, roots } = run.discovery;
  const dirs = [...files, ...manifestsAbove(roots, run.cwd)].map(f => path.dirname(f));
  for (const root of roots) dirs.push(fsSync.statSync(root, { throwIfNoEntry: false })?.isDirectory() ? root : path.dirname(root));
  const removed = removeStaleTemporaryFiles(dirs);
  if (removed.length === 0) return;
  const message = `removed ${removed.length} temporary file${removed.length === 1 ? '' : 's'} left by an interrupted run (killed while writing): ${removed.map(run.rel).join(', ')}`;
  warnings.push(message);
  options.warn?.(message);
}

async function warnOutsideGit(run: RunState, options: RunOptions, warnings: string[]): Promise<void> {
  const outside = await outsideGit(run.discovery.roots);
  if (outside.length === 0) return;
  const message = `${outside.map(run.rel).join(', ')}: not in a git repository, so the changes cannot be reviewed with git diff or undone with git checkout; preview them with --dry-run, or keep a copy`;
  warnings.push(message);
  options.warn?.(message);
}

async function readAll(run: RunState, progress: Progress): Promise<void> {
  for (const file of run.discovery.files) {
    const r = await readSourceIfWanted(file, wanted);
    if (!r.ok) await skip(run, file, r);
    else if ('unwanted' in r) run.unwanted.add(file);
    else run.sources.set(file, r);
    progress.tick(1, file);
  }
}

async function migrate(
  run: RunState,
  wholeTree: readonly string[],
  options: RunOptions,
): Promise<{ changes: { path: string; before: string | null; after: string }[]; report: Report }> {
  const inputs: SourceInput[] = [];
  const inert = new Set(run.unwanted);
  for (const [p, s] of run.sources) {
    // A zod user is no candidate, but the upgrade may repair it (src/pipeline.ts finishRun).
    // A file registering on a server of another module is one if it imports an MCP file (worthAnalysing).
    if (isCandidate(s.text) || ZOD_IMPORT.test(s.text) || REGISTRATION_CALL.test(s.text)) inputs.push({ path: p, text: s.text });
    else inert.add(p);
  }
  const seeds = worthAnalysing(inputs);
  if (seeds.length === 0) return { changes: [], report: emptyReport() };
  if (run.unwanted.size > 0) await decodeImportedHelpers(run, seeds, inputs);
  if (run.unwanted.size > 0) await decodeAliasImporters(run, inputs);
  if (run.unwanted.size > 0) await decodeHelperCallers(run, inputs);
  const stateModuleCandidates = options.shard ? await candidatesOfOtherShards(wholeTree, new Set(run.discovery.files), inputs) : undefined;
  // The pipeline (parser, type checker, official codemod) loads only when some file needs analysing.
  const { migrateInThreads } = await import('./parallel.js');
  return migrateInThreads(
    inputs,
    { cwd: run.cwd, upgradeV1: options.upgradeV1 ?? true, inertSources: inert, stateModuleCandidates },
    options.threads,
  );
}

/** The changes that take effect, as they will be written; a change that cannot is reported as an error. */
async function decideChanges(
  run: RunState,
  changes: { path: string; before: string | null; after: string }[],
  pipelineFiles: Map<string, FileReport>,
) {
  const fail = (abs: string, reason: string) => run.results.set(abs, { file: run.rel(abs), outcome: 'error', reason });
  const edits: AppliedChange[] = [];
  const creations: AppliedChange[] = [];
  for (const change of changes) {
    const abs = path.resolve(run.cwd, change.path);
    if (change.before === null) {
      if (run.sources.has(abs) || run.discovery.files.includes(abs))
        fail(abs, 'the migration tried to create a file that already exists; left as it was');
      else creations.push({ path: abs, before: null, after: change.after });
      continue;
    }
    let source = run.sources.get(abs);
    if (!source && path.basename(abs) === 'package.json') {
      // The pipeline's package.json edit (src/manifest.ts): read it like a source so the same checks and atomic write apply.
      const r = await readSource(abs);
      if (r.ok) run.sources.set(abs, (source = r));
    }
    if (!source) {
      // Not one of our inputs: never touch it.
      if (!run.results.has(abs)) fail(abs, 'the migration returned a change for a file it was not given; left as it was');
      continue;
    }
    if (pipelineFiles.get(abs)?.outcome === 'error') continue;
    if (change.before !== source.text) {
      fail(abs, 'the migration returned a change based on different text; left as it was');
      continue;
    }
    const after = finalizeText(keepShebang(source.text, change.after), source.meta);
    if (after !== source.text) edits.push({ path: abs, before: source.text, after });
  }
  return { edits, creations };
}

/**
 * The dirty-tree guard again, once the changes are known, for what the run writes outside the given paths: guardTree
 * checked the package.json above them before the analysis; this catches anything else, and a file changed since.
 */
async function guardWriteTargets(run: RunState, targets: readonly string[], options: RunOptions): Promise<void> {
  if (options.force) return;
  const outside = targets.filter(t => !run.discovery.roots.some(root => t === root || t.startsWith(root + path.sep)));
  if (outside.length === 0) return;
  const dirty = await findDirtyFiles(outside).catch((err: Error) => {
    throw new RunRefused(`${err.message}\n(pass --force to skip the git check)`);
  });
  if (dirty.length) throw new RunRefused(formatDirtyRefusal(dirty, run.cwd));
}

/**
 * Write the creations first (the edits import them), then the edits, each atomically. On SIGINT or
 * SIGTERM the temporary files are removed; what was written stays written, and a second run completes
 * the rest (it finds those files migrated, and checks package.json and the requestState module anyway).
 */
async function writeChanges(
  run: RunState,
  edits: AppliedChange[],
  creations: AppliedChange[],
  progress: Progress,
  options: RunOptions,
): Promise<Set<string>> {
  const written = new Set<string>();
  const fail = (abs: string, reason: string) => run.results.set(abs, { file: run.rel(abs), outcome: 'error', reason });
  const all = [...creations, ...edits];
  const interrupted = (signal: NodeJS.Signals) => {
    removeTemporaryFiles();
    progress.done();
    const left = all.map(c => c.path).filter(p => !written.has(p));
    if (options.onInterrupt) options.onInterrupt(signal, { written: [...written].map(run.rel), left: left.map(run.rel) });
    else process.kill(process.pid, signal);
  };
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const handlers = signals.map(signal => {
    const handler = () => {
      for (const [s, h] of handlers) process.off(s, h);
      interrupted(signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  try {
    progress.phase('writing', all.length);
    let creationFailed: string | undefined;
    for (const c of creations) {
      try {
        await writeAtomic(c.path, c.after, null);
        written.add(c.path);
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        fail(c.path, e.code === 'EEXIST' ? 'not created: a file already exists there' : `not created (${e.code ?? e.message})`);
        creationFailed ??= run.rel(c.path);
      }
      progress.tick(1, run.rel(c.path));
    }
    for (const e of edits) {
      const source = run.sources.get(e.path)!;
      if (creationFailed) {
        fail(e.path, `not written: creating ${creationFailed}, which it would depend on, failed`);
        continue;
      }
      try {
        if (digestBytes(await fs.readFile(e.path)) !== source.digest) {
          fail(e.path, 'changed on disk during the run; left as it was');
          continue;
        }
        await writeAtomic(e.path, e.after, source.meta);
        written.add(e.path);
      } catch (err) {
        const x = err as NodeJS.ErrnoException;
        fail(e.path, `could not be written (${x.code ?? x.message}); left as it was`);
      }
      progress.tick(1, run.rel(e.path));
    }
  } finally {
    for (const [s, h] of handlers) process.off(s, h);
  }
  return written;
}

/** Per-file outcomes: every file looked at, once. */
function fileResults(
  run: RunState,
  pipelineFiles: Map<string, FileReport>,
  edits: AppliedChange[],
  creations: AppliedChange[],
  written: Set<string>,
): FileResult[] {
  const { results, rel } = run;
  for (const file of run.unwanted) results.set(file, { file: rel(file), outcome: 'unchanged' });
  for (const file of run.sources.keys()) {
    if (results.has(file)) continue;
    const fromPipeline = pipelineFiles.get(file);
    const failed = fromPipeline && (fromPipeline.outcome === 'error' || fromPipeline.outcome === 'skipped');
    results.set(file, failed ? { ...fromPipeline, file: rel(file) } : { file: rel(file), outcome: 'unchanged' });
  }
  for (const e of edits) {
    if (results.get(e.path)?.outcome === 'error') continue;
    const base = pipelineFiles.get(e.path);
    const manifest = path.basename(e.path) === 'package.json' && !run.discovery.files.includes(e.path);
    results.set(e.path, {
      ...(base?.reason ? { reason: base.reason } : {}),
      file: rel(e.path),
      outcome: 'changed',
      written: written.has(e.path),
      ...(manifest ? { manifest } : {}),
    });
  }
  for (const c of creations) {
    if (results.get(c.path)?.outcome === 'error') results.set(c.path, { ...results.get(c.path)!, created: true });
    else results.set(c.path, { file: rel(c.path), outcome: 'changed', created: true, written: written.has(c.path) });
  }
  for (const s of run.discovery.skipped) {
    if (!results.has(s.path)) results.set(s.path, { file: rel(s.path), outcome: 'skipped', reason: s.reason });
  }
  // Anything the pipeline reported about files we did not list (should not happen) is kept, not lost.
  for (const [abs, f] of pipelineFiles) if (!results.has(abs)) results.set(abs, { ...f, file: rel(abs) });
  return [...results.values()].sort((a, b) => byCodePoint(a.file, b.file));
}

const MARKER = new RegExp(`/\\*\\s*${CODEMOD_MARKER}\\s*([\\s\\S]*?)\\s*\\*/`, 'g');

/** The official codemod's markers in the sources as the run leaves them (or would leave them). */
function codemodLeftovers(run: RunState, edits: AppliedChange[], creations: AppliedChange[]): CodemodLeftover[] {
  const after = new Map<string, string>([...run.sources].map(([p, s]) => [p, s.text]));
  for (const c of [...edits, ...creations]) if (run.results.get(c.path)?.outcome !== 'error') after.set(c.path, c.after);
  const leftovers: CodemodLeftover[] = [];
  for (const [file, text] of after) {
    if (!text.includes(CODEMOD_MARKER) || path.basename(file) === 'package.json') continue;
    for (const m of text.matchAll(MARKER)) {
      const end = m.index + m[0].length;
      const line = text.slice(0, end).split('\n').length;
      // The marker sits on the line above the code it is about.
      const next = text.indexOf('\n', end);
      const below = next >= 0 && /^\s*$/.test(text.slice(end, next));
      const codeLine = below ? text.slice(next + 1).split('\n', 1)[0]! : '';
      const message = m[1]!.replace(/\s+/g, ' ');
      leftovers.push({
        file: run.rel(file),
        line: below ? line + 1 : line,
        column: below ? codeLine.length - codeLine.trimStart().length + 1 : 1,
        message,
        ...(failsAtStart(message) ? { failsAtStart: true } : {}),
      });
    }
  }
  return leftovers.sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line);
}

/** A marker of this tool: `// mcp-migrate: <what happened and what to do>` (src/analysis/recorder.ts addMarker). */
const OWN_MARKER = /^([ \t]*)\/\/ mcp-migrate: (.*)$/gm;

/**
 * The markers in the sources as the run leaves them that none of this run's marked sites stands for: left by an
 * earlier run at a site that run migrated in part (a helper's request asked for its handler, marked where a
 * notification handler also calls it). Until the user deals with it and deletes it, something is left.
 */
function markersLeft(
  run: RunState,
  edits: AppliedChange[],
  sites: readonly { file: string; outcome: string; reason: string }[],
): CodemodLeftover[] {
  const after = new Map<string, string>([...run.sources].map(([p, s]) => [p, s.text]));
  for (const c of edits) if (run.results.get(c.path)?.outcome !== 'error') after.set(c.path, c.after);
  const left: CodemodLeftover[] = [];
  for (const [file, text] of after) {
    if (!text.includes('mcp-migrate:') || path.basename(file) === 'package.json') continue;
    const rel = run.rel(file);
    const reasons = new Set(
      sites.filter(s => s.outcome !== 'rewritten' && run.rel(path.resolve(run.cwd, s.file)) === rel).map(s => s.reason),
    );
    for (const m of text.matchAll(OWN_MARKER)) {
      if (reasons.has(m[2]!)) continue;
      // The marker sits on the line above the code it is about.
      left.push({ file: rel, line: text.slice(0, m.index).split('\n').length + 1, column: m[1]!.length + 1, message: m[2]! });
    }
  }
  return left.sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line);
}

/**
 * The report's positions in the files as the run leaves them on disk. The pipeline gives them in the
 * files as read: a file the run wrote gets them carried into its new text (a marked site is then on
 * the line below its marker, a rewritten request at the `inputRequests` entry it became). The official codemod's leftovers are found in the text as written, or as
 * it would be: in a file the run did not write they are carried back to the line of the file as it is.
 */
function inFilesAsLeft<R extends Pick<Report, 'sites' | 'upgrade' | 'notes'>>(
  run: RunState,
  report: R,
  leftovers: CodemodLeftover[],
  edits: AppliedChange[],
  written: ReadonlySet<string>,
): { report: R; leftovers: CodemodLeftover[] } {
  const forward = new Map<string, (p: Position) => Position>();
  const back = new Map<string, (p: Position) => Position>();
  for (const e of edits) {
    if (run.results.get(e.path)?.outcome === 'error' || e.before === null) continue;
    if (written.has(e.path))
      forward.set(
        run.rel(e.path),
        lazily(() => positionMapper(e.after, e.before!)),
      );
    else
      back.set(
        run.rel(e.path),
        lazily(() => positionMapper(e.before!, e.after)),
      );
  }
  const key = (file: string) => run.rel(path.resolve(run.cwd, file));
  const moved = <T extends { file: string; line: number; column?: number }>(x: T, maps: Map<string, (p: Position) => Position>): T => {
    const map = maps.get(key(x.file));
    if (!map) return x;
    const p = map({ line: x.line - 1, character: (x.column ?? 1) - 1 });
    return { ...x, line: p.line + 1, ...(x.column !== undefined ? { column: p.character + 1 } : {}) };
  };
  return {
    report: {
      ...report,
      sites: report.sites.map(({ rewrittenAt, ...s }) => {
        if (!forward.has(key(s.file))) return s;
        const readAt = { line: s.line, column: s.column };
        return { ...(rewrittenAt ? { ...s, ...rewrittenAt } : moved(s, forward)), readAt };
      }),
      upgrade: report.upgrade.map(u => moved(u, forward)),
      notes: report.notes.map(n => movedNote(n, file => forward.get(key(file)))),
    },
    leftovers: leftovers.map(l => moved(l, back)),
  };
}

/**
 * The project's formatter on the sources the run wrote, per project: run under `--run-formatter`, else
 * only named with its command. A formatter that fails is a warning: what the run wrote stays written.
 */
async function formatWritten(
  run: RunState,
  written: ReadonlySet<string>,
  options: RunOptions,
  warnings: string[],
): Promise<FormattingResult[]> {
  const warn = (message: string) => {
    warnings.push(message);
    options.warn?.(message);
  };
  const out: FormattingResult[] = [];
  for (const { formatter, files } of formattersFor([...written])) {
    const command = formatterCommand(formatter, files, run.cwd);
    const result: FormattingResult = {
      tool: formatter.tool,
      root: run.rel(formatter.root),
      declaredBy: formatter.declaredBy,
      files: files.map(run.rel),
      command,
      ran: false,
    };
    if (options.runFormatter) {
      const error = await runFormatter(formatter, files);
      result.ran = true;
      if (error) warn(`${(result.error = error)}; the migrated files are written, not formatted; run: ${command}`);
    }
    out.push(result);
  }
  if (options.runFormatter && out.length === 0 && formattableFiles([...written]).length > 0) {
    warn(
      '--run-formatter: no formatter is declared for the files written (a prettier, biome or dprint config file or dependency next to their package.json); nothing was run',
    );
  }
  return out;
}

/**
 * The patch-package patches of SDK 1.x (src/sdkPatches.ts) that stop applying once the run leaves the code on the
 * 2.x packages: the sources as the run leaves them (or would) import one.
 */
function sdkPatchesLeft(run: RunState, edits: readonly AppliedChange[]): SdkPatch[] {
  const after = new Map([...run.sources].map(([p, s]) => [p, s.text]));
  for (const e of edits) if (run.results.get(e.path)?.outcome !== 'error') after.set(e.path, e.after);
  if (!runsOnV2Packages(after.values())) return [];
  return findSdkPatches(
    run.discovery.roots,
    edits.filter(e => path.basename(e.path) === 'package.json').map(e => e.path),
  );
}

/** `make()`, made on the first call only. */
function lazily<A, B>(make: () => (a: A) => B): (a: A) => B {
  let made: ((a: A) => B) | undefined;
  return a => (made ??= make())(a);
}

export async function runMigration(options: RunOptions): Promise<RunResult> {
  const cwd = path.resolve(options.cwd);
  let discovery: Discovery;
  try {
    discovery = await discoverSources(options.paths, { cwd, include: options.include, exclude: options.exclude });
  } catch (err) {
    throw new RunRefused((err as Error).message);
  }
  const wholeTree = discovery.files;
  if (options.shard) discovery = selectShard(discovery, options.shard, cwd);
  const run: RunState = { cwd, rel: relativeTo(cwd), discovery, sources: new Map(), unwanted: new Set(), results: new Map() };
  const warnings: string[] = [];
  if (options.mode === 'write') {
    await guardTree(discovery, options, cwd);
    removeStaleTemporaries(run, options, warnings);
    await warnOutsideGit(run, options, warnings);
  }

  const progress = createProgress('reading', discovery.files.length, {
    stream: options.progressStream ?? { isTTY: false, write: () => true },
    disabled: options.quiet,
  });
  await readAll(run, progress);
  progress.phase('migrating', run.sources.size);
  const { changes, report } = await migrate(run, wholeTree, options);
  progress.tick(run.sources.size);

  const pipelineFiles = new Map<string, FileReport>(report.files.map(f => [path.resolve(cwd, f.file), f]));
  const { edits, creations } = await decideChanges(run, changes, pipelineFiles);
  let written = new Set<string>();
  if (options.mode === 'write' && (edits.length || creations.length)) {
    await guardWriteTargets(
      run,
      [...edits, ...creations].map(c => c.path),
      options,
    );
    written = await writeChanges(run, edits, creations, progress, options);
  }
  progress.done();
  const formatting = options.mode === 'write' ? await formatWritten(run, written, options, warnings) : [];

  const files = fileResults(run, pipelineFiles, edits, creations, written);
  const { files: _ignored, ...pipelineRest } = report;
  void _ignored;
  const codemod = codemodLeftovers(run, edits, creations);
  const located = inFilesAsLeft(run, pipelineRest, [...codemod, ...markersLeft(run, edits, pipelineRest.sites)], edits, written);
  const leftovers = located.leftovers.slice(0, codemod.length);
  const earlierMarkers = located.leftovers.slice(codemod.length);
  const rest = { ...located.report, created: pipelineRest.created.filter(c => run.results.get(path.resolve(cwd, c))?.outcome !== 'error') };
  const patches = sdkPatchesLeft(run, edits);
  rest.notes.push(...patches.map(p => sdkPatchNote(p, run.rel)));
  const summary = summarize(rest, files, leftovers, patches.length, earlierMarkers.length);
  const sdkPatches = patches.map(p => ({ ...p, file: run.rel(p.file) }));
  const runReport: RunReport = {
    schemaVersion: 1,
    mode: options.mode,
    ...rest,
    files,
    codemodLeftovers: leftovers,
    markersLeft: earlierMarkers,
    sdkPatches,
    warnings,
    summary,
    formatting,
    exitCode: exitCodeOf(options.mode, summary),
  };
  const ok = (c: AppliedChange) => run.results.get(c.path)?.outcome !== 'error';
  const applied = [...edits.filter(ok), ...creations.filter(ok)].sort((a, b) => byCodePoint(a.path, b.path));
  return { report: runReport, changes: applied };
}
