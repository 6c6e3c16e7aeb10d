/**
 * One migration run over a set of source files, entirely in memory:
 * upgrade (official v1-to-v2 codemod) → analysis (ts-morph) → plan (plain data) → rewrite (jscodeshift) → report.
 * Nothing here writes to disk; the CLI decides whether to print a diff or write the changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import jscodeshift from 'jscodeshift';
import { Node, SyntaxKind, ts, type Project, type SourceFile } from 'ts-morph';
import { analyzeProject } from './analysis/index.js';
import { hoistAwaits, type Hoisting } from './analysis/hoist.js';
import { analysisProject, forgetProjectFiles, needsNodeDeclarations, setText, sharedAnalysisProject } from './analysis/project.js';
import { importBindings, selfCheck, type ImportBindings, type SelfCheckOptions } from './analysis/selfCheck.js';
import { inliningSteps, type Exclusion, type Inlining, type Refusal, type SetterExport, type Split } from './analysis/inline.js';
import { splitModules, splitOrdinalAt } from './analysis/cacheFiller.js';
import { enclosingFunction, registrationOf } from './analysis/sites.js';
import { MARKER_PREFIX } from './analysis/index.js';
import { owningManifest, planManifestChanges } from './manifest.js';
import { isEmptyPlan, type FilePlan } from './plan.js';
import { movedNote, positionMapper, type Position } from './positions.js';
import { anchorsIn, requestAnchor, type RequestAnchor } from './rewrittenAt.js';
import { DEPRECATED_KINDS, emptyReport, unchangedFile, type Report, type SiteReport, type UpgradeNote } from './report.js';
import { isStateModuleFile, STATE_KEY_ENV } from './stateModule.js';
import { missingStateModules, placedStateModules } from './stateModuleWrites.js';
import { placeStateModules, stateModuleFor, type StateModules } from './stateModulePlaces.js';
import { importersOfRequestAliases, MAX_INLINE_DEPTH, mayMakeRequests, MCP_TEXT, TRIGGER_PATTERN, worthAnalysing, ZOD_IMPORT } from './triggers.js';
import { SDK_V1_FRAMEWORKS } from './tables/frameworks.js';
import { oneLine, syntaxErrors, upgradeV1, upgradeZodOnly, V1_IMPORT } from './upgrade/index.js';
import { applyPlan, parserFor } from '../transforms/mrtr.js';
import { parseOnly } from './rewrite/parsers.js';
import { resolveThroughPaths } from './analysis/tsconfigPaths.js';


/** A relative import, re-export or require: a file that may call a helper of another file. */
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]\.{1,2}\//;
/** A method called through this: a class's handler may reach a request in a method another file declares (a subclass's override). */
const THIS_CALL = /\bthis(?:\.[\w$]+)+\s*\(/;

/** Whether a file imports a module of its own project through a tsconfig.json `paths` alias (`@shared/ask.js`). */
function importsThroughPaths(sf: SourceFile): boolean {
  return sf.getImportDeclarations().some(d => resolveThroughPaths(sf.getFilePath(), d.getModuleSpecifierValue()) !== undefined);
}

export interface SourceInput {
  /** Absolute path. */
  path: string;
  text: string;
}

export interface FileChange {
  /** Absolute path. */
  path: string;
  /** `null` for a file the run creates. */
  before: string | null;
  after: string;
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
}

export async function migrateSources(files: SourceInput[], options: MigrateOptions): Promise<MigrateResult> {
  const candidates = worthAnalysing(files);
  const state = placeStateModules(options.stateModuleCandidates ?? candidates, options.cwd);
  return finishRun([migrateGroup(candidates, state, options)], files, state, options);
}

/**
 * Upgrade, analyse and rewrite `candidates` (files `worthAnalysing` kept), which must be closed under the
 * imports between candidates (a group of `partitionCandidates`, or all of them): files outside the group are
 * seen by the type checker only as they are on disk.
 */
export function migrateGroup(candidates: SourceInput[], state: StateModules, options: MigrateOptions): GroupResult {
  const report = emptyReport();
  const rel = (p: string) => path.relative(options.cwd, p) || path.basename(p);
  if (candidates.length === 0) return { changes: [], report, usedStateModules: [] };

  // A shebang is not JavaScript: every stage sees the text without it, the result gets it back.
  const shebangs = new Map<string, string>();
  const current = new Map<string, string>();
  for (const f of candidates) {
    const match = /^#![^\n]*\n?/.exec(f.text);
    if (match) shebangs.set(f.path, match[0]);
    current.set(f.path, match ? f.text.slice(match[0].length) : f.text);
  }

  // 1. Upgrade SDK 1.x files with the official codemod (in memory). A file it fails on stays on 1.x, as it
  //    was: rewriting its handlers would mix 1.x imports with 2.x code.
  if (options.upgradeV1 !== false && !options.sitesOnly) {
    let failed: Map<string, string>;
    try {
      const keptOnV1 = keptOnSdkV1(candidates, rel);
      report.notes.push(...keptOnV1.values());
      const upgraded = upgradeV1(candidates.filter(f => !keptOnV1.has(f.path)).map(f => ({ path: f.path, text: current.get(f.path)! })));
      for (const [p, text] of upgraded.texts) current.set(p, text);
      // Its findings are at lines of the text it was given: the file's, less a shebang.
      const inGiven = (n: UpgradeNote): UpgradeNote => ({ ...n, line: n.line + (shebangs.has(n.file) ? 1 : 0) });
      report.upgrade.push(...upgraded.notes.map(n => ({ ...inGiven(n), file: rel(n.file) })));
      failed = upgraded.failed;
    } catch (error) {
      failed = new Map(candidates.filter(f => V1_IMPORT.test(f.text)).map(f => [f.path, `the official v1-to-v2 codemod failed (${oneLine(error)})`]));
    }
    for (const [file, why] of failed) {
      report.files.push({ file: rel(file), outcome: 'error', reason: `${rel(file)}: not migrated, left as it was: ${why}` });
      current.delete(file);
    }
  }

  // 2. Analysis over the (upgraded) candidates.
  // Diagnostics must come fast: a run whose files cannot reach Node's declarations is analysed without them.
  const project = options.sitesOnly ? sharedAnalysisProject({ nodeTypes: needsNodeDeclarations(current.values()) }) : analysisProject();
  // A shared project holds what an earlier run left only if that run failed half-way.
  if (options.sitesOnly) forgetProjectFiles(project);
  const sourceFiles = [];
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
    const syntax = syntaxErrors(sf);
    if (syntax.length > 0) {
      const d = syntax[0]!;
      const { line, character } = ts.getLineAndCharacterOfPosition(sf.compilerNode, d.start ?? 0);
      broken.add(sf.getFilePath());
      report.files.push({ file: rel(sf.getFilePath()), outcome: 'error', reason: `${rel(sf.getFilePath())}:${line + 1}:${character + 1} cannot be parsed: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}` });
    }
  }
  const healthy = (sf: { getFilePath(): string }) => !broken.has(sf.getFilePath());
  // 2. Helpers that await a request are inlined into the handlers calling them (inlineGroup), then
  // analysed with them. A call is pasted only where it is then migrated: when the analysis leaves a
  // handler it was pasted into unmigrated (or every request it brought in as it is), the stage runs
  // again from the upgraded texts without that call, which is marked with why.
  const healthyFiles = sourceFiles.filter(healthy);
  const upgraded = new Map<string, string>(healthyFiles.map(sf => [sf.getFilePath(), sf.getFullText()]));
  const excluded = new Map<string, Map<number, Exclusion | null>>();
  // Sites are found in the analysed text (upgraded, without shebang); report them where the user wrote them.
  const mappers = new Map<string, (p: Position) => Position>();
  const hoisted = new Map<string, Hoisting>();
  /** From the analysed text of a candidate (by its path relative to the cwd) to the text as given. */
  const toOriginalOf = (relative: string): { file: SourceInput; map: (p: Position) => Position } | undefined => {
    const file = candidates.find(f => rel(f.path) === relative);
    if (!file) return undefined;
    let toOriginal = mappers.get(file.path);
    if (!toOriginal) {
      const h = hoisted.get(file.path);
      const fromBefore = positionMapper(file.text, h ? h.before : current.get(file.path)!);
      mappers.set(file.path, (toOriginal = h ? p => fromBefore(h.toBefore(p)) : fromBefore));
    }
    return { file, map: toOriginal };
  };
  const inOriginal = (site: SiteReport): SiteReport => {
    const found = toOriginalOf(site.file);
    if (!found) return site;
    const { file, map: toOriginal } = found;
    const p = toOriginal({ line: site.line - 1, character: site.column - 1 });
    const callee = /^[\w$.]+/.exec(file.text.split('\n')[p.line]?.slice(p.character) ?? '')?.[0];
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
  let inlining: GroupInlining;
  let analysis: ReturnType<typeof analyzeProject>;
  let aliasUsers: Set<string>;
  for (let round = 0; ; round++) {
    inlining = inlineGroup(healthyFiles, excluded, rel, current);
    // A file calling a request method a module exports under another name (`ask(...)`) may name no trigger.
    aliasUsers = importersOfRequestAliases(sourceFiles.map(sf => ({ path: sf.getFilePath(), text: sf.getFullText() })));
    const analyzed = sourceFiles.filter(sf => mayMakeRequests(sf.getFullText(), aliasUsers.has(sf.getFilePath())));
    // Awaits of requests inside expressions become statements of their own, which the analysis splits.
    for (const sf of analyzed.filter(healthy)) {
      if (options.onlyHandlerAt && options.onlyHandlerAt.path !== sf.getFilePath()) continue;
      try {
        const done = hoistAwaits(sf, options.onlyHandlerAt && inAnalysed(options.onlyHandlerAt)?.offset);
        if (done) {
          current.set(sf.getFilePath(), done.text);
          hoisted.set(sf.getFilePath(), done);
        }
      } catch (error) {
        inlining.notes.push(`${rel(sf.getFilePath())}: awaits in expressions not hoisted (${oneLine(error)})`);
      }
    }
    analysis = analyzeProject(project, {
      cwd: options.cwd,
      stateModuleFor: file => stateModuleFor(state, file).path,
      files: analyzed.filter(healthy),
      mcpFiles: healthyFiles,
      onlyHandlerAt: options.onlyHandlerAt && inAnalysed(options.onlyHandlerAt),
      hoisted: new Map([...hoisted].map(([file, h]) => [file, h.sites])),
      beforeUpgrade: options.sitesOnly,
      inlined: inlining.helpers,
      split: countSplits(inlining.splits),
    });
    const unmigrated = round < 2 ? unmigratedInlining(project, analysis, inlining.firstPass, rel) : new Map();
    if (round < 2) for (const [file, calls] of unmigratedSplits(analysis, inlining.splits)) unmigrated.set(file, new Map([...(unmigrated.get(file) ?? []), ...calls]));
    if (unmigrated.size === 0) break;
    for (const [file, calls] of unmigrated) excluded.set(file, new Map([...(excluded.get(file) ?? []), ...calls]));
    for (const sf of healthyFiles) {
      setText(sf, upgraded.get(sf.getFilePath())!);
      current.set(sf.getFilePath(), upgraded.get(sf.getFilePath())!);
    }
    hoisted.clear();
    mappers.clear();
  }
  // Notes that name a line name it in the text as given: the analysis's in the analysed text, the inlining's in the upgraded one.
  const upgradedToOriginal = (relative: string) => {
    const file = candidates.find(f => rel(f.path) === relative);
    return file && upgraded.has(file.path) ? positionMapper(file.text, upgraded.get(file.path)!) : undefined;
  };
  report.notes.push(...inlining.notes.map(note => movedNote(note, upgradedToOriginal)));
  // A request inlined from a helper is reported where the user wrote the helper's call.
  // So is a request of a cache filler's split call (src/analysis/cacheFiller.ts).
  const atInlinedCall = (site: SiteReport): SiteReport | undefined => {
    const file = candidates.find(f => rel(f.path) === site.file);
    const sf = file && project.getSourceFile(file.path);
    const calls = file && inlining.firstPass.get(file.path);
    const splits = (file && inlining.splits.get(file.path)?.filter(s => s.call >= 0)) ?? [];
    if (!file || !sf || (!calls?.size && splits.length === 0)) return undefined;
    const node = sf.getDescendantAtPos(sf.compilerNode.getPositionOfLineAndCharacter(site.line - 1, site.column - 1));
    const block = node?.getAncestors().find(a => Node.isLabeledStatement(a) && calls?.has(a.getLabel().getText()));
    const split = node && splits.length > 0 ? splitOrdinalAt(node, new Set(splits.map(s => s.read))) : undefined;
    const offset = block && Node.isLabeledStatement(block) ? calls!.get(block.getLabel().getText()) : split !== undefined ? splits[split]?.call : undefined;
    if (offset === undefined) return undefined;
    const before = upgraded.get(file.path)!;
    const lines = before.slice(0, offset).split('\n');
    const p = positionMapper(file.text, before)({ line: lines.length - 1, character: lines.at(-1)!.length });
    const callee = /^[\w$.]+/.exec(file.text.split('\n')[p.line]?.slice(p.character) ?? '')?.[0];
    return { ...site, line: p.line + 1, column: p.character + 1, call: callee ? `${callee}(...)` : site.call };
  };
  // A rewritten request's place in the new text, found once the file is rewritten (src/rewrittenAt.ts).
  const anchors = new Map<SiteReport, { path: string; anchor: RequestAnchor }>();
  const anchorOf = (site: SiteReport): { path: string; anchor: RequestAnchor } | undefined => {
    const file = site.outcome === 'rewritten' ? candidates.find(f => rel(f.path) === site.file) : undefined;
    const sf = file && project.getSourceFile(file.path);
    if (!file || !sf) return undefined;
    const anchor = requestAnchor(analysis.plans.find(p => p.file === file.path), sf.compilerNode.getPositionOfLineAndCharacter(site.line - 1, site.column - 1));
    return anchor && { path: file.path, anchor };
  };
  for (const site of analysis.sites) {
    const reported = atInlinedCall(site) ?? inOriginal(site);
    const anchor = anchorOf(site);
    if (anchor) anchors.set(reported, anchor);
    report.sites.push(reported);
  }
  // A helper call not inlined carries a marker above it: one report line per marker.
  for (const [file, list] of inlining.refusals) report.sites.push(...refusalSites(project.getSourceFile(file)!, current.get(file)!, list).map(site => inOriginal({ ...site, file: rel(file) })));
  report.notes.push(...analysis.notes.map(note => movedNote(note, relative => toOriginalOf(relative)?.map)));
  if (options.sitesOnly) {
    // Forgotten once the caller has the report (forgetting walks every node: a quarter of a second on 2,000
    // lines an editor's diagnostics would wait for); a run that starts first forgets them itself.
    setImmediate(() => forgetProjectFiles(project));
    return { changes: [], report, usedStateModules: [] };
  }

  // 3. Rewrite each planned file, and check the result; a failure leaves that file as it was.
  const plans = new Map<string, FilePlan>(analysis.plans.filter(p => !isEmptyPlan(p)).map(p => [p.file, p]));
  const changes: FileChange[] = [];
  const usedStateModules = new Set<string>();
  const planned = candidates.filter(f => !broken.has(f.path) && current.has(f.path) && plans.has(f.path));
  const checked = rewriteChecked(planned.map(f => {
    const plan = plans.get(f.path)!;
    const onlyHandlers = options.onlyHandlerAt && new Set(plan.handlers.map(h => h.label));
    return { sf: project.getSourceFile(f.path)!, text: current.get(f.path)!, plan, onlyHandlers, importsRequestAliases: aliasUsers.has(f.path) };
  }));
  for (const f of candidates) {
    if (broken.has(f.path) || !current.has(f.path)) continue;
    const plan = plans.get(f.path);
    const rewritten = checked.get(f.path) ?? { text: current.get(f.path)! };
    if ('error' in rewritten) {
      report.files.push({ file: rel(f.path), outcome: 'error', reason: `${rel(f.path)}: not rewritten, left as it was: ${rewritten.error}` });
      for (const site of report.sites) if (site.file === rel(f.path) && site.outcome === 'rewritten') Object.assign(site, { outcome: 'skipped', reason: `the rewrite of this file failed: ${rewritten.error}`, cause: 'the rewrite of its file failed' });
      continue;
    }
    if (plan && plan.handlers.length > 0) usedStateModules.add(stateModuleFor(state, f.path).path);
    const mine = [...anchors].filter(([, a]) => a.path === f.path);
    anchorsIn(current.get(f.path)!, rewritten.text, mine.map(([, a]) => a.anchor)).forEach((at, i) => {
      if (at) mine[i]![0].rewrittenAt = { line: at.line + 1 + (shebangs.has(f.path) ? 1 : 0), column: at.character + 1 };
    });
    const after = (shebangs.get(f.path) ?? '') + rewritten.text;
    if (after !== f.text) {
      changes.push({ path: f.path, before: f.text, after });
      report.files.push({ file: rel(f.path), outcome: 'changed' });
    } else {
      report.files.push({ file: rel(f.path), outcome: 'unchanged' });
    }
  }

  return { changes, report, usedStateModules: [...usedStateModules] };
}

/**
 * A report line per marker of a helper call not inlined, at the call below it, in the analysed text. The
 * same reason can mark calls in several handlers (two tools calling one helper): each line names the
 * handler its call is in.
 */
function refusalSites(sf: SourceFile, text: string, refusals: Refusal[]): Omit<SiteReport, 'file'>[] {
  const sites: Omit<SiteReport, 'file'>[] = [];
  for (const r of new Map(refusals.map(x => [x.reason, x])).values()) {
    const marker = `// ${MARKER_PREFIX} ${r.reason}`;
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
      const next = text.indexOf('\n', at);
      const statement = next < 0 ? at : next + 1 + /^[ \t]*/.exec(text.slice(next + 1))![0].length;
      const call = text.indexOf(r.call.replace(/\.\.\.\)$/, ''), statement);
      const start = call >= 0 && call - statement < 400 ? call : statement;
      const label = handlerLabelAt(sf.getDescendantAtPos(start));
      const own = refusals.find(x => x.reason === r.reason && x.handler === label) ?? r;
      const { line, column } = sf.getLineAndColumnAtPos(start);
      sites.push({ line, column, kind: own.kind, call: own.call, outcome: 'marked', reason: own.reason, handler: own.handler, shape: 'helper', cause: own.cause });
    }
  }
  return sites;
}

/** The label of the handler a node is in (through callbacks nested in it), if any. */
function handlerLabelAt(node: Node | undefined): string | undefined {
  for (let fn = node && enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    const registration = registrationOf(fn);
    if (registration) return registration.label;
  }
  return undefined;
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

/** One round of inlining over a group's files: what the report says of it, and where its first pass put its blocks. */
interface GroupInlining {
  refusals: Map<string, Refusal[]>;
  notes: string[];
  /** Per helper (helperKey), how many of its calls were inlined. */
  helpers: Map<string, number>;
  /** Per file, the label of each block the first pass put in place of a call, with where that call was. */
  firstPass: Map<string, Map<string, number>>;
  /** Per handler file, the calls of cache fillers its first pass split (src/analysis/cacheFiller.ts). */
  splits: Map<string, Split[]>;
}

/**
 * Inlines the helpers of `files` (src/analysis/inline.ts), in the project and in `current`: a helper
 * calling a helper takes another pass (a few at most: recursion is never inlined); `excluded` calls
 * (positions in the upgraded texts) are not inlined. A handler's file may name no trigger and import
 * its helper from another file. A module-level declaration an inlined helper uses, which its module
 * did not export, is exported, so the handler's file can import it (that module is otherwise left as it is).
 */
function inlineGroup(files: SourceFile[], excluded: ReadonlyMap<string, ReadonlyMap<number, Exclusion | null>>, rel: (p: string) => string, current: Map<string, string>): GroupInlining {
  const round: GroupInlining = { refusals: new Map(), notes: [], helpers: new Map(), firstPass: new Map(), splits: new Map() };
  const toExport: { file: string; name: string; into: string; setter?: SetterExport }[] = [];
  const splitNames = new Map<string, import('./analysis/cacheFiller.js').SplitNames>();
  const worth = files.filter(sf => {
    const text = sf.getFullText();
    return TRIGGER_PATTERN.test(text) || RELATIVE_SPECIFIER.test(text) || THIS_CALL.test(text) || importsThroughPaths(sf);
  });
  const perFile = inLockstep(worth.map(sf => ({ sf, steps: fileInlining(sf, excluded.get(sf.getFilePath()), splitNames, rel) })));
  // Gathered in the files' order, as when each file was inlined in turn.
  for (const [i, sf] of worth.entries()) {
    const file = sf.getFilePath();
    const done = perFile[i]!;
    for (const e of done.exports) if (!toExport.some(x => x.file === e.file && x.name === e.name)) toExport.push({ ...e, into: file });
    if (done.refusals.length > 0) round.refusals.set(file, done.refusals);
    if (done.firstPass) round.firstPass.set(file, done.firstPass);
    if (done.splits.length > 0) round.splits.set(file, done.splits);
    for (const [helper, calls] of done.helpers) round.helpers.set(helper, (round.helpers.get(helper) ?? 0) + calls);
    round.notes.push(...done.notes);
    if (done.text !== undefined) current.set(file, done.text);
  }
  for (const { file, text, note } of splitModules(files, [...round.splits].flatMap(([into, list]) => list.map(split => ({ ...split, into }))), rel)) {
    if (text !== undefined) current.set(file, text);
    round.notes.push(note);
  }
  for (const { file, name, into, setter } of toExport) {
    const module = files.find(f => f.getFilePath() === file);
    if (module && setter) {
      const added = addSetter(module, name, setter);
      if (added) current.set(file, module.getFullText());
      round.notes.push(
        added
          ? `${rel(file)}: ${name}() added beside ${setter.variable} and exported, for the helper inlined into ${rel(into)} that assigns ${setter.variable} (an imported binding cannot be assigned)`
          : `${rel(file)}: ${name}() could not be added beside ${setter.variable} for the helper inlined into ${rel(into)} that assigns it; add it by hand`
      );
      continue;
    }
    const declaration = module && exportableDeclaration(module, name);
    if (!module || !declaration) {
      round.notes.push(`${rel(file)}: ${name} could not be exported for the helper inlined into ${rel(into)}; export it by hand`);
      continue;
    }
    if (declaration.isExported()) continue;
    declaration.setIsExported(true);
    current.set(file, module.getFullText());
    round.notes.push(`${rel(file)}: ${name} exported, for the helper inlined into ${rel(into)} that uses it`);
  }
  return round;
}

/** What inlining one file's helpers, pass after pass, gave. */
interface FileInlining {
  exports: Inlining['exports'];
  refusals: Refusal[];
  /** The first pass's blocks (label → where the call was), undefined when the first pass failed. */
  firstPass: Map<string, number> | undefined;
  splits: Split[];
  helpers: Map<string, number>;
  notes: string[];
  /** The file's text after the last pass that changed it. */
  text: string | undefined;
}

/**
 * One file's passes of inlining (src/analysis/inline.ts), as steps: each yields the text the file must
 * have before the next step (inLockstep sets it). A helper calling a helper takes another pass (a few at
 * most: recursion is never inlined).
 */
function* fileInlining(sf: SourceFile, excluded: ReadonlyMap<number, Exclusion | null> | undefined, splitNames: Map<string, import('./analysis/cacheFiller.js').SplitNames>, rel: (p: string) => string): Generator<string, FileInlining, void> {
  const file = sf.getFilePath();
  const done: FileInlining = { exports: [], refusals: [], firstPass: undefined, splits: [], helpers: new Map(), notes: [], text: undefined };
  const importedBefore = new Set(sf.getImportDeclarations().map(d => d.getModuleSpecifierValue()));
  let exclude = excluded;
  for (let pass = 0; pass < MAX_INLINE_DEPTH; pass++) {
    let inlining: Inlining;
    try {
      inlining = yield* inliningSteps(sf, { depth: MAX_INLINE_DEPTH - pass, rel, importedBefore, exclude, splitNames });
    } catch (error) {
      done.notes.push(`${rel(file)}: helpers not inlined (${oneLine(error)})`);
      break;
    }
    done.exports.push(...inlining.exports);
    done.refusals.push(...inlining.refusals);
    if (pass === 0) done.firstPass = new Map(inlining.inlined.map(i => [i.label, i.call]));
    // A split made by a later pass is in a helper's inlined block, which is excluded with its block.
    done.splits.push(...inlining.splits.map(x => (pass === 0 ? x : { ...x, call: -1 })));
    if (inlining.text === undefined) break;
    for (const [helper, calls] of inlining.helpers) done.helpers.set(helper, (done.helpers.get(helper) ?? 0) + calls);
    exclude = inlining.excluded;
    done.notes.push(...inlining.notes);
    done.text = inlining.text;
  }
  return done;
}

/**
 * Runs the files' steps side by side: every file's next text is set before any of them goes on, so one
 * type checker serves a step of all of them (setting a text throws the checker away; interleaved, each
 * file would build its own). What one file's step does never depends on another's being done first:
 * a pass edits only its own file's handlers, and a helper it pastes is read from its own module.
 */
function inLockstep<T>(runs: { sf: SourceFile; steps: Generator<string, T, void> }[]): T[] {
  const results: T[] = [];
  let pending = runs.map((run, i) => ({ ...run, i, step: run.steps.next() }));
  while (pending.length > 0) {
    for (const p of pending) if (p.step.done) results[p.i] = p.step.value;
    pending = pending.filter(p => !p.step.done);
    for (const p of pending) setText(p.sf, p.step.value as string);
    for (const p of pending) p.step = p.steps.next();
  }
  return results;
}

/**
 * A setter, exported, put on the lines after its variable's statement (src/analysis/moduleSetters.ts);
 * false when the variable's statement is not at module level, or the name is taken already.
 */
function addSetter(module: SourceFile, name: string, setter: SetterExport): boolean {
  const statement = module.getVariableStatement(setter.variable);
  if (!statement || module.getLocal(name)) return false;
  const full = module.getFullText();
  const eol = full.includes('\r\n') ? '\r\n' : '\n';
  let at = full.indexOf('\n', statement.getEnd());
  if (at < 0) at = full.length;
  else if (full[at - 1] === '\r') at--;
  // A blank line before it, and after it when the next line is not one already.
  const nextLine = full.slice(at).replace(/^\r?\n/, '');
  const after = nextLine === '' || /^[ \t]*\r?\n/.test(nextLine) ? '' : eol;
  module.insertText(at, `${eol}${eol}${setter.text}${after}`);
  return true;
}

/** Per cache filler (helperKey), how many of its handler calls were split. */
function countSplits(splits: Map<string, Split[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const split of [...splits.values()].flat()) counts.set(split.key, (counts.get(split.key) ?? 0) + 1);
  return counts;
}

/**
 * The split calls of cache fillers whose handler the analysis did not migrate, with why: next round they
 * are left as they were, marked (a split is made only where the handler then asks with input_required).
 */
function unmigratedSplits(analysis: ReturnType<typeof analyzeProject>, splits: Map<string, Split[]>): Map<string, Map<number, Exclusion>> {
  const found = new Map<string, Map<number, Exclusion>>();
  for (const [file, list] of splits) {
    const handlers = analysis.plans.find(p => p.file === file)?.handlers ?? [];
    for (const split of list) {
      if (split.call < 0 || handlers.some(h => h.label === split.handler)) continue;
      const reason = `${split.handler} could not be migrated`;
      found.set(file, (found.get(file) ?? new Map()).set(split.call, { reason, cause: 'split, its handler could not be migrated' }));
    }
  }
  return found;
}

/**
 * The calls the first pass of inlining put in place whose code the analysis did not migrate, with why:
 * pasted into a handler it leaves unmigrated, or every request they brought in left as it is. Null for
 * a handler the run was not asked to migrate (an editor's "this handler"): not inlined, not marked.
 */
function unmigratedInlining(project: Project, analysis: ReturnType<typeof analyzeProject>, firstPass: Map<string, Map<string, number>>, rel: (p: string) => string): Map<string, Map<number, Exclusion | null>> {
  const found = new Map<string, Map<number, Exclusion | null>>();
  for (const [file, labels] of firstPass) {
    const sf = project.getSourceFile(file);
    if (!sf || labels.size === 0) continue;
    const handlers = analysis.plans.find(p => p.file === file)?.handlers ?? [];
    const sites = analysis.sites.filter(s => s.file === rel(file)).map(s => ({ site: s, at: sf.compilerNode.getPositionOfLineAndCharacter(s.line - 1, s.column - 1) }));
    for (const block of sf.getDescendantsOfKind(SyntaxKind.LabeledStatement)) {
      const call = labels.get(block.getLabel().getText());
      const handler = enclosingFunction(block);
      if (call === undefined || !handler) continue;
      const inside = (n: { getStart(): number; getEnd(): number }) => ({ at }: { at: number }) => n.getStart() <= at && at < n.getEnd();
      const plan = handlers.find(h => h.fn.start === handler.getStart() && h.fn.end === handler.getEnd());
      const within = (r: { start: number; end: number }) => block.getStart() <= r.start && r.end <= block.getEnd();
      if (plan?.suspensions.some(s => s.requests.some(r => within(r.replace)))) continue;
      const own = sites.filter(inside(handler));
      if (own.length > 0 && own.every(({ site }) => site.outcome === 'skipped')) {
        found.set(file, (found.get(file) ?? new Map()).set(call, null));
        continue;
      }
      // Why: the handler's, the requests' from the block, or a helper call in it that was not inlined.
      const why = (plan ? undefined : own.find(({ site }) => site.outcome === 'marked')?.site.cause?.replace(/^handler not migrated: /, '')) ??
        sites.filter(inside(block)).find(({ site }) => site.outcome === 'marked')?.site.cause ??
        /\/\/ mcp-migrate: ([^\n]*)/.exec(block.getText())?.[1] ??
        'none of its requests could be migrated';
      const label = registrationOf(handler)?.label ?? 'the handler';
      const exclusion = plan
        ? { reason: `inlined, its requests would be left as they are in ${label} (${why})`, cause: 'inlined, its requests would be left as they are' }
        : { reason: `inlined, ${label} could not be migrated (${why})`, cause: 'inlined, its handler could not be migrated' };
      found.set(file, (found.get(file) ?? new Map()).set(call, exclusion));
    }
  }
  return found;
}

/**
 * What is decided once per run, after every group: the requestState module (created once, where
 * `placeStateModule` put it), the notes it needs, and package.json of each package that owns a changed
 * file (src/manifest.ts; lockfiles are left alone). `files`: every source of the run, for the manifests.
 */
export function finishRun(groups: GroupResult[], files: SourceInput[], state: StateModules, options: MigrateOptions): MigrateResult {
  const { cwd } = options;
  const rel = (p: string) => path.relative(cwd, p) || path.basename(p);
  const report = emptyReport();
  const changes: FileChange[] = [];
  for (const g of groups) {
    changes.push(...g.changes);
    report.sites.push(...g.report.sites);
    report.files.push(...g.report.files);
    report.upgrade.push(...g.report.upgrade);
    report.notes.push(...g.report.notes);
  }
  // The same report whatever the grouping: sites in file order, notes about a file with that file.
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  report.sites.sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line || a.column - b.column);
  for (const site of report.sites) if (DEPRECATED_KINDS[site.kind]) site.deprecated = DEPRECATED_KINDS[site.kind];
  const noteFile = (note: string) => /^([^\s:]+\.[cm]?[jt]sx?):/.exec(note)?.[1] ?? '\uffff';
  report.upgrade.sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line);
  report.notes = [...new Set(report.notes)].sort((a, b) => byCodePoint(noteFile(a), noteFile(b)));
  const inGroups = new Set(report.files.map(f => f.file));
  for (const f of files) if (!inGroups.has(rel(f.path))) report.files.push(unchangedFile(f.path, cwd));

  const used = new Set(groups.flatMap(g => g.usedStateModules));
  const placed = placedStateModules(state.places.filter(p => used.has(p.path)), changes, rel);
  for (const file of placed.created) {
    changes.push({ path: file.path, before: null, after: file.text });
    report.created.push(rel(file.path));
  }
  report.notes.push(...placed.notes);
  if (used.size > 0) {
    // Under stdio every round returns to the process that sealed it; over HTTP any instance may get the retry.
    report.notes.push(
      changes.some(c => /\bcreateMcpHandler\(/.test(c.after))
        ? `set ${STATE_KEY_ENV} to a secret of at least 32 bytes, the same on every instance, before serving over HTTP (it seals requestState; under stdio none is needed): see mcp-migrate's docs/deployment.md`
        : `under stdio requestState is sealed with a key of the process's own; over HTTP set ${STATE_KEY_ENV} to a secret of at least 32 bytes (see mcp-migrate's docs/deployment.md)`
    );
    report.notes.push('the migrated code imports @modelcontextprotocol/server 2.x: add it to package.json and install');
  }

  const finalText = new Map(files.map(f => [f.path, f.text]));
  for (const c of changes) finalText.set(c.path, c.after);
  // A run after an interrupted one: handlers it rewrote may import a requestState module it never wrote, a module
  // the seal beside it (an existing module is read even when the run was not given it).
  const imports = new Map(finalText);
  for (const place of state.places) if (place.exists && !imports.has(place.path) && fs.existsSync(place.path)) imports.set(place.path, fs.readFileSync(place.path, 'utf8'));
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
  });
  if (manifests.changes.length > 0) {
    changes.push(...manifests.changes);
    report.notes = report.notes.filter(n => !n.startsWith('the migrated code imports @modelcontextprotocol/server 2.x'));
  }
  report.notes.push(...manifests.notes);
  if (options.upgradeV1 !== false) upgradeZodUsers(files, finalText, manifests.zodToRaise, { changes, report }, cwd);
  report.files.sort((a, b) => a.file.localeCompare(b.file));
  return { changes, report };
}

/**
 * The files of a package whose zod the run asks to raise to 4 that import zod and did not import SDK 1.x (a
 * schemas module): upgradeV1 repaired the zod 3 calls of SDK 1.x files, these get the same repairs (src/upgrade).
 */
function upgradeZodUsers(files: SourceInput[], finalText: ReadonlyMap<string, string>, zodToRaise: string[], run: MigrateResult, cwd: string): void {
  if (zodToRaise.length === 0) return;
  const { changes, report } = run;
  const raised = new Set(zodToRaise);
  const exists = (p: string) => fs.existsSync(p);
  const users = files
    .filter(f => !V1_IMPORT.test(f.text) && ZOD_IMPORT.test(finalText.get(f.path)!) && raised.has(owningManifest(f.path, cwd, exists) ?? ''))
    .map(f => ({ path: f.path, text: finalText.get(f.path)! }));
  const upgraded = upgradeZodOnly(users);
  for (const [p, after] of upgraded.texts) {
    const change = changes.find(c => c.path === p);
    if (change) change.after = after;
    else changes.push({ path: p, before: finalText.get(p)!, after });
  }
  report.upgrade.push(...upgraded.notes.map(n => ({ ...n, file: path.relative(cwd, n.file) || path.basename(n.file) })));
  report.upgrade.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** The top-level statement of `module` declaring `name` on its own, which `export` can be put before. */
function exportableDeclaration(module: SourceFile, name: string) {
  const statement = module.getVariableStatement(name);
  if (statement) return statement.getDeclarations().length === 1 ? statement : undefined;
  return module.getFunction(name) ?? module.getClass(name) ?? module.getEnum(name) ?? module.getInterface(name) ?? module.getTypeAlias(name);
}

/**
 * The files' rewrites, checked (src/analysis/selfCheck.ts) in the analysis project they were planned in;
 * each source file is left holding its rewritten text. A rewrite that throws or fails the check is an
 * error, and its file gets its text back. Every rewritten text is set before any is checked, so one
 * type checker serves all the checks (setting a text throws the checker away); once a file fails and is
 * put back, the others are checked again without it.
 */
function rewriteChecked(files: ({ sf: SourceFile; text: string; plan: FilePlan } & SelfCheckOptions)[]): Map<string, { text: string } | { error: string }> {
  const results = new Map<string, { text: string } | { error: string }>();
  let toCheck: ({ sf: SourceFile; text: string; out: string; before: ImportBindings } & SelfCheckOptions)[] = [];
  for (const { sf, text, plan, ...checkOptions } of files) {
    try {
      toCheck.push({ sf, text, out: rewrite(text, plan), before: importBindings(sf), ...checkOptions });
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
      results.set(f.sf.getFilePath(), { error: `the rewrite failed its own check (${shown.join('; ')}${failures.length > 3 ? `; and ${failures.length - 3} more` : ''}); please report it` });
    }
    if (failed.length === 0) for (const f of toCheck) results.set(f.sf.getFilePath(), { text: f.out });
    toCheck = failed.length === 0 ? [] : toCheck.filter(f => !failed.some(x => x.f === f));
  }
  return results;
}

function rewrite(text: string, plan: FilePlan): string {
  const j = jscodeshift.withParser(parserFor(plan.file));
  const out = applyPlan(text, plan, { jscodeshift: j, j, stats: () => {}, report: () => {} });
  // Never hand back something that does not parse.
  try {
    parseOnly(plan.file, out);
  } catch (error) {
    throw new Error(`the rewritten code would not parse (${(error as Error).message})`);
  }
  return out;
}
