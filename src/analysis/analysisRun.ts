/**
 * One analysis as its units see it (src/analysis/units): the project, the run's options, what is recorded so
 * far, the reacher that follows a function up to the handlers that may run it, and what the requests unit
 * found for the units after them.
 */
import type { CallExpression, Node, Project, SourceFile } from 'ts-morph';
import type { HandlerReached, Reacher } from '../find/reach.js';
import { isStateModuleFile } from '../stateModule.js';
import type { UnitTrace } from '../unitTrace.js';
import type { FunctionLike } from './functions.js';
import type { Recorder } from './recorder.js';

export interface AnalysisOptions {
  cwd: string;
  /** Absolute path of the requestState module (existing or to be created) a file's handlers import. */
  stateModuleFor: (file: string) => string;
  /** Files to look for server-initiated requests in. */
  files: SourceFile[];
  /** Every file importing the SDK: where servers are constructed and connected. Defaults to `files`. */
  mcpFiles?: SourceFile[];
  /** Plan only the handler whose registration contains this offset; every other site is reported as skipped, unmarked. */
  onlyHandlerAt?: { file: string; offset: number };
  /** SDK 1.x files analysed as typed, not upgraded (an editor's diagnostics): their entries are judged as the upgrade will leave them. */
  beforeUpgrade?: boolean;
  /** Told which unit planned, marked or noted something in which file (src/unitTrace.ts). */
  trace?: UnitTrace;
}

export interface AnalysisRun {
  readonly project: Project;
  readonly options: AnalysisOptions;
  readonly r: Recorder;
  readonly reacher: Reacher;
  /** The handlers some request is asked in, by their registration (the requests unit fills it). */
  readonly handlers: Map<CallExpression, HandlerReached>;
  /** The requests asked where they are written (the requests unit fills it). */
  readonly asks: Set<Node>;
}

/**
 * One unit of the analysis, as the rewrite's (src/rewrite/units.ts) and the official codemod's transforms are:
 * one kind of finding, in a module of its own, run in the order of ANALYSES (src/analysis/units/index.ts).
 * A unit of the whole run reads the run; a unit of each serving file (a file that imports the SDK) is handed
 * each such file in turn.
 */
export type AnalysisUnit =
  | { id: string; name: string; each?: undefined; apply: (run: AnalysisRun) => void }
  | { id: string; name: string; each: 'serving-file'; apply: (run: AnalysisRun, sf: SourceFile) => void };

/** The label of a tools/call, prompts/get or resources/read handler that may run `fn`. */
export function handlerOf(run: AnalysisRun, fn: FunctionLike): string | undefined {
  return run.reacher.of(fn).handlers[0]?.label;
}

/**
 * One file's part of the analysis. An error there is a bug of mcp-migrate, not of the file: its message names the
 * file, so that the run's fatal error says where (nothing is written) and the report of the bug can carry it.
 */
export function analysing(sf: SourceFile, r: Recorder, work: () => void): void {
  const file = r.rel(sf);
  try {
    work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`analysing ${file}: ${message} (a bug of mcp-migrate: please report it with that file)`, { cause: error });
  }
}

/** The files written by the project, not the tool: the requestState module's requests are the ones it makes for migrated handlers. */
export function usersOwn(files: readonly SourceFile[]): SourceFile[] {
  return files.filter(f => !isStateModuleFile(f.getFilePath()));
}

/** The files that may construct and serve a server: every file importing the SDK (or the run's files), the tool's own left out. */
export function servingFiles(options: AnalysisOptions): SourceFile[] {
  return usersOwn(options.mcpFiles ?? options.files);
}
