/**
 * One migration run over a set of source files, entirely in memory:
 * upgrade (official v1-to-v2 codemod) → analysis (ts-morph) → plan (plain data) → rewrite (jscodeshift) → report.
 * Nothing here writes to disk; the CLI decides whether to print a diff or write the changes.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { Node, SyntaxKind, ts, type CallExpression, type Project, type SourceFile } from 'ts-morph';
import { analyzeProject } from './analysis/index.js';
import { forgetProjectFiles, needsNodeDeclarations, setText, sharedAnalysisProject } from './analysis/project.js';
import { importBindings, selfCheck, type ImportBindings, type SelfCheckOptions } from './analysis/selfCheck.js';
import { owningManifest, planManifestChanges } from './manifest.js';
import { isEmptyPlan, type FilePlan } from './plan.js';
import { movedNote, positionMapper, type Position } from './positions.js';
import {
  DEPRECATED_KINDS,
  emptyReport,
  shownPath,
  unchangedFile,
  type FileChange,
  type Report,
  type SiteReport,
  type UpgradeNote,
} from './report.js';
import { isStateModuleFile, STATE_KEY_ENV } from './stateModule.js';
import type { UnitTrace } from './unitTrace.js';
import { missingStateModules, placedStateModules } from './stateModuleWrites.js';
import { placeStateModules, stateModuleFor, type StateModules } from './stateModulePlaces.js';
import {
  importersOfRequestAliases,
  mayMakeRequests,
  MCP_TEXT,
  REGISTRATION_CALL,
  REGISTRATION_METHODS,
  worthAnalysing,
  ZOD_IMPORT,
} from './triggers.js';
import { SDK_V1_FRAMEWORKS } from './tables/frameworks.js';
import {
  FAILS_AT_START,
  oneLine,
  syntaxErrors,
  upgradeRegistrants,
  upgradeV1,
  upgradeZodOnly,
  V1_IMPORT,
  withCodemodMarkers,
} from './upgrade/index.js';
import { applyPlan, rewriteParser } from '../transforms/mrtr.js';
import { parseOnly } from './rewrite/parsers.js';
import { byCodePoint } from './values.js';
import { descendantsOfKind } from './analysis/descendants.js';
import { stateModuleCall } from './find/stateCalls.js';
import { handedServerKind } from './find/handedServer.js';

export interface SourceInput {
  /** Absolute path. */
  path: string;
  text: string;
}

export interface MigrateOptions {
  /** Root of the run, used for relative paths in the report and to place the requestState module. */
  cwd: string;
  /** Run the official `@modelcontextprotocol/codemod` v1-to-v2 migration first on files importing `@modelcontextprotocol/sdk`. Default true. */
  upgradeV1?: boolean;
  /**
   * Rewrite only the handler holding the site at this position (1-based, in the file as given):
   * an editor's "convert this handler". The others' sites are reported as skipped, unmarked.
   */
  onlyHandlerAt?: { path: string; line: number; column: number };
  /**
   * Other sources of the run, left out of `files` because the caller found neither the SDK nor a
   * trigger name in them: never read again (the package.json edits look at every source of a package).
   */
  inertSources?: ReadonlySet<string>;
  /**
   * The files the requestState module's place is chosen from when they are more than the run's own:
   * for a shard, those of the whole tree worth analysing, so that every shard picks the same place.
   */
  stateModuleCandidates?: SourceInput[];
  /**
   * Stop after the analysis, on the text as typed: the report's sites and notes, no changes and no
   * upgrade (an editor's diagnostics, which must come fast). SDK 1.x files are judged as the upgrade
   * will leave them; a rewrite that would fail its check is found only by the full run.
   */
  sitesOnly?: boolean;
  /** Told which unit of which stage acted on which file (as the report names it): for the shape pages, src/unitTrace.ts. */
  traceUnits?: UnitTrace;
}

export interface MigrateResult {
  changes: FileChange[];
  report: Report;
}

/** One group's part of a run: everything but what is decided once per run (see finishRun). */
export { placeStateModules, type StateModules } from './stateModulePlaces.js';

export interface GroupResult extends MigrateResult {
  /** The requestState modules the rewritten handlers import: the run creates those that do not exist. */
  usedStateModules: string[];
  /** Files upgraded for registering handlers on an SDK server of another module (registrantsStage). */
  registrants?: string[];
}

export async function migrateSources(files: SourceInput[], options: MigrateOptions): Promise<MigrateResult> {
  const candidates = worthAnalysing(files);
  const state = placeStateModules(options.stateModuleCandidates ?? candidates, options.cwd);
  // The other sources given: a wrapper among them that runs a callback which asks is rewritten too.
  const inertSources = options.inertSources ?? new Set(files.filter(f => !candidates.includes(f)).map(f => f.path));
  return finishRun([migrateGroup(candidates, state, { ...options, inertSources })], files, state, options);
}

/** What the stages of a group's run share: the candidates as given, their text as each stage leaves it, the report. */
interface GroupRun {
  candidates: SourceInput[];
  /** Each candidate's text as the next stage reads it (no shebang; upgraded); a file dropped is left as it was. */
  current: Map<string, string>;
  /** A shebang is not JavaScript: every stage sees the text without it, the result gets it back. */
  shebangs: Map<string, string>;
  report: Report;
  rel: (p: string) => string;
  options: MigrateOptions;
  /** Files registrantsStage upgraded: they import nothing of the SDK, and hand an SDK 2.x server their schemas. */
  registrants: string[];
}

/**
 * Upgrade, analyse and rewrite `candidates` (files `worthAnalysing` kept), which must be closed under the
 * imports between candidates (a group of `partitionCandidates`, or all of them): files outside the group are
 * seen by the type checker only as they are on disk.
 */
export function migrateGroup(candidates: SourceInput[], state: StateModules, options: MigrateOptions): GroupResult {
  const run = startGroup(candidates, options);
  if (candidates.length === 0) return { changes: [], report: run.report, usedStateModules: [] };
  if (options.upgradeV1 !== false && !options.sitesOnly) upgradeStage(run);
  const project = sharedAnalysisProject({ nodeTypes: !options.sitesOnly || needsNodeDeclarations(run.current.values()) });
  // What an earlier run left: a rewrite's files, or a report's the moment it was given.
  forgetProjectFiles(project);
  const { sourceFiles, broken } = parseStage(run, project);
  if (options.upgradeV1 !== false && !options.sitesOnly) registrantsStage(run, project, sourceFiles, broken);
  const positions = positionsOf(run, project);
  // A file calling a request method a module exports under another name (`ask(...)`) may name no trigger.
  const aliasUsers = importersOfRequestAliases(sourceFiles.map(sf => ({ path: sf.getFilePath(), text: sf.getFullText() })));
  const healthyFiles = sourceFiles.filter(sf => !broken.has(sf.getFilePath()));
  const analysis = analyzeProject(project, {
    cwd: options.cwd,
    stateModuleFor: file => stateModuleFor(state, file).path,
    files: healthyFiles.filter(sf => mayMakeRequests(sf.getFullText(), aliasUsers.has(sf.getFilePath()))),
    mcpFiles: healthyFiles,
    onlyHandlerAt: options.onlyHandlerAt && positions.inAnalysed(options.onlyHandlerAt),
    beforeUpgrade: options.sitesOnly,
    trace: tracedAs(run),
  });
  run.report.sites.push(...analysis.sites.map(positions.inOriginal));
  run.report.notes.push(...analysis.notes.map(note => movedNote(note, relative => positions.toOriginalOf(relative))));
  if (options.sitesOnly) {
    // Forgotten once the caller has the report (forgetting walks every node: a quarter of a second on 2,000
    // lines an editor's diagnostics would wait for); a run that starts first forgets them itself.
    setImmediate(() => forgetProjectFiles(project));
    return { changes: [], report: run.report, usedStateModules: [] };
  }
  return rewriteStage(run, project, analysis, { broken, aliasUsers, state });
}

/** The run's unit trace, with each file named as the report names it; undefined where none was asked for. */
function tracedAs(run: GroupRun): UnitTrace | undefined {
  const trace = run.options.traceUnits;
  return trace && ((stage, unit, file) => trace(stage, unit, run.rel(file)));
}

function startGroup(candidates: SourceInput[], options: MigrateOptions): GroupRun {
  const run: GroupRun = {
    candidates,
    current: new Map(),
    shebangs: new Map(),
    report: emptyReport(),
    rel: p => shownPath(options.cwd, p),
    options,
    registrants: [],
  };
  for (const f of candidates) {
    const match = /^#![^\n]*\n?/.exec(f.text);
    if (match) run.shebangs.set(f.path, match[0]);
    run.current.set(f.path, match ? f.text.slice(match[0].length) : f.text);
  }
  return run;
}

/**
 * SDK 1.x files upgraded with the official codemod (in memory). A file it fails on stays on 1.x, as it was:
 * rewriting its handlers would mix 1.x imports with 2.x code.
 */
function upgradeStage(run: GroupRun): void {
  const { candidates, current, report, rel } = run;
  let failed: Map<string, string>;
  try {
    const keptOnV1 = keptOnSdkV1(candidates, rel);
    report.notes.push(...keptOnV1.values());
    const upgraded = upgradeV1(
      candidates.filter(f => !keptOnV1.has(f.path)).map(f => ({ path: f.path, text: current.get(f.path)! })),
      candidates,
      tracedAs(run),
    );
    for (const [p, text] of upgraded.texts) current.set(p, text);
    // Its findings are at lines of the text it was given: the file's, less a shebang.
    report.upgrade.push(...upgradeNotesOf(run, upgraded.notes));
    failed = upgraded.failed;
  } catch (error) {
    failed = new Map(
      candidates.filter(f => V1_IMPORT.test(f.text)).map(f => [f.path, `the official v1-to-v2 codemod failed (${oneLine(error)})`]),
    );
  }
  for (const [file, why] of failed) {
    report.files.push({ file: rel(file), outcome: 'error', reason: `${rel(file)}: not migrated, left as it was: ${why}` });
    current.delete(file);
  }
}

/** The candidates as source files of the analysis's project; those that do not parse are reported and set apart. */
function parseStage(run: GroupRun, project: Project): { sourceFiles: SourceFile[]; broken: Set<string> } {
  const { candidates, current, report, rel } = run;
  const sourceFiles: SourceFile[] = [];
  for (const f of candidates) {
    if (!current.has(f.path)) continue;
    try {
      sourceFiles.push(project.createSourceFile(f.path, current.get(f.path)!, { overwrite: true }));
    } catch (error) {
      report.files.push({ file: rel(f.path), outcome: 'error', reason: `cannot be parsed: ${(error as Error).message}` });
      current.delete(f.path);
    }
  }
  const broken = new Set<string>();
  for (const sf of sourceFiles) {
    const d = syntaxErrors(sf)[0];
    if (!d) continue;
    const { line, character } = ts.getLineAndCharacterOfPosition(sf.compilerNode, d.start ?? 0);
    broken.add(sf.getFilePath());
    report.files.push({
      file: rel(sf.getFilePath()),
      outcome: 'error',
      reason: `${rel(sf.getFilePath())}:${line + 1}:${character + 1} cannot be parsed: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    });
  }
  return { sourceFiles, broken };
}

/** The upgrade's findings, at lines of the text it was given (the file's, less a shebang), as the report gives them. */
function upgradeNotesOf(run: GroupRun, notes: readonly UpgradeNote[]): UpgradeNote[] {
  return notes.map(n => ({ ...n, line: n.line + (run.shebangs.has(n.file) ? 1 : 0), file: run.rel(n.file) }));
}

/**
 * Files the upgrade did not read, as they import nothing of the SDK, that register handlers on an SDK server declared
 * in another module (`import { server } from './server.js'; server.tool(...)`, a tool class whose base holds the
 * server): left so, they would keep SDK 1.x's registrations, which 2.x lacks (`server.tool is not a function` as the
 * server starts). The checker, on the upgraded files, says which server a call is made on, or the callers that hand
 * it (find/handedServer.ts); those files are upgraded as the others were, and parsed again. One that also calls such
 * a method of something else (`agent.tool(...)`), which the official codemod would rewrite too, or that the upgrade
 * cannot take, is left as it was, with a finding; so is a 1.x registration on something nothing says anything of.
 */
function registrantsStage(run: GroupRun, project: Project, sourceFiles: SourceFile[], broken: ReadonlySet<string>): void {
  const registrants: SourceFile[] = [];
  const left = new Map<string, { call: CallExpression; message: string }>();
  // Named nothing of MCP as given: a file the upgrade read may name nothing of it once upgraded (a request schema
  // it imported, now a method string).
  const given = new Map(run.candidates.map(f => [f.path, f.text]));
  for (const sf of sourceFiles.filter(f => !broken.has(f.getFilePath()) && !MCP_TEXT.test(given.get(f.getFilePath()) ?? ''))) {
    const { onServer, elsewhere } = registrationsOn(sf);
    const unsure = onServer.length === 0 ? elsewhere.find(isUnsureRegistration) : undefined;
    if (unsure) left.set(sf.getFilePath(), { call: unsure, message: unsureRegistrationMessage(unsure) });
    if (onServer.length === 0) continue;
    if (elsewhere.length === 0) registrants.push(sf);
    else {
      const other = elsewhere[0]!;
      const why = `it also calls ${other.getExpression().getText()}(...) on line ${other.getStartLineNumber()}, which is not an SDK server's and which the upgrade would rewrite too`;
      left.set(sf.getFilePath(), { call: onServer[0]!, message: registrantLeftMessage(onServer[0]!, why) });
    }
  }
  if (registrants.length === 0 && left.size === 0) return;
  const upgraded = upgradeRegistrants(
    registrants.map(sf => ({ path: sf.getFilePath(), text: run.current.get(sf.getFilePath())! })),
    run.candidates,
    tracedAs(run),
  );
  run.report.upgrade.push(...upgradeNotesOf(run, upgraded.notes));
  for (const [file, why] of upgraded.failed) {
    const call = registrationsOn(project.getSourceFileOrThrow(file)).onServer[0]!;
    left.set(file, { call, message: registrantLeftMessage(call, why) });
  }
  for (const [file, { call, message }] of left) {
    const note = registrantLeft(run, file, call, message);
    run.report.upgrade.push(note);
    // Marked as a repair marks what it leaves: --check fails on it, and the run says the server will not start.
    upgraded.texts.set(file, withCodemodMarkers(run.current.get(file)!, new Map([[call.getStartLineNumber(), [note.message]]])));
  }
  for (const [file, text] of upgraded.texts) {
    if (!left.has(file)) run.registrants.push(file);
    run.current.set(file, text);
    const i = sourceFiles.findIndex(sf => sf.getFilePath() === file);
    sourceFiles[i] = project.createSourceFile(file, text, { overwrite: true });
  }
}

/** The finding of a file registering on an SDK server of another module that the upgrade leaves, at its first such call. */
function registrantLeft(run: GroupRun, file: string, call: CallExpression, message: string): UpgradeNote {
  return { file: run.rel(file), line: call.getStartLineNumber() + (run.shebangs.has(file) ? 1 : 0), level: 'warning', message };
}

function registrantLeftMessage(call: CallExpression, why: string): string {
  return `${call.getExpression().getText()}(...) registers a handler on an SDK server declared in another module; this file imports nothing of the SDK, and is left on SDK 1.x (${why}): write its registrations in SDK 2.x's form (registerTool(...), registerPrompt(...), registerResource(...)); ${FAILS_AT_START}`;
}

/**
 * SDK 1.x's shorthand registration (`x.tool('name', ..., handler)`, `prompt`, `resource`: methods SDK 2.x's server
 * has not) on something the checker cannot type (`any`: an untyped parameter no caller the analysis follows hands a
 * value, as `for (const register of modules) register(server)` hands it). Left, it may be a server that throws
 * as it starts; it is marked, never upgraded on a guess.
 */
function isUnsureRegistration(call: CallExpression): boolean {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !V1_ONLY_REGISTRATIONS.has(callee.getName())) return false;
  const [first, ...rest] = call.getArguments();
  const last = rest.at(-1);
  const named = first !== undefined && (Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first));
  const handler = last !== undefined && (Node.isArrowFunction(last) || Node.isFunctionExpression(last) || Node.isIdentifier(last));
  const type = registeredOn(callee.getExpression()).getType();
  return named && handler && (type.isAny() || type.isUnknown());
}

const V1_ONLY_REGISTRATIONS: ReadonlySet<string> = new Set(['tool', 'prompt', 'resource']);

function unsureRegistrationMessage(call: CallExpression): string {
  const callee = call.getExpression() as import('ts-morph').PropertyAccessExpression;
  const method = callee.getName();
  const modern = `register${method[0]!.toUpperCase()}${method.slice(1)}`;
  return `${callee.getText()}(...) is written as SDK 1.x registers a ${method}, on ${callee.getExpression().getText()}, which mcp-migrate cannot tell is an SDK server (no caller it follows hands it one); this file imports nothing of the SDK and is left as it is. If it is a server, write it in SDK 2.x's form (${modern}(name, config, handler)): SDK 2.x's server has no ${method}(), and the server throws as it starts while this is left; if it is not, delete this marker`;
}

/**
 * In a file that names nothing of MCP, the calls of a registration method SDK 1.x and 2.x write differently, on an
 * SDK server (as the checker sees it) and on anything else.
 */
function registrationsOn(sf: SourceFile): { onServer: CallExpression[]; elsewhere: CallExpression[] } {
  const found = { onServer: [] as CallExpression[], elsewhere: [] as CallExpression[] };
  if (!REGISTRATION_CALL.test(sf.getFullText())) return found;
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !REGISTRATION_METHODS.includes(callee.getName())) continue;
    (handedServerKind(registeredOn(callee.getExpression())) !== undefined ? found.onServer : found.elsewhere).push(call);
  }
  return found;
}

/** What a registration is made on: the server itself where a run already wrapped it (`resumable(server)`), whose type JavaScript does not carry through. */
function registeredOn(receiver: Node): Node {
  const wrapped = Node.isCallExpression(receiver) && stateModuleCall(receiver) === 'resumable' ? receiver.getArguments()[0] : undefined;
  return wrapped ?? receiver;
}

/** Sites are found in the analysed text (upgraded, without shebang): reported where the user wrote them. */
function positionsOf(run: GroupRun, project: Project) {
  const { candidates, current, rel } = run;
  const mappers = new Map<string, (p: Position) => Position>();
  /** From the analysed text of a candidate (by its path relative to the cwd) to the text as given. */
  const toOriginalOf = (relative: string): ((p: Position) => Position) | undefined => {
    const file = candidates.find(f => rel(f.path) === relative);
    if (!file) return undefined;
    let toOriginal = mappers.get(file.path);
    if (!toOriginal) mappers.set(file.path, (toOriginal = positionMapper(file.text, current.get(file.path)!)));
    return toOriginal;
  };
  const inOriginal = (site: SiteReport): SiteReport => {
    const toOriginal = toOriginalOf(site.file);
    const file = candidates.find(f => rel(f.path) === site.file);
    if (!toOriginal || !file) return site;
    const p = toOriginal({ line: site.line - 1, character: site.column - 1 });
    const callee = /^(?:new\s+)?[\w$]+(?:!?\??\.[\w$]+|!)*/.exec(file.text.split('\n')[p.line]?.slice(p.character) ?? '')?.[0];
    const call = callee && site.call.endsWith('(...)') ? `${callee}(...)` : site.call;
    return { ...site, line: p.line + 1, column: p.character + 1, call };
  };
  /** A position in a file as given, in the analysed text: an offset there. */
  const inAnalysed = (at: NonNullable<MigrateOptions['onlyHandlerAt']>): { file: string; offset: number } | undefined => {
    const file = candidates.find(f => f.path === at.path);
    const sf = file && project.getSourceFile(file.path);
    if (!file || !sf) return undefined;
    const p = positionMapper(current.get(file.path)!, file.text)({ line: at.line - 1, character: at.column - 1 });
    return { file: file.path, offset: sf.compilerNode.getPositionOfLineAndCharacter(p.line, p.character) };
  };
  return { toOriginalOf, inOriginal, inAnalysed };
}

/** Each planned file rewritten, and the result checked; a failure leaves that file as it was. */
function rewriteStage(
  run: GroupRun,
  project: Project,
  analysis: ReturnType<typeof analyzeProject>,
  context: { broken: ReadonlySet<string>; aliasUsers: ReadonlySet<string>; state: StateModules },
): GroupResult {
  const { current, report, rel, options } = run;
  const { broken, aliasUsers, state } = context;
  const plans = new Map<string, FilePlan>(analysis.plans.filter(p => !isEmptyPlan(p)).map(p => [p.file, p]));
  const candidates = [...run.candidates, ...plannedBeyondCandidates(run, project, plans)];
  const changes: FileChange[] = [];
  const usedStateModules = new Set<string>();
  const planned = candidates.filter(f => !broken.has(f.path) && current.has(f.path) && plans.has(f.path));
  // One handler asked for (an editor's quick fix): the other handlers' requests stay as they are, unmarked, on purpose.
  const onlyHandlers = options.onlyHandlerAt
    ? new Set(analysis.sites.filter(s => s.outcome === 'rewritten' && s.handler).map(s => s.handler!))
    : undefined;
  const checked = rewriteChecked(
    planned.map(f => ({
      sf: project.getSourceFile(f.path)!,
      text: current.get(f.path)!,
      plan: plans.get(f.path)!,
      importsRequestAliases: aliasUsers.has(f.path),
      ...(onlyHandlers ? { onlyHandlers } : {}),
    })),
    tracedAs(run),
  );
  for (const f of candidates) {
    if (broken.has(f.path) || !current.has(f.path)) continue;
    const plan = plans.get(f.path);
    const rewritten = checked.get(f.path) ?? { text: current.get(f.path)! };
    if ('error' in rewritten) {
      report.files.push({
        file: rel(f.path),
        outcome: 'error',
        reason: `${rel(f.path)}: not rewritten, left as it was: ${rewritten.error}`,
      });
      for (const site of report.sites)
        if (site.file === rel(f.path) && site.outcome === 'rewritten')
          Object.assign(site, {
            outcome: 'skipped',
            reason: `the rewrite of this file failed: ${rewritten.error}`,
            cause: 'the rewrite of its file failed',
            causeId: 'rewrite-failed',
          } satisfies Partial<SiteReport>);
      continue;
    }
    if (plan && usesStateModule(plan)) usedStateModules.add(stateModuleFor(state, f.path).path);
    const after = (run.shebangs.get(f.path) ?? '') + rewritten.text;
    const changed = after !== f.text;
    if (changed) changes.push({ path: f.path, before: f.text, after });
    report.files.push({ file: rel(f.path), outcome: changed ? 'changed' : 'unchanged' });
  }
  return { changes, report, usedStateModules: [...usedStateModules], registrants: run.registrants };
}

/**
 * The files the analysis plans edits in that are no candidates: a wrapper in a file of its own that runs a callback
 * which asks (its catch must let a suspended round through, its work before the call be journaled), whose text
 * names nothing of MCP, so the pre-filter passed it by. One the run was given is rewritten as a candidate is, from
 * the text the program read; one outside the run (or a candidate of another group, reached through a file that is
 * none) is reported as not migrated, never left silently.
 */
function plannedBeyondCandidates(run: GroupRun, project: Project, plans: ReadonlyMap<string, FilePlan>): SourceInput[] {
  const beyond: SourceInput[] = [];
  for (const file of plans.keys()) {
    if (run.current.has(file) || run.candidates.some(c => c.path === file)) continue;
    const text = project.getSourceFile(file)?.getFullText();
    if (text !== undefined && run.options.inertSources?.has(file) && !text.startsWith('#!')) {
      beyond.push({ path: file, text });
      run.current.set(file, text);
      continue;
    }
    run.report.files.push({
      file: run.rel(file),
      outcome: 'error',
      reason: `${run.rel(file)}: not migrated: a handler's request runs through it (it calls a callback that asks), so its catch and finally blocks must let a suspended round through and its work before that call be journaled, but it is not among the files of this run, or of this part of it under --jobs: run mcp-migrate on a folder that holds it too (with --jobs 1 where one does already)`,
    });
  }
  return beyond;
}

/**
 * The groups' changes, one per file: a wrapper no group had as a candidate may be rewritten by each group whose
 * handlers run it. The same text is one change; different texts are none, the file reported as not migrated.
 */
function changesOfGroups(groups: readonly GroupResult[], report: Report, rel: (p: string) => string): FileChange[] {
  const byPath = new Map<string, FileChange>();
  const differing = new Set<string>();
  for (const change of groups.flatMap(g => g.changes)) {
    const earlier = byPath.get(change.path);
    if (!earlier) byPath.set(change.path, change);
    else if (earlier.after !== change.after) differing.add(change.path);
  }
  for (const file of differing) {
    byPath.delete(file);
    report.files.push({
      file: rel(file),
      outcome: 'error',
      reason: `${rel(file)}: not migrated, left as it was: the parts of this run that migrate its callers edit it differently; run again with --jobs 1`,
    });
  }
  return [...byPath.values()];
}

/** Whether the rewritten file imports the requestState module. */
function usesStateModule(plan: FilePlan): boolean {
  return (
    plan.asks.length > 0 ||
    plan.registrations.length > 0 ||
    plan.journaled.length > 0 ||
    plan.guards.length > 0 ||
    plan.capabilityReads.length > 0 ||
    plan.servers.length > 0
  );
}

/** The candidates using a framework that runs an SDK 1.x server only (McpAgent): not upgraded, each with the note saying why. */
function keptOnSdkV1(candidates: SourceInput[], rel: (p: string) => string): Map<string, string> {
  const kept = new Map<string, string>();
  for (const f of candidates) {
    const found = SDK_V1_FRAMEWORKS.find(({ imports }) => imports.test(f.text));
    if (found) kept.set(f.path, `${rel(f.path)}: left on SDK 1.x, not upgraded: ${found.framework.keepsSdkV1}; ${found.framework.status}`);
  }
  return kept;
}

/**
 * What is decided once per run, after every group: the requestState module (created once, where
 * `placeStateModule` put it), the notes it needs, and package.json of each package that owns a changed
 * file (src/manifest.ts; lockfiles are left alone). `files`: every source of the run, for the manifests.
 */
export function finishRun(groups: GroupResult[], files: SourceInput[], state: StateModules, options: MigrateOptions): MigrateResult {
  const { cwd } = options;
  const rel = (p: string) => shownPath(cwd, p);
  const report = emptyReport();
  const changes = changesOfGroups(groups, report, rel);
  // A file more than one group rewrote (changesOfGroups) is listed once, as not migrated where they differ.
  const listed = new Set(report.files.map(f => f.file));
  for (const g of groups) {
    report.sites.push(...g.report.sites);
    for (const f of g.report.files) {
      if (listed.has(f.file)) continue;
      listed.add(f.file);
      report.files.push(f);
    }
    report.upgrade.push(...g.report.upgrade);
    report.notes.push(...g.report.notes);
  }
  // The same report whatever the grouping: sites in file order, notes about a file with that file.
  report.sites.sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line || a.column - b.column);
  for (const site of report.sites) if (DEPRECATED_KINDS[site.kind]) site.deprecated = DEPRECATED_KINDS[site.kind];
  const noteFile = (note: string) => /^([^\s:]+\.[cm]?[jt]sx?):/.exec(note)?.[1] ?? '\uffff';
  report.upgrade.sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line);
  report.notes = [...new Set(report.notes)].sort((a, b) => byCodePoint(noteFile(a), noteFile(b)));
  const inGroups = new Set(report.files.map(f => f.file));
  for (const f of files) if (!inGroups.has(rel(f.path))) report.files.push(unchangedFile(f.path, cwd));

  const used = new Set(groups.flatMap(g => g.usedStateModules));
  const placed = placedStateModules(
    state.places.filter(p => used.has(p.path)),
    changes,
    rel,
  );
  for (const file of placed.created) {
    changes.push({ path: file.path, before: null, after: file.text });
    report.created.push(rel(file.path));
  }
  report.notes.push(...placed.notes);
  if (used.size > 0) {
    // One process seals with a key of its own; several instances must share the key, and a store for the nonces.
    report.notes.push(
      `requestState is sealed with a key of the process's own, which is enough under stdio and for one HTTP instance; where several instances serve the server, give them all the same ${STATE_KEY_ENV} (32 bytes or more) and a store they share (configureRequestState({ store: redisStore(client) })): see mcp-migrate's docs/deployment.md`,
    );
    report.notes.push('the migrated code imports @modelcontextprotocol/server 2.x: add it to package.json and install');
  }

  const finalText = new Map(files.map(f => [f.path, f.text]));
  for (const c of changes) finalText.set(c.path, c.after);
  // A run after an interrupted one: handlers it rewrote may import a requestState module it never wrote, a module
  // the seal beside it (an existing module is read even when the run was not given it).
  const imports = new Map(finalText);
  for (const place of state.places)
    if (place.exists && !imports.has(place.path) && fs.existsSync(place.path)) imports.set(place.path, fs.readFileSync(place.path, 'utf8'));
  for (const missing of missingStateModules(imports)) {
    changes.push({ path: missing.path, before: null, after: missing.text });
    finalText.set(missing.path, missing.text);
    report.created.push(rel(missing.path));
    const importer = isStateModuleFile(missing.importer) ? rel(missing.importer) : 'migrated handlers';
    report.notes.push(`${rel(missing.path)} is imported by ${importer} but was missing (an earlier run was interrupted?): created`);
  }
  const manifests = planManifestChanges({
    cwd,
    files: [...finalText].map(([p, text]) => ({ path: p, text })),
    // Every package using the SDK, changed or not: after an interrupted run its sources may be migrated and its package.json not.
    changed: [...finalText].filter(([, text]) => MCP_TEXT.test(text)).map(([p]) => p),
    withoutMcpText: options.inertSources,
    registrants: new Set(groups.flatMap(g => g.registrants ?? [])),
  });
  changes.push(...manifests.changes);
  // A package.json owning the migrated code declares the server package, or gets it (or says why not).
  if (manifests.unowned.length === 0)
    report.notes = report.notes.filter(n => !n.startsWith('the migrated code imports @modelcontextprotocol/server 2.x'));
  report.notes.push(...manifests.notes);
  if (options.upgradeV1 !== false) upgradeZodUsers(files, finalText, manifests.zodToRaise, { changes, report }, cwd);
  report.files.sort((a, b) => a.file.localeCompare(b.file));
  return { changes, report };
}

/**
 * The files of a package whose zod the run asks to raise to 4 that import zod and did not import SDK 1.x (a
 * schemas module): upgradeV1 repaired the zod 3 calls of SDK 1.x files, these get the same repairs (src/upgrade).
 */
function upgradeZodUsers(
  files: SourceInput[],
  finalText: ReadonlyMap<string, string>,
  zodToRaise: string[],
  run: MigrateResult,
  cwd: string,
): void {
  if (zodToRaise.length === 0) return;
  const { changes, report } = run;
  const raised = new Set(zodToRaise);
  const exists = (p: string) => fs.existsSync(p);
  const users = files
    .filter(
      f => !V1_IMPORT.test(f.text) && ZOD_IMPORT.test(finalText.get(f.path)!) && raised.has(owningManifest(f.path, cwd, exists) ?? ''),
    )
    .map(f => ({ path: f.path, text: finalText.get(f.path)! }));
  const upgraded = upgradeZodOnly(users, files);
  for (const [p, after] of upgraded.texts) {
    const change = changes.find(c => c.path === p);
    if (change) change.after = after;
    else changes.push({ path: p, before: finalText.get(p)!, after });
  }
  report.upgrade.push(...upgraded.notes.map(n => ({ ...n, file: shownPath(cwd, n.file) })));
  report.upgrade.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/**
 * The files' rewrites, checked (src/analysis/selfCheck.ts) in the analysis project they were planned in;
 * each source file is left holding its rewritten text. A rewrite that throws or fails the check is an
 * error, and its file gets its text back. Every rewritten text is set before any is checked, so one
 * type checker serves all the checks (setting a text throws the checker away); once a file fails and is
 * put back, the others are checked again without it.
 */
function rewriteChecked(
  files: ({ sf: SourceFile; text: string; plan: FilePlan } & SelfCheckOptions)[],
  trace: UnitTrace | undefined,
): Map<string, { text: string } | { error: string }> {
  const results = new Map<string, { text: string } | { error: string }>();
  let toCheck: ({ sf: SourceFile; text: string; out: string; before: ImportBindings } & SelfCheckOptions)[] = [];
  for (const { sf, text, plan, ...checkOptions } of files) {
    try {
      toCheck.push({ sf, text, out: rewrite(text, plan, trace), before: importBindings(sf), ...checkOptions });
    } catch (error) {
      results.set(sf.getFilePath(), { error: (error as Error).message });
    }
  }
  for (const f of toCheck) setText(f.sf, f.out);
  while (toCheck.length > 0) {
    const failed = toCheck.map(f => ({ f, failures: selfCheck(f.sf, f.before, f) })).filter(c => c.failures.length > 0);
    for (const { f, failures } of failed) {
      setText(f.sf, f.text);
      const shown = failures.slice(0, 3).map(x => `line ${x.line} of the rewritten text: ${x.message}`);
      results.set(f.sf.getFilePath(), {
        error: `the rewrite failed its own check (${shown.join('; ')}${failures.length > 3 ? `; and ${failures.length - 3} more` : ''}); please report it`,
      });
    }
    if (failed.length === 0) for (const f of toCheck) results.set(f.sf.getFilePath(), { text: f.out });
    toCheck = failed.length === 0 ? [] : toCheck.filter(f => !failed.some(x => x.f === f));
  }
  return results;
}

/** jscodeshift, loaded with its parsers and recast by the first rewrite: a run with nothing to rewrite needs none of them. */
const requireHere = createRequire(import.meta.url);

function rewrite(text: string, plan: FilePlan, trace: UnitTrace | undefined): string {
  const jscodeshift = requireHere('jscodeshift') as typeof import('jscodeshift');
  const j = jscodeshift.withParser(rewriteParser(plan.file));
  const out = applyPlan(text, plan, { jscodeshift: j, j, stats: () => {}, report: () => {} }, trace);
  // Never hand back something that does not parse.
  try {
    parseOnly(plan.file, out);
  } catch (error) {
    throw new Error(`the rewritten code would not parse (${(error as Error).message})`);
  }
  return out;
}
