/**
 * Analysis: from a ts-morph project to one plan per file and the site lines of the report.
 *
 * Each request to the client is found (src/analysis/sites.ts), followed up to the handlers that may run it
 * (src/find/reach.ts), and, when a tools/call, prompts/get or resources/read handler may, asked through
 * the requestState module where it is written; the registrations of those handlers make them resumable,
 * and the work they do before a question is journaled (src/effects). Whatever cannot ask is marked with
 * why. The server constructions, and the stdio and HTTP entries that serve them, are planned beside.
 */
import path from 'node:path';
import { Node, SyntaxKind, type CallExpression, type ImportDeclaration, type Project, type SourceFile } from 'ts-morph';
import { rangeOf, type FilePlan, type ServerWiringPlan } from '../plan.js';
import { shownPath, type SiteReport, type SiteShape } from '../report.js';
import { isStateModuleFile, STATE_MODULE_BASENAME } from '../stateModule.js';
import { COMMONJS_EXPORTS } from '../triggers.js';
import { Reacher, type HandlerReached, type NotAHandler } from '../find/reach.js';
import type { FoundCause } from '../tables/causes.js';
import { loopHead, planJournal } from '../effects/index.js';
import { calleesOf } from '../find/callees.js';
import { entryNames, httpEntryOf, httpTransports, transportName } from './httpEntry.js';
import { isMcpModule, serverKindOf, unwrap } from './mcpSymbols.js';
import { importsModule, stdioEntries } from './stdioEntry.js';
import { importedSourceFile } from './project.js';
import { resolveThroughPaths } from './tsconfigPaths.js';
import { eraTraps } from './eraTraps.js';
import { listChanges } from './listChanged.js';
import { loggingCalls, loggingFinding, type LoggingFinding } from './logging.js';
import { baseClassHelper, claimedByFramework, frameworkRequests } from './frameworks.js';
import { FRAMEWORK_HELPER_CALL_CAUSE, FRAMEWORK_HELPER_CAUSE } from '../tables/frameworks.js';
import { enclosingFunction, type FunctionLike } from './functions.js';
import { describeNonHandler, type NonHandler } from './nonHandlers.js';
import { findSites, isHandlerExtra, type Site } from './sites.js';

export const MARKER_PREFIX = 'mcp-migrate:';
export const V2_SERVER_MODULE = '@modelcontextprotocol/server';
/** The SDK 1.x package: what a file not yet upgraded imports its server pieces from. */
export const V1_SDK_MODULE = '@modelcontextprotocol/sdk';

export interface ProjectAnalysis {
  plans: FilePlan[];
  sites: SiteReport[];
  notes: string[];
}

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
}

/** A site line as the analysis finds it: a site left (marked or skipped) is reported with its cause. */
type SiteEntry = Omit<SiteReport, 'file' | 'line' | 'column' | 'cause' | 'causeId' | 'outcome'> &
  ({ outcome: 'rewritten'; cause?: undefined } | { outcome: 'marked' | 'skipped'; cause: FoundCause });

/** What one analysis records as it goes: the plans by file, the report's site lines, its notes. */
class Recorder {
  readonly plans = new Map<SourceFile, FilePlan>();
  readonly sites: SiteReport[] = [];
  readonly notes: string[] = [];

  constructor(private readonly options: AnalysisOptions) {}

  planFor(sf: SourceFile): FilePlan {
    let plan = this.plans.get(sf);
    if (!plan) this.plans.set(sf, (plan = emptyPlan(sf, this.options.stateModuleFor(sf.getFilePath()))));
    return plan;
  }

  rel(sf: SourceFile): string {
    return shownPath(this.options.cwd, sf.getFilePath());
  }

  /** A site line of the report for `node`, marked in its file when `outcome` is 'marked'. */
  site(node: Node, { cause, ...entry }: SiteEntry): void {
    const sf = node.getSourceFile();
    const { line, column } = sf.getLineAndColumnAtPos(node.getStart());
    const report: SiteReport = { file: this.rel(sf), line, column, ...entry, ...(cause ? { cause: cause.text, causeId: cause.id } : {}) };
    if (this.sites.some(s => s.file === report.file && s.line === line && s.column === column && s.reason === report.reason)) return;
    if (entry.outcome === 'marked') addMarker(this.planFor(sf), node, entry.reason);
    this.sites.push(report);
  }

  /** A note that names a line of a file. */
  note(node: Node, text: string): void {
    const sf = node.getSourceFile();
    const note = `${this.rel(sf)}:${sf.getLineAndColumnAtPos(node.getStart()).line}: ${text}`;
    if (!this.notes.includes(note)) this.notes.push(note);
  }
}

export function analyzeProject(project: Project, options: AnalysisOptions): ProjectAnalysis {
  const r = new Recorder(options);
  const reacher = new Reacher(project.getSourceFiles());
  const handlers = new Map<CallExpression, HandlerReached>();
  const asks = new Set<Node>();
  for (const sf of usersOwn(options.files))
    analysing(sf, r, () => {
      const viaFramework = options.onlyHandlerAt ? [] : frameworkRequests(sf);
      for (const request of viaFramework) {
        r.site(request.call, {
          kind: request.method.kind,
          call: callText(request.call),
          outcome: 'marked',
          reason: request.reason,
          handler: request.framework.name,
          shape: 'other',
          cause: request.cause,
        });
      }
      for (const site of findSites(sf).filter(s => !claimedByFramework(s.node, viaFramework))) {
        const reached = planSite(site, reacher, r, options);
        if (reached.length > 0) asks.add(site.node);
        for (const handler of reached) handlers.set(handler.registration, handler);
      }
    });
  if (!options.onlyHandlerAt) markRequestsOutsideRun(options, reacher, r);
  for (const handler of handlers.values()) {
    const receiver = unwrap(handler.registration.getExpression()).asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression();
    const plan = r.planFor(receiver.getSourceFile());
    if (!plan.registrations.some(x => x.receiver.start === receiver.getStart())) plan.registrations.push({ receiver: rangeOf(receiver) });
  }
  // (an editor's "this handler": only the code that handler runs)
  const asking = reacher.askingFunctions().filter(a => a.reach.handlers.some(h => handlers.has(h.registration)));
  const journal = planJournal(asking, asks);
  for (const work of journal.work)
    r.planFor(work.node.getSourceFile()).journaled.push({ range: rangeOf(work.node), ...(work.async ? { async: true } : {}) });
  for (const block of journal.guards) r.planFor(block.getSourceFile()).guards.push({ block: rangeOf(block) });
  for (const refusal of journal.refused)
    r.site(refusal.node, {
      kind: 'request',
      call: callText(refusal.node),
      outcome: 'marked',
      reason: refusal.reason,
      handler: refusal.handler,
      shape: 'other',
      cause: refusal.cause,
    });
  for (const note of journal.notes) r.note(note.node, note.text);
  planServing(project, options, r, handlers.size > 0, reacher);
  return { plans: [...r.plans.values()], sites: r.sites, notes: r.notes };
}

/**
 * One request: asked through the requestState module where a handler may run it (and that handler's
 * registration made resumable), else marked with why. Returns the handlers it is asked in.
 */
/** A request recognised but never rewritten (of no 2026-07-28 form, or a thrown URL elicitation): marked where it stands. Whether it is one. */
function markedAsWritten(site: Site, reacher: Reacher, r: Recorder, shape: SiteReport['shape']): boolean {
  const kind = site.kind;
  if (site.unsupported) {
    const left = site.unsupported.servesLegacy ? '(2025-era clients only)' : 'and fails on SDK 2.x for every client';
    r.site(site.node, {
      kind,
      call: callText(site.node),
      outcome: 'marked',
      reason: `this ${kind === 'request' ? '' : `${kind} `}request is left as it is ${left}: ${site.unsupported.reason}`,
      shape,
      cause: { id: site.unsupported.causeId, text: site.unsupported.reason },
    });
    return true;
  }
  if (site.urlError) {
    const reason =
      "throw new UrlElicitationRequiredError(...) ends the call with an error the client answers by opening the URL and calling again, which MCP 2026-07-28 does not have: ask with elicitInput({ mode: 'url', message, url, elicitationId }) where the handler can wait for the answer, or migrate by hand";
    const handler = site.fn ? reacher.of(site.fn).handlers[0]?.label : undefined;
    r.site(site.node, {
      kind,
      call: callText(site.node),
      outcome: 'marked',
      reason,
      handler,
      shape,
      cause: { id: 'url-elicitation-error', text: 'URL elicitation thrown as UrlElicitationRequiredError' },
    });
    return true;
  }
  return false;
}

function planSite(site: Site, reacher: Reacher, r: Recorder, options: AnalysisOptions): HandlerReached[] {
  const kind = site.kind;
  const shape = shapeOf(site);
  if (markedAsWritten(site, reacher, r, shape)) return [];
  const target = askTargetOf(site);
  const reach = site.handedOn
    ? reacher.ofValue(site.node)
    : site.fn
      ? reacher.of(site.fn)
      : { handlers: [], others: [{ ...describeNonHandler(undefined, site.node), at: site.node } as NotAHandler] };
  const only = options.onlyHandlerAt;
  const handlers = only
    ? reach.handlers.filter(
        h =>
          h.registration.getSourceFile().getFilePath() === only.file &&
          h.registration.getStart() <= only.offset &&
          only.offset <= h.registration.getEnd(),
      )
    : reach.handlers;
  if (only && handlers.length === 0) {
    const reason = 'not selected: another handler was asked for';
    r.sites.push({
      ...location(site.node, r),
      kind,
      call: callText(site.node),
      outcome: 'skipped',
      reason,
      handler: reach.handlers[0]?.label,
      cause: reason,
      causeId: 'not-selected',
    });
    return [];
  }
  if (site.handedOn && reach.handlers.length === 0 && reach.others.length === 0) {
    // Exported, or kept where nothing of the project runs it: there is no caller to ask for.
    r.note(
      site.node,
      `${callText(site.node)} hands on the server's ${site.kind} request where nothing in the project runs it: code outside the project that calls it asks as before, which only a 2025-era client answers`,
    );
    return [];
  }
  if (handlers.length === 0 || !target) {
    markUnreached(site, reach.others, r, shape);
    return [];
  }
  const plan = r.planFor(target.getSourceFile());
  const key = target === askTargetOf({ ...site, target: undefined }) ? answerName(site.node) : undefined;
  const sendRequest = contextSendRequest(site.node, target);
  if (!plan.asks.some(a => a.target.start === target.getStart()))
    plan.asks.push({ target: rangeOf(target), ...(key ? { key } : {}), ...(sendRequest ? { sendRequest: rangeOf(sendRequest) } : {}) });
  const labels = handlers.map(h => h.label);
  const shown = labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', ');
  r.site(site.node, {
    kind,
    call: callText(site.node),
    outcome: 'rewritten',
    reason: `asked through the requestState module while ${shown} ${labels.length === 1 ? 'runs' : 'run'}`,
    handler: labels[0],
    shape,
  });
  for (const other of reach.others) markOtherCaller(site, other, r);
  return handlers;
}

/**
 * The name `sendRequest` of `extra.sendRequest(...)` where `extra` is a handler's context the official codemod
 * did not move (a table entry's parameter typed by an alias of the context): SDK 2.x's context sends through
 * `extra.mcpReq.send(...)`.
 */
function contextSendRequest(call: Node, target: Node): Node | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'sendRequest') return undefined;
  const receiver = unwrap(callee.getExpression());
  return receiver.getStart() === target.getStart() && receiver.getEnd() === target.getEnd() && isHandlerExtra(target)
    ? callee.getNameNode()
    : undefined;
}

/** Text a file that makes a request has (a cheap test before its syntax is walked). */
const REQUEST_TEXT = /elicitInput|createMessage|listRoots|sendRequest|\.request\(|\.send\(/;

/**
 * A request in a file outside the run (another package of a workspace, the run given a folder) that a
 * handler of the run reaches: it is not migrated, so it is marked where the run's code calls into that
 * file, or at the handler's registration when that call cannot be told.
 */
function markRequestsOutsideRun(options: AnalysisOptions, reacher: Reacher, r: Recorder): void {
  const inRun = new Set([...options.files, ...(options.mcpFiles ?? [])]);
  for (const sf of importedOutsideRun(inRun)) {
    if (!REQUEST_TEXT.test(sf.getFullText())) continue;
    for (const site of findSites(sf)) {
      if (!site.fn || site.unsupported || site.urlError) continue;
      const reach = site.handedOn ? reacher.ofValue(site.node) : reacher.of(site.fn);
      for (const handler of reach.handlers.filter(h => inRun.has(h.registration.getSourceFile()))) {
        const calls = callsLeavingRun(handler, inRun, reacher);
        const reason = `reaches ${callText(site.node)} in ${r.rel(sf)}, a file outside this run, which is not migrated: on MCP 2026-07-28 ${handler.label} fails there (2025-era clients only); migrate that file too (run mcp-migrate on the files together, e.g. the workspace's root)`;
        const cause: FoundCause = { id: 'request-outside-run', text: 'a request reached in a file outside the run' };
        if (calls.length === 0)
          r.site(handler.registration, {
            kind: site.kind,
            call: callText(handler.registration),
            outcome: 'marked',
            reason: `${handler.label} ${reason}`,
            handler: handler.label,
            shape: 'helper',
            cause,
          });
        for (const call of calls)
          r.site(call, {
            kind: site.kind,
            call: callText(call),
            outcome: 'marked',
            reason: `${call.getExpression().getText()}() ${reason}`,
            handler: handler.label,
            shape: 'helper',
            cause,
          });
      }
    }
  }
}

/** How many files outside the run are followed through imports. */
const MAX_OUTSIDE_FILES = 200;

/** The project's own files (not a package's, not declarations) the run's files import, directly or through each other. */
function importedOutsideRun(inRun: Set<SourceFile>): SourceFile[] {
  const found = new Set<SourceFile>();
  const queue = [...inRun];
  while (queue.length > 0 && found.size < MAX_OUTSIDE_FILES) {
    for (const declaration of queue.shift()!.getImportDeclarations()) {
      const imported = importedSourceFile(declaration) ?? importedThroughPaths(declaration);
      if (!imported || inRun.has(imported) || found.has(imported) || imported.isDeclarationFile() || imported.isInNodeModules()) continue;
      found.add(imported);
      queue.push(imported);
    }
  }
  return [...found];
}

/** A file imported through the importing package's tsconfig.json `paths` (`@shared/ask.js`), which the analysis's own options do not map. */
function importedThroughPaths(declaration: ImportDeclaration): SourceFile | undefined {
  const file = resolveThroughPaths(declaration.getSourceFile().getFilePath(), declaration.getModuleSpecifierValue());
  const project = declaration.getProject();
  return file ? (project.getSourceFile(file) ?? project.addSourceFileAtPathIfExists(file)) : undefined;
}

/** The calls, in the run's files, of a function outside them through which `handler` reaches a request there. */
function callsLeavingRun(handler: HandlerReached, inRun: Set<SourceFile>, reacher: Reacher): CallExpression[] {
  const reaching = reacher.askingFunctions().filter(a => a.reach.handlers.some(h => h.registration === handler.registration));
  const outside = new Set<Node>(reaching.filter(a => !inRun.has(a.fn.getSourceFile())).map(a => a.fn));
  const calls: CallExpression[] = [];
  for (const { fn } of reaching.filter(a => inRun.has(a.fn.getSourceFile()))) {
    for (const call of fn.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      if (enclosingFunction(call) === fn && calleesOf(call.getExpression()).some(callee => outside.has(callee))) calls.push(call);
    }
  }
  return calls;
}

/**
 * A request a handler asks, reached also where no request is served (a timer, a notification handler): there
 * it still sends the request to the client, which a 2026-07-28 client cannot answer. Marked where that
 * context reaches it; where what reaches it cannot be followed, said in a note.
 */
function markOtherCaller(site: Site, other: NotAHandler, r: Recorder): void {
  const at = other.at ?? site.node;
  const what = `reaches ${callText(site.node)}, ${/^[aeiou]/.test(site.kind) ? 'an' : 'a'} ${site.kind} request, ${other.detail}`;
  if (!other.outside) {
    r.note(at, `${what}: there it still sends the request to the client itself, which only a 2025-era client answers`);
    return;
  }
  const reason = `${what}: no request is served there, so on MCP 2026-07-28 it cannot be asked (2025-era clients only): ${redesign(other.kind)}`;
  r.site(at, {
    kind: site.kind,
    call: callText(at),
    outcome: 'marked',
    reason,
    handler: other.kind,
    shape: 'helper',
    cause: {
      id: other.kind === 'notification' ? 'helper-called-from-notification' : 'helper-called-outside-handler',
      text: `a request reached ${NON_HANDLER_CAUSE[other.kind].text}`,
    },
  });
}

/** The expression a request is made on, which becomes `ask(...)`: the server, the context, or the request function. */
function askTargetOf(site: Site): Node | undefined {
  if (site.target) return site.target;
  const node = site.node;
  if (Node.isCallExpression(node)) {
    const callee = unwrap(node.getExpression());
    if (Node.isPropertyAccessExpression(callee) || Node.isElementAccessExpression(callee)) return callee.getExpression();
    // `sendRequest(...)` destructured from the handler's context: the function itself.
    return Node.isIdentifier(callee) ? callee : undefined;
  }
  if (Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node)) return node.getExpression();
  return undefined;
}

/**
 * The name the handler binds a request's answer to: `const user_name = await ...`, `answer = await ...`,
 * `{ name: await ... }`, or an element of `const [a, b] = await Promise.all([...])`. The key the question is
 * asked under, as a hand-written handler names its input requests.
 */
function answerName(request: Node): string | undefined {
  const value = outerExpression(request);
  const parent = value.getParent();
  if (!parent) return undefined;
  if (Node.isVariableDeclaration(parent) && parent.getInitializer() === value)
    return Node.isIdentifier(parent.getNameNode()) ? parent.getName() : undefined;
  if (Node.isBinaryExpression(parent) && parent.getRight() === value && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
    const left = unwrap(parent.getLeft());
    return Node.isIdentifier(left) ? left.getText() : Node.isPropertyAccessExpression(left) ? left.getName() : undefined;
  }
  if (Node.isPropertyAssignment(parent) && parent.getInitializer() === value && Node.isIdentifier(parent.getNameNode()))
    return parent.getName();
  if (Node.isArrayLiteralExpression(parent)) {
    const all = outerExpression(parent).getParent();
    const holder =
      all && Node.isCallExpression(all) && /^Promise\.(all|allSettled)$/.test(all.getExpression().getText())
        ? outerExpression(all).getParent()
        : undefined;
    const pattern = holder && Node.isVariableDeclaration(holder) ? holder.getNameNode() : undefined;
    const element =
      pattern && Node.isArrayBindingPattern(pattern) ? pattern.getElements()[parent.getElements().indexOf(value as never)] : undefined;
    return element && Node.isBindingElement(element) && Node.isIdentifier(element.getNameNode()) ? element.getName() : undefined;
  }
  return undefined;
}

/** The expression a value stands in: through `await`, parentheses, casts and `!`. */
function outerExpression(node: Node): Node {
  let value = node;
  for (
    let parent = value.getParent();
    parent &&
    (Node.isAwaitExpression(parent) ||
      Node.isParenthesizedExpression(parent) ||
      Node.isAsExpression(parent) ||
      Node.isSatisfiesExpression(parent) ||
      Node.isNonNullExpression(parent));
    parent = value.getParent()
  )
    value = parent;
  return value;
}

/** A request no migratable handler runs: marked with what runs it instead, and what to do. */
function markUnreached(site: Site, others: NotAHandler[], r: Recorder, shape: SiteShape): void {
  const other = others[0] ?? describeNonHandler(site.fn, site.node);
  const base = other.kind === 'helper' && site.fn ? baseClassHelper(site.fn, site.kind) : undefined;
  if (base) {
    for (const call of base.calls)
      r.site(call.node, {
        kind: site.kind,
        call: callText(call.node),
        outcome: 'marked',
        reason: call.reason,
        handler: base.name,
        shape: 'helper',
        cause: { id: 'framework-helper-call', text: FRAMEWORK_HELPER_CALL_CAUSE },
      });
    r.site(site.node, {
      kind: site.kind,
      call: callText(site.node),
      outcome: 'marked',
      reason: base.reason,
      handler: base.name,
      shape,
      cause: { id: 'framework-helper', text: FRAMEWORK_HELPER_CAUSE },
    });
    return;
  }
  const reason = `${site.kind} request ${other.detail}: ${other.fate ?? redesign(other.kind)}`;
  r.site(site.node, {
    kind: site.kind,
    call: callText(site.node),
    outcome: 'marked',
    reason,
    handler: other.kind,
    shape,
    cause: NON_HANDLER_CAUSE[other.kind],
  });
}

/**
 * One file's part of the analysis. An error there is a bug of mcp-migrate, not of the file: its message names the
 * file, so that the run's fatal error says where (nothing is written) and the report of the bug can carry it.
 */
function analysing(sf: SourceFile, r: Recorder, work: () => void): void {
  const file = r.rel(sf);
  try {
    work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`analysing ${file}: ${message} (a bug of mcp-migrate: please report it with that file)`, { cause: error });
  }
}

/** The files written by the project, not the tool: the requestState module's requests are the ones it makes for migrated handlers. */
function usersOwn(files: readonly SourceFile[]): SourceFile[] {
  return files.filter(f => !isStateModuleFile(f.getFilePath()));
}

function location(node: Node, r: Recorder): Pick<SiteReport, 'file' | 'line' | 'column'> {
  const sf = node.getSourceFile();
  const { line, column } = sf.getLineAndColumnAtPos(node.getStart());
  return { file: r.rel(sf), line, column };
}

/**
 * The servers constructed (wired with `requestState: { verify }` once any handler asks), the stdio and HTTP
 * entries that serve them, the client capabilities read from the connection, and registrations made where
 * 2026-07-28 never runs them.
 */
function planServing(project: Project, options: AnalysisOptions, r: Recorder, asks: boolean, reacher: Reacher): void {
  const mcpFiles = usersOwn(options.mcpFiles ?? options.files);
  /** The label of a tools/call, prompts/get or resources/read handler that may run `fn`. */
  const handlerOf = (fn: FunctionLike) => reacher.of(fn).handlers[0]?.label;
  if (asks) {
    // A handler's server is often built elsewhere (a factory, a parameter): wire every SDK server the
    // project constructs, so whichever one serves the handler verifies its state.
    const constructions = new Set<Node>();
    for (const sf of mcpFiles) {
      for (const n of sf.getDescendantsOfKind(SyntaxKind.NewExpression)) {
        const call = serverKindOf(n) ? sdkConstructorCall(n) : undefined;
        if (call) constructions.add(call);
      }
    }
    if (constructions.size === 0)
      r.notes.push(
        'no McpServer/Server construction was found: pass requestState: { verify: verifyRequestState } in the options of the server that registers the migrated handlers',
      );
    for (const construction of constructions) {
      const wiring = wiringOf(construction);
      if (wiring && !wiring.alreadyWired) r.planFor(construction.getSourceFile()).servers.push(wiring);
    }
  }
  for (const sf of mcpFiles) analysing(sf, r, () => servingOf(sf, options, r, reacher, handlerOf));
  if (!options.onlyHandlerAt && [...r.plans.values()].some(plan => plan.http.length > 0)) {
    for (const sf of mcpFiles) {
      for (const change of listChanges(sf, handlerOf)) {
        r.site(change.call, {
          kind: 'list-change',
          call: `${unwrap(change.call.getExpression()).getText()}(...)`,
          outcome: 'marked',
          reason: change.reason,
          handler: change.handler,
          cause: change.cause,
        });
      }
    }
  }
  void project;
}

/** One file's serving entries, capability reads, log messages, era traps and registrations made in oninitialized. */
function servingOf(
  sf: SourceFile,
  options: AnalysisOptions,
  r: Recorder,
  reacher: Reacher,
  handlerOf: (fn: FunctionLike) => string | undefined,
): void {
  for (const entry of stdioEntries(sf, options.beforeUpgrade && importsModule(sf, V1_SDK_MODULE) ? V1_SDK_MODULE : V2_SERVER_MODULE)) {
    if ('plan' in entry) r.planFor(sf).stdio.push(entry.plan);
    else
      r.site(entry.marked, {
        kind: 'entry',
        call: callText(entry.marked),
        outcome: 'marked',
        reason: entry.reason,
        handler: 'serving entry',
        cause: entry.cause,
      });
  }
  const fresh = entryNames(sf);
  for (const transport of options.onlyHandlerAt ? [] : httpTransports(sf)) {
    const entry = httpEntryOf(transport, fresh, options.beforeUpgrade);
    if ('skip' in entry) continue;
    if (entry.plan) r.planFor(sf).http.push(entry.plan);
    const call = `new ${transportName(transport)}(...)`;
    const site = { kind: 'entry', call, reason: entry.reason, handler: 'serving entry' } as const;
    r.site(transport, entry.plan ? { ...site, outcome: 'rewritten' } : { ...site, outcome: 'marked', cause: entry.cause });
  }
  for (const call of capabilityReads(sf)) planCapabilityRead(call, r, reacher, options);
  // (a file left on SDK 1.x serves no 2026-07-28 client, and its context has no mcpReq.log)
  for (const call of importsModule(sf, V1_SDK_MODULE) ? [] : loggingCalls(sf)) recordLogging(loggingFinding(call, handlerOf), r, options);
  for (const trap of options.onlyHandlerAt ? [] : eraTraps(sf, handlerOf)) {
    r.site(trap.node, {
      kind: 'connection',
      call: trap.call,
      outcome: 'marked',
      reason: trap.reason,
      handler: trap.handler ?? 'lifecycle',
      cause: trap.cause,
    });
  }
  for (const call of options.onlyHandlerAt ? [] : registrationsAfterInitialize(sf)) {
    const reason = `${call.getExpression().getText()}() runs in oninitialized, which never fires on MCP 2026-07-28 (there is no initialize): register it when the server is built`;
    const cause: FoundCause = {
      id: 'registered-in-oninitialized',
      text: 'registered in oninitialized, which never fires on MCP 2026-07-28: register it when the server is built',
    };
    r.site(call, { kind: 'registration', call: call.getExpression().getText(), outcome: 'marked', reason, handler: 'lifecycle', cause });
  }
}

/**
 * `getClientCapabilities()` answers with what the client declared at initialize, which a 2026-07-28 client
 * never sends: it becomes `clientCapabilities(server)`, which answers with the request's own while a
 * handler runs (however it is reached) and as before anywhere else. Read where no request can be running
 * (a lifecycle callback, a notification handler, module level, a timer), it is marked instead.
 */
function planCapabilityRead(call: CallExpression, r: Recorder, reacher: Reacher, options: AnalysisOptions): void {
  const access = unwrap(call.getExpression()).asKindOrThrow(SyntaxKind.PropertyAccessExpression);
  const callee = access.getText();
  const fn = enclosingFunction(call);
  const reach = fn ? reacher.of(fn) : { handlers: [], others: [describeNonHandler(undefined, call)] };
  const outside = reach.others.find(o => OUTSIDE_REQUESTS.has(o.kind));
  if (reach.handlers.length > 0 || (!outside && reach.others.length > 0)) {
    r.planFor(call.getSourceFile()).capabilityReads.push({ call: rangeOf(call), server: rangeOf(access.getExpression()) });
    const reason = `reads this request's own client capabilities (clientCapabilities in the requestState module): a 2026-07-28 client declares them with each request`;
    r.site(call, {
      kind: 'capabilities',
      call: `${callee}(...)`,
      outcome: 'rewritten',
      reason,
      handler: reach.handlers[0]?.label ?? 'capability check',
    });
    if (reach.handlers.length === 0)
      r.note(
        call,
        `${callee}() becomes clientCapabilities(...), the capabilities of the request being served when a handler runs it (what runs it here could not be followed); outside a request it answers as before, what the client declared at initialize, which a 2026-07-28 client never does`,
      );
    return;
  }
  if (options.onlyHandlerAt) return;
  const where = outside ? ` (${outside.detail})` : '';
  const reason = `${callee}() answers with what the client declared at initialize${where}; a 2026-07-28 client declares its capabilities with each request instead, and under serveStdio this returns undefined for it (createMcpHandler fills it in per request): read them where a request is served, ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] (clientCapabilities(server) in the requestState module)`;
  const cause: FoundCause = {
    id: 'capabilities-from-connection',
    text: 'client capabilities read from the connection (undefined for a 2026-07-28 client under serveStdio)',
  };
  r.site(call, { kind: 'capabilities', call: `${callee}(...)`, outcome: 'marked', reason, handler: 'capability check', cause });
}

/** A log message: sent with the request where the handler's context can send it, else marked or noted (src/analysis/logging.ts). */
function recordLogging(finding: LoggingFinding, r: Recorder, options: AnalysisOptions): void {
  const call = `${unwrap(finding.call.getExpression()).getText()}(...)`;
  if ('plan' in finding) {
    r.planFor(finding.call.getSourceFile()).logs.push(finding.plan);
    const reason = `sends this request's own log message, ${finding.plan.context}.mcpReq.log(...), at the level the request asks for (a 2026-07-28 client names it with each request)`;
    r.site(finding.call, { kind: 'logging', call, outcome: 'rewritten', reason, handler: finding.handler });
  } else if ('marked' in finding) {
    r.site(finding.call, {
      kind: 'logging',
      call,
      outcome: 'marked',
      reason: finding.marked.reason,
      handler: finding.marked.handler,
      cause: finding.marked.cause,
    });
  } else if (!options.onlyHandlerAt) {
    r.note(finding.call, finding.note);
  }
}

/** What runs a function where no request is being served. */
const OUTSIDE_REQUESTS: ReadonlySet<NonHandler['kind']> = new Set([
  'lifecycle',
  'notification',
  'top-level',
  'other-request',
  'class-member',
]);

function emptyPlan(sf: SourceFile, stateModulePath: string): FilePlan {
  return {
    file: sf.getFilePath(),
    asks: [],
    registrations: [],
    journaled: [],
    guards: [],
    capabilityReads: [],
    logs: [],
    markers: [],
    servers: [],
    stdio: [],
    http: [],
    stateModuleSpecifier: moduleSpecifier(sf, stateModulePath),
    sdkModule: V2_SERVER_MODULE,
    commonJs: isCommonJs(sf),
  };
}

function callText(node: Node): string {
  // A loop marked for how often it asks: its head (`for (const item of items)`).
  if (Node.isIterationStatement(node)) return loopHead(node);
  const text = node.getText().replace(/\s+/g, ' ');
  const open = text.indexOf('(');
  return open > 0 ? `${text.slice(0, open)}(...)` : text;
}

/** The cause the summary counts a site outside a migratable handler under. */
const NON_HANDLER_CAUSE: Record<NonHandler['kind'], FoundCause> = {
  helper: { id: 'helper-body', text: 'in a function no tools/call, prompts/get or resources/read handler calls' },
  'shared-handler': { id: 'shared-handler', text: 'in a handler passed by name that is also called or exported' },
  'wrapped-handler': { id: 'handler-wrapped-by-call', text: 'in a handler wrapped by a function of the project before it is registered' },
  generator: { id: 'generator', text: 'in a generator no handler runs' },
  'other-request': { id: 'other-request-handler', text: 'in a request handler other than tools/call, prompts/get or resources/read' },
  notification: { id: 'notification-handler', text: 'in a notification handler' },
  lifecycle: { id: 'lifecycle-callback', text: 'in a lifecycle callback (oninitialized, onclose, onerror)' },
  callback: { id: 'callback', text: 'in a callback run later, or passed on where it cannot be followed' },
  wrapped: { id: 'wrapped-handler', text: "in a callback registered through something other than the SDK's registration" },
  'class-member': { id: 'class-member', text: 'in a getter, setter, constructor or static block of a class' },
  'top-level': { id: 'module-level', text: 'at module level' },
};

function redesign(kind: string): string {
  switch (kind) {
    case 'lifecycle':
    case 'notification':
      return 'MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read; ask from inside the tool that needs it, or read it lazily there';
    case 'other-request':
      return 'only tools/call, prompts/get and resources/read can return input_required; move the request into one of those';
    case 'callback':
      return 'what runs it cannot be followed to a handler (a timer, an event, a value handed on); await it in the handler, or call it from one';
    case 'class-member':
      return 'a property read, an assignment or a `new` cannot return input_required, so it is left as it is; make it a method the handler awaits, or migrate by hand';
    default:
      return 'only a tools/call, prompts/get or resources/read handler can ask the client on MCP 2026-07-28 (it returns input_required); call it from one, or take what it asks for as an argument';
  }
}

/** The innermost control-flow construct between a site and its function's body; `helper` when that function is not the handler. */
function shapeOf(site: Site): SiteShape {
  const node = site.node;
  const parent = node.getParent();
  if (parent && Node.isArrayLiteralExpression(parent) && /^Promise\.all/.test(parent.getParent()?.getText() ?? '')) return 'Promise.all';
  for (let n = node.getParent(); n && n !== site.fn; n = n.getParent()) {
    if (Node.isIterationStatement(n)) return 'loop';
    if (Node.isTryStatement(n)) return 'try';
    if (Node.isCaseClause(n) || Node.isDefaultClause(n)) return 'switch';
    if (Node.isIfStatement(n)) return 'if';
  }
  const fn = site.fn;
  if (
    fn &&
    (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) &&
    Node.isCallExpression(fn.getParent()) &&
    !/^(registerTool|registerPrompt|registerResource|setRequestHandler)$/.test(calleeName(fn.getParent() as CallExpression))
  )
    return 'callback';
  return 'straight';
}

function calleeName(call: CallExpression): string {
  const callee = unwrap(call.getExpression());
  return Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
}

/** `getClientCapabilities()` on an SDK server: the connection's capabilities, which a 2026-07-28 client never declares at initialize. */
function capabilityReads(sf: SourceFile): CallExpression[] {
  if (!sf.getFullText().includes('getClientCapabilities')) return [];
  return sf.getDescendantsOfKind(SyntaxKind.CallExpression).filter(call => {
    const callee = unwrap(call.getExpression());
    return (
      Node.isPropertyAccessExpression(callee) &&
      callee.getName() === 'getClientCapabilities' &&
      serverKindOf(callee.getExpression()) !== undefined
    );
  });
}

/** Tool, prompt and resource registrations inside an `oninitialized` callback. */
function registrationsAfterInitialize(sf: SourceFile): CallExpression[] {
  const found: CallExpression[] = [];
  for (const assignment of sf.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
    if (assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || !/\.oninitialized$/.test(assignment.getLeft().getText()))
      continue;
    for (const call of assignment.getRight().getDescendantsOfKind(SyntaxKind.CallExpression)) {
      if (registers(call, 0)) found.push(call);
    }
  }
  return found;
}

/** Whether a call registers a tool, prompt or resource, itself or through the project's own functions. */
function registers(call: import('ts-morph').CallExpression, depth: number): boolean {
  const callee = call.getExpression();
  if (
    Node.isPropertyAccessExpression(callee) &&
    /^(registerTool|registerPrompt|registerResource|tool|prompt|resource)$/.test(callee.getName())
  ) {
    return serverKindOf(callee.getExpression()) === 'McpServer';
  }
  if (depth >= 3 || !Node.isIdentifier(callee)) return false;
  const symbol = callee.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  for (const decl of target?.getDeclarations() ?? []) {
    const fn = Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
    if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) continue;
    if (fn.getSourceFile().isDeclarationFile() || fn.getSourceFile().isInNodeModules()) continue;
    if (fn.getDescendantsOfKind(SyntaxKind.CallExpression).some(c => registers(c, depth + 1))) return true;
  }
  return false;
}

/**
 * The call whose arguments reach the SDK server's constructor: `new McpServer(...)` itself, or for a project
 * subclass (`class NotesServer extends McpServer`), the `super(...)` of the last constructor on the way to
 * the SDK class (the `new` when no class on the way declares one). Undefined when a constructor's
 * `super` call cannot be found.
 */
function sdkConstructorCall(created: import('ts-morph').NewExpression): Node | undefined {
  let current: Node = created;
  let cls = projectClassOf(created.getExpression());
  for (let depth = 0; cls && depth < 5; depth++) {
    const ctor = cls.getConstructors().find(c => c.getBody() !== undefined);
    if (ctor) {
      const superCall = ctor
        .getDescendantsOfKind(SyntaxKind.CallExpression)
        .find(c => c.getExpression().getKind() === SyntaxKind.SuperKeyword);
      if (!superCall) return undefined;
      current = superCall;
    }
    const base = cls.getExtends()?.getExpression();
    cls = base ? projectClassOf(base) : undefined;
  }
  return current;
}

/** The project's class declaration a name stands for (through imports); undefined for the SDK's own. */
function projectClassOf(name: Node): import('ts-morph').ClassDeclaration | undefined {
  const symbol = name.getSymbol();
  const declared = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations().find(d => Node.isClassDeclaration(d));
  return declared &&
    Node.isClassDeclaration(declared) &&
    !declared.getSourceFile().isInNodeModules() &&
    !declared.getSourceFile().isDeclarationFile()
    ? declared
    : undefined;
}

function wiringOf(construction: Node): ServerWiringPlan | undefined {
  if (!Node.isNewExpression(construction) && !Node.isCallExpression(construction)) return undefined;
  const args = construction.getArguments();
  const [first, options] = args;
  const optionsIsObjectLiteral = options !== undefined && Node.isObjectLiteralExpression(unwrap(options));
  const alreadyWired =
    optionsIsObjectLiteral && (unwrap(options!) as import('ts-morph').ObjectLiteralExpression).getProperty('requestState') !== undefined;
  const literal = optionsIsObjectLiteral ? (unwrap(options!) as import('ts-morph').ObjectLiteralExpression) : undefined;
  return {
    construct: rangeOf(construction),
    options: options ? rangeOf(options) : undefined,
    optionsIsObjectLiteral,
    ...(literal ? { optionProperties: literal.getProperties().map(rangeOf) } : {}),
    firstArg: first ? rangeOf(first) : undefined,
    alreadyWired,
  };
}

function moduleSpecifier(sf: SourceFile, target: string): string {
  let spec = path.relative(path.dirname(sf.getFilePath()), target).split(path.sep).join('/');
  if (!spec.startsWith('.')) spec = `./${spec}`;
  const withoutExt = spec.replace(/\.(ts|js|mjs|cjs|mts|cts)$/, '');
  const relImports = sf
    .getImportDeclarations()
    .map(d => d.getModuleSpecifierValue())
    .filter(s => s.startsWith('.'));
  const extensionless = relImports.length > 0 && relImports.every(s => !/\.[cm]?[jt]s$/.test(s));
  const ext = path.extname(target);
  if (ext === '.cjs' || ext === '.mjs') return withoutExt + ext;
  return extensionless ? withoutExt : `${withoutExt}.js`;
}

export function isCommonJs(sf: SourceFile): boolean {
  if (sf.getFilePath().endsWith('.cjs') || sf.getFilePath().endsWith('.cts')) return true;
  if (sf.getImportDeclarations().length > 0) return false;
  // A module that only exports (`module.exports = { confirm }`) is CommonJS as much as one that requires.
  return (
    COMMONJS_EXPORTS.test(sf.getFullText()) ||
    sf.getDescendantsOfKind(SyntaxKind.CallExpression).some(c => c.getExpression().getText() === 'require')
  );
}

export function importsMcp(sf: SourceFile): boolean {
  return sf.getImportDeclarations().some(d => isMcpModule(d.getModuleSpecifierValue()));
}

export { STATE_MODULE_BASENAME };

export function addMarker(plan: FilePlan, node: Node, reason: string): void {
  const isStatement = (a: Node) => Node.isStatement(a) && !Node.isBlock(a);
  let statement = isStatement(node) ? node : (node.getFirstAncestor(isStatement) ?? node);
  // A comment goes on a line of its own: for a statement that shares its first line with an
  // enclosing one (`run(async () => { await ... });`), above the enclosing one.
  const source = node.getSourceFile().getFullText();
  const startsLine = (n: Node) => /^[ \t]*$/.test(source.slice(source.lastIndexOf('\n', n.getStart() - 1) + 1, n.getStart()));
  // The statement's parent may itself be the statement (a braceless `if (x) await ...` body, a label): it is the one above.
  const enclosing = (n: Node): Node | undefined => {
    const parent = n.getParent();
    return parent && (isStatement(parent) ? parent : parent.getFirstAncestor(isStatement));
  };
  for (let up = enclosing(statement); up && !startsLine(statement); up = enclosing(up)) statement = up;
  const at = statement.getStart();
  const text = `${MARKER_PREFIX} ${reason}`;
  if (plan.markers.some(m => m.at === at && m.text === text)) return;
  // Idempotence: a marker written by an earlier run is left as it is. The inliner's marker on a helper call it
  // did not inline ("... is not inlined: ...") says nothing of another request in the statement: this one goes above it too.
  const already = statement
    .getLeadingCommentRanges()
    .some(c => c.getText().includes(text) || (c.getText().includes(MARKER_PREFIX) && !/\bis not inlined: /.test(c.getText())));
  if (already) return;
  plan.markers.push({ at, text });
}
