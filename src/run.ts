/**
 * One command-line run, start to end: discover → guard → read → migrate (pipeline) → write or diff → report.
 * No argument parsing and no printing of the final report here (that is the CLI's part); this returns what
 * happened. Per-file problems never stop the run: the file is left byte-identical and reported.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { discoverSources, selectShard, type Shard } from './files.js';
import { findDirtyFiles, formatDirtyRefusal } from './git.js';
import { digestBytes, finalizeText, keepShebang, readSource, readSourceIfWanted, writeAtomic, type DecodedSource } from './io.js';
import type { SourceInput } from './pipeline.js';
import { emptyReport } from './report.js';
import { HELPER_IMPORT_DEPTH, importedHelpers, isCandidate, worthAnalysing } from './triggers.js';
import { createProgress, type ProgressStream } from './progress.js';
import { summarize, type FileResult, type RunMode, type RunReport } from './format-report.js';
import type { FileReport } from './report.js';

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

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A helper file a candidate imports may name no trigger and import no SDK (a helper handed
 * `extra.sendRequest`, or one that only calls another helper): the pre-filter left it undecoded. Decode
 * those the candidates reach by relative imports (only those, a few hops deep) so the analysis sees them.
 */
async function decodeImportedHelpers(
  seeds: SourceInput[],
  files: readonly string[],
  run: { sources: Map<string, DecodedSource>; unwanted: Set<string>; inert: Set<string>; inputs: SourceInput[]; results: Map<string, FileResult>; rel: (abs: string) => string }
): Promise<void> {
  const all = new Map<string, { path: string; text?: string }>(files.map(p => [p, { path: p, text: run.sources.get(p)?.text }]));
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
        run.results.set(p, { file: run.rel(p), outcome: 'skipped', reason: r.reason, line: r.location?.line, column: r.location?.column });
        continue;
      }
      run.sources.set(p, r);
      run.inputs.push({ path: p, text: r.text });
      all.get(p)!.text = r.text;
    }
  }
}

/**
 * What the whole tree has worth analysing, this shard's inputs with the other shards' files: the
 * requestState module's place is chosen from them, so that every shard of a run picks the same one.
 * The other shards' files are only read through the pre-filter, never analysed.
 */
async function candidatesOfOtherShards(wholeTree: readonly string[], mine: ReadonlySet<string>, inputs: SourceInput[]): Promise<SourceInput[]> {
  const all = [...inputs];
  for (const file of wholeTree) {
    if (mine.has(file)) continue;
    const r = await readSourceIfWanted(file, isCandidate);
    if (r.ok && !('unwanted' in r)) all.push({ path: file, text: r.text });
  }
  return worthAnalysing(all);
}

export async function runMigration(options: RunOptions): Promise<RunResult> {
  const cwd = path.resolve(options.cwd);
  // Every file gets a report line: slicing the common prefix off is most of the cost of 10,000 of them.
  const prefix = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  const rel = (abs: string) => {
    const r = abs.startsWith(prefix) ? abs.slice(prefix.length) : path.relative(cwd, abs) || '.';
    return path.sep === '/' ? r : r.split(path.sep).join('/');
  };
  const absFromReport = (file: string) => path.resolve(cwd, file);

  let discovery;
  try {
    discovery = await discoverSources(options.paths, { cwd, include: options.include, exclude: options.exclude });
  } catch (err) {
    throw new RunRefused((err as Error).message);
  }
  const wholeTree = discovery.files;
  if (options.shard) discovery = selectShard(discovery, options.shard, cwd);

  if (options.mode === 'write' && !options.force) {
    const dirty = await findDirtyFiles(discovery.roots).catch((err: Error) => {
      throw new RunRefused(`${err.message}\n(pass --force to skip the git check)`);
    });
    if (dirty.length) throw new RunRefused(formatDirtyRefusal(dirty, cwd));
  }

  const progress = createProgress('reading', discovery.files.length, {
    stream: options.progressStream ?? { isTTY: false, write: () => true },
    disabled: options.quiet,
  });

  // Read. Only a file the pipeline can need is decoded; the others are checked for what would make them a skip.
  const sources = new Map<string, DecodedSource>();
  const results = new Map<string, FileResult>();
  const unwanted = new Set<string>();
  for (const file of discovery.files) {
    const r = await readSourceIfWanted(file, isCandidate);
    if (!r.ok) results.set(file, { file: rel(file), outcome: 'skipped', reason: r.reason, line: r.location?.line, column: r.location?.column });
    else if ('unwanted' in r) unwanted.add(file);
    else sources.set(file, r);
    progress.tick(1, file);
  }

  // Migrate.
  progress.phase('migrating', sources.size);
  const inputs: SourceInput[] = [];
  const inert = new Set(unwanted);
  for (const [p, s] of sources) {
    if (isCandidate(s.text)) inputs.push({ path: p, text: s.text });
    else inert.add(p);
  }
  const seeds = worthAnalysing(inputs);
  if (seeds.length > 0 && unwanted.size > 0) await decodeImportedHelpers(seeds, discovery.files, { sources, unwanted, inert, inputs, results, rel });
  const stateModuleCandidates = options.shard && seeds.length > 0 ? await candidatesOfOtherShards(wholeTree, new Set(discovery.files), inputs) : undefined;
  // The pipeline (parser, type checker, official codemod) loads only when some file needs analysing.
  const { changes, report } = seeds.length > 0
    ? await (await import('./parallel.js')).migrateInThreads(inputs, { cwd, upgradeV1: options.upgradeV1 ?? true, inertSources: inert, stateModuleCandidates }, options.threads)
    : { changes: [], report: emptyReport() };
  progress.tick(sources.size);

  const pipelineFiles = new Map<string, FileReport>();
  for (const f of report.files) pipelineFiles.set(absFromReport(f.file), f);
  const fail = (abs: string, reason: string) => results.set(abs, { file: rel(abs), outcome: 'error', reason });

  // Decide which changes take effect.
  const edits: AppliedChange[] = [];
  const creations: AppliedChange[] = [];
  for (const change of changes) {
    const abs = path.resolve(cwd, change.path);
    if (change.before === null) {
      if (sources.has(abs) || discovery.files.includes(abs)) {
        fail(abs, 'the migration tried to create a file that already exists; left as it was');
        continue;
      }
      creations.push({ path: abs, before: null, after: change.after });
      continue;
    }
    let source = sources.get(abs);
    if (!source && path.basename(abs) === 'package.json') {
      // The pipeline's package.json edit (src/manifest.ts): read it like a source so the same checks and atomic write apply.
      const r = await readSource(abs);
      if (r.ok) sources.set(abs, (source = r));
    }
    if (!source) {
      // Not one of our inputs: never touch it.
      if (!results.has(abs)) fail(abs, 'the migration returned a change for a file it was not given; left as it was');
      continue;
    }
    if (pipelineFiles.get(abs)?.outcome === 'error') continue;
    if (change.before !== source.text) {
      fail(abs, 'the migration returned a change based on different text; left as it was');
      continue;
    }
    const after = finalizeText(keepShebang(source.text, change.after), source.meta);
    if (after === source.text) continue;
    edits.push({ path: abs, before: source.text, after });
  }

  // Write.
  const written = new Set<string>();
  if (options.mode === 'write' && (edits.length || creations.length)) {
    progress.phase('writing', edits.length + creations.length);
    let creationFailed: string | undefined;
    for (const c of creations) {
      try {
        await writeAtomic(c.path, c.after, null);
        written.add(c.path);
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        fail(c.path, e.code === 'EEXIST' ? 'not created: a file already exists there' : `not created (${e.code ?? e.message})`);
        creationFailed ??= rel(c.path);
      }
      progress.tick(1, rel(c.path));
    }
    for (const e of edits) {
      const source = sources.get(e.path)!;
      if (creationFailed) {
        fail(e.path, `not written: creating ${creationFailed}, which it would depend on, failed`);
        continue;
      }
      try {
        const now = await fs.readFile(e.path);
        if (digestBytes(now) !== source.digest) {
          fail(e.path, 'changed on disk during the run; left as it was');
          continue;
        }
        await writeAtomic(e.path, e.after, source.meta);
        written.add(e.path);
      } catch (err) {
        const x = err as NodeJS.ErrnoException;
        fail(e.path, `could not be written (${x.code ?? x.message}); left as it was`);
      }
      progress.tick(1, rel(e.path));
    }
  }
  progress.done();

  // Per-file outcomes: every file looked at.
  for (const file of unwanted) results.set(file, { file: rel(file), outcome: 'unchanged' });
  for (const file of sources.keys()) {
    if (results.has(file)) continue;
    const fromPipeline = pipelineFiles.get(file);
    if (fromPipeline && (fromPipeline.outcome === 'error' || fromPipeline.outcome === 'skipped')) {
      results.set(file, { ...fromPipeline, file: rel(file) });
    } else {
      results.set(file, { file: rel(file), outcome: 'unchanged' });
    }
  }
  const editedOk = edits.filter(e => results.get(e.path)?.outcome !== 'error');
  const createdOk = creations.filter(c => results.get(c.path)?.outcome !== 'error');
  for (const e of editedOk) {
    const base = pipelineFiles.get(e.path);
    results.set(e.path, { ...(base?.reason ? { reason: base.reason } : {}), file: rel(e.path), outcome: 'changed', written: written.has(e.path) });
  }
  for (const c of createdOk) {
    results.set(c.path, { file: rel(c.path), outcome: 'changed', created: true, written: written.has(c.path) });
  }
  for (const s of discovery.skipped) {
    if (!results.has(s.path)) results.set(s.path, { file: rel(s.path), outcome: 'skipped', reason: s.reason });
  }
  // Anything the pipeline reported about files we did not list (should not happen) is kept, not lost.
  for (const [abs, f] of pipelineFiles) if (!results.has(abs)) results.set(abs, { ...f, file: rel(abs) });

  const files = [...results.values()].sort((a, b) => byCodePoint(a.file, b.file));
  const { files: _ignored, ...pipelineRest } = report;
  void _ignored;
  const rest = { ...pipelineRest, created: pipelineRest.created.filter(c => results.get(absFromReport(c))?.outcome !== 'error') };
  const summary = summarize(rest, files, discovery.files.length);
  const exitCode = options.mode === 'check' && (summary.sitesLeft > 0 || summary.filesChanged > 0 || summary.filesCreated > 0) ? 1 : 0;
  const runReport: RunReport = { schemaVersion: 1, mode: options.mode, ...rest, files, summary, exitCode };
  const applied = [...editedOk, ...createdOk].sort((a, b) => byCodePoint(a.path, b.path));
  return { report: runReport, changes: applied };
}
