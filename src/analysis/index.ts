/**
 * Analysis: from a ts-morph project to one plan per file and the site lines of the report.
 */
import path from 'node:path';
import { Node, SyntaxKind, type CallExpression, type Project, type SourceFile } from 'ts-morph';
import type { CarriedLocal, FilePlan, HandlerPlan, ServerWiringPlan } from '../plan.js';
import type { SiteReport, SiteShape } from '../report.js';
import { STATE_MODULE_BASENAME } from '../stateModule.js';
import { awaitedCallbacks } from './callbacks.js';
import { unusedWrappers } from './deadCode.js';
import { ctxOf, planHandler, Unsupported } from './flow.js';
import { DELEGATE_CAUSE, delegateLabel, delegationReaching, type Delegation } from './delegates.js';
import { overridesOf } from './methods.js';
import { entryLabel } from './dispatch.js';
import { callersLeft } from './callers.js';
import { helperKey, INLINE_LABEL } from './inline.js';
import { entryNames, httpEntryOf, httpTransports, transportName } from './httpEntry.js';
import { isMcpModule, serverKindOf, unwrap } from './mcpSymbols.js';
import { stdioEntries } from './stdioEntry.js';
import { baseClassHelper, claimedByFramework, frameworkRequests } from './frameworks.js';
import { FRAMEWORK_HELPER_CALL_CAUSE, FRAMEWORK_HELPER_CAUSE } from '../tables/frameworks.js';
import { describeNonHandler, enclosingFunction, findSites, registrationOf, type FunctionLike, type NonHandler, type Registration, type Site } from './sites.js';

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
  /** Plan only the handler that contains this offset; every other site is reported as skipped, unmarked. */
  onlyHandlerAt?: { file: string; offset: number };
  /** Per file, the offsets of request calls hoisted out of expressions (src/analysis/hoist.ts): their shape is 'expression'. */
  hoisted?: ReadonlyMap<string, ReadonlySet<number>>;
  /** Per helper (helperKey in src/analysis/inline.ts), how many of its calls were inlined into handlers that are migrated. */
  inlined?: ReadonlyMap<string, number>;
  /** Per cache filler (helperKey), how many of its handler calls were split into a read of its cache and a fill (src/analysis/cacheFiller.ts). */
  split?: ReadonlyMap<string, number>;
  /** SDK 1.x files analysed as typed, not upgraded (an editor's diagnostics): their entries are judged as the upgrade will leave them. */
  beforeUpgrade?: boolean;
}

export function analyzeProject(project: Project, options: AnalysisOptions): ProjectAnalysis {
  const plans = new Map<SourceFile, FilePlan>();
  const sites: SiteReport[] = [];
  const planFor = (sf: SourceFile): FilePlan => {
    let plan = plans.get(sf);
    if (!plan) {
      plan = emptyPlan(sf, options.stateModuleFor(sf.getFilePath()));
      plans.set(sf, plan);
    }
    return plan;
  };
  const wiredConstructions = new Set<Node>();
  const notes: string[] = [];
  const delegated = new Map<Delegation, DelegateOutcome[]>();
  /** Per file, the sites found in it; and the wrapper calls of requests that are unwrapped in handlers planned. */
  const sitesByFile = new Map<SourceFile, Site[]>();
  const unwrappedCalls: CallExpression[] = [];
  /** The server construction each planned handler is registered on: wired once the plans are settled. */
  const servingConstruction = new Map<HandlerPlan, Node>();

  for (const sf of options.files) {
    const viaFramework = options.onlyHandlerAt ? [] : frameworkRequests(sf);
    for (const request of viaFramework) {
      addMarker(planFor(sf), request.call, request.reason);
      const { line, column } = sf.getLineAndColumnAtPos(request.call.getStart());
      sites.push({ file: rel(options.cwd, sf), line, column, kind: request.method.kind, call: callText({ node: request.call } as Site), outcome: 'marked', reason: request.reason, handler: request.framework.name, shape: 'other', cause: request.cause });
    }
    const found = findSites(sf).filter(site => !claimedByFramework(site.node, viaFramework));
    if (found.length === 0) continue;
    sitesByFile.set(sf, found);
    const callbacks = awaitedCallbacks(found);
    const byFunction = new Map<FunctionLike | undefined, Site[]>();
    for (const site of found) byFunction.set(site.fn, [...(byFunction.get(site.fn) ?? []), site]);
    for (const [fn, grouped] of byFunction) {
      let fnSites = grouped;
      const callback = fn && callbacks.get(fn);
      const split = callback?.kind === 'split' ? callback : undefined;
      const registration = fn && (registrationOf(fn) ?? split?.registration);
      const handlerFn = split?.host ?? fn;
      const only = options.onlyHandlerAt;
      if (only && !(registration && handlerFn && only.file === sf.getFilePath() && handlerFn.getStart() <= only.offset && only.offset <= handlerFn.getEnd())) {
        for (const site of fnSites) {
          const { line, column } = sf.getLineAndColumnAtPos(site.node.getStart());
          const reason = 'not selected: another handler was asked for';
          sites.push({ file: rel(options.cwd, sf), line, column, kind: site.kind, call: callText(site), outcome: 'skipped', reason, handler: registration?.label, cause: reason });
        }
        continue;
      }
      const report = (site: Site, outcome: SiteReport['outcome'], reason: string, handler: string, cause?: string): void => {
        const { line, column } = sf.getLineAndColumnAtPos(site.node.getStart());
        const shape = handler === 'callback' || callback || site.unwrapped ? 'callback' : options.hoisted?.get(sf.getFilePath())?.has(site.node.getStart()) ? 'expression' : shapeOf(site.node, fn);
        sites.push({ file: rel(options.cwd, sf), line, column, kind: site.kind, call: callText(site), outcome, reason, handler, shape, cause });
      };
      if (!fn || !registration) {
        if (callback?.kind === 'refused') {
          for (const site of fnSites) {
            const reason = `${site.kind} request ${callback.reason}`;
            addMarker(planFor(sf), site.node, reason);
            report(site, 'marked', reason, 'callback', callback.cause);
          }
          continue;
        }
        const why = describeNonHandler(fn, fnSites[0]?.node);
        if (why.kind === 'top-level') {
          // A request method handed on from module level (`retry(server.createMessage)`) says so, not "move the request into a handler".
          for (const site of fnSites.filter(s => s.unsupported)) {
            const reason = `${site.kind} request at module level: ${site.unsupported!.reason}`;
            addMarker(planFor(sf), site.node, reason);
            report(site, 'marked', reason, why.kind, site.unsupported!.reason);
          }
          fnSites = fnSites.filter(s => !s.unsupported);
          if (fnSites.length === 0) continue;
        }
        const base = why.kind === 'helper' && fn && inlinedReaching(fn, options.inlined) === 0 ? baseClassHelper(fn, fnSites[0]!.kind) : undefined;
        if (base) {
          for (const call of base.calls) {
            const callFile = call.node.getSourceFile();
            const { line, column } = callFile.getLineAndColumnAtPos(call.node.getStart());
            addMarker(planFor(callFile), call.node, call.reason);
            sites.push({ file: rel(options.cwd, callFile), line, column, kind: fnSites[0]!.kind, call: callText({ node: call.node } as Site), outcome: 'marked', reason: call.reason, handler: base.name, shape: 'helper', cause: FRAMEWORK_HELPER_CALL_CAUSE });
          }
          for (const site of fnSites) {
            addMarker(planFor(sf), site.node, base.reason);
            report(site, 'marked', base.reason, base.name, FRAMEWORK_HELPER_CAUSE);
          }
          continue;
        }
        // A helper's marker says what became of its callers; those it leaves are marked where they call it.
        // A callback written in a helper (`lock.runExclusive(async () => ...)`) is reached through the helper's calls.
        const around = why.kind === 'callback' && fn ? helperAroundCallback(fn) : undefined;
        const helper = why.kind === 'helper' ? fn : around;
        const callers = helper ? callersLeft(helper, fnSites[0]!.kind) : undefined;
        for (const left of callers?.left ?? []) {
          const callFile = left.node.getSourceFile();
          const { line, column } = callFile.getLineAndColumnAtPos(left.node.getStart());
          const entry: SiteReport = { file: rel(options.cwd, callFile), line, column, kind: fnSites[0]!.kind, call: callText({ node: left.node } as Site), outcome: 'marked', reason: left.reason, handler: left.caller, shape: 'helper', cause: left.cause };
          if (sites.some(s => s.file === entry.file && s.line === line && s.column === column && s.reason === left.reason)) continue;
          addMarker(planFor(callFile), left.node, left.reason);
          sites.push(entry);
        }
        const detail = around ? `${why.detail}, ${describeNonHandler(around).detail}` : why.detail;
        for (const site of fnSites) {
          const fate = callers && fn ? helperFate(inlinedReaching(fn, options.inlined), callers.left.length + callers.refused, inlinedReaching(fn, options.split)) : (why.fate ?? redesign(why.kind));
          const reason = `${site.kind} request ${detail}: ${fate}`;
          addMarker(planFor(sf), site.node, reason);
          report(site, 'marked', reason, around ? 'helper' : why.kind, NON_HANDLER_CAUSE[around ? 'helper' : why.kind]);
        }
        continue;
      }
      const markSite = (site: Site, error: Unsupported, wholeHandler: boolean): void => {
        const left = error.servesLegacy ? '(2025-era clients only)' : 'and fails on SDK 2.x for every client';
        const what = wholeHandler ? 'not migrated' : `this ${site.kind} request is left as it is ${left}`;
        const reason = `${registration.label} ${what}: ${error.message}`;
        addMarker(planFor(sf), site.node, reason);
        report(site, 'marked', reason, registration.label, wholeHandler ? `handler not migrated: ${error.message}` : error.message);
      };
      const before = { sites: sites.length, notes: notes.length };
      let failure: string | undefined;
      let planned: HandlerPlan | undefined;
      try {
        const { plan: handler, skipped } = planHandler(fn, registration, fnSites, split && { fn: split.host, statement: split.statement, note: split.note });
        for (const { site, reason } of skipped) markSite(site, reason, false);
        planned = handler;
        failure = handler ? undefined : skipped[0]?.reason.message;
        if (!handler) continue;
        planFor(sf).handlers.push(handler);
        widenWrapperType(registration, planFor);
        for (const site of fnSites.filter(f => !skipped.some(k => k.site === f))) {
          const dropped = droppedOptions(site);
          if (dropped) notes.push(`${rel(options.cwd, sf)}:${sf.getLineAndColumnAtPos(site.node.getStart()).line}: ${handler.label}: ${dropped}`);
        }
        // What a wrapper around a request no longer does, or now does once per round: to review.
        const wrapped = [...(handler.host ? [{ at: handler.host.statement, note: handler.host.note }] : []), ...handler.suspensions.flatMap(s => s.requests.filter(r => r.unwrapped).map(r => ({ at: r.replace.start, note: r.unwrapped!.note })))];
        const passing = passThroughNote(registration);
        if (passing) {
          wrapped.push(passing);
          addMarker(planFor(sf), registration.wrapper!.call, passing.note);
        }
        for (const { at, note } of wrapped) notes.push(`${rel(options.cwd, sf)}:${sf.getLineAndColumnAtPos(at).line}: ${handler.label}: ${note}`);
        for (const local of new Map(handler.suspensions.flatMap(s => s.recomputedLocals ?? []).map(l => [l.name, l])).values()) {
          const { line } = sf.getLineAndColumnAtPos(local.range.start);
          notes.push(`${rel(options.cwd, sf)}:${line}: ${handler.label} makes "${local.name}" again on resume (${local.initializer.slice(0, 80)}): ${local.what} cannot travel in requestState; review that making it twice is safe`);
        }
        const carried = [...new Map(handler.suspensions.flatMap(s => s.live).filter(l => !l.answered).map(l => [l.name, l])).values()];
        const { line } = sf.getLineAndColumnAtPos(handler.fn.start);
        for (const local of carried.filter(l => l.unbounded)) {
          notes.push(`${rel(options.cwd, sf)}:${line}: ${handler.label} carries "${local.name}" (${local.unbounded}) in requestState; a state over 16 KiB is kept in the server's store, the client holding a reference (several instances must share one store: see mcp-migrate's docs/deployment.md)`);
        }
        for (const { local, declaration, why } of secretLocals(fn, carried)) {
          const reason = `${handler.label} carries "${local.name}" (${why}) in requestState, which the client can read (it is signed, not encrypted): compute it again after the round, or set MCP_REQUEST_STATE_ENCRYPT=1`;
          notes.push(`${rel(options.cwd, sf)}:${sf.getLineAndColumnAtPos(declaration.getStart()).line}: ${reason}`);
          addMarker(planFor(sf), declaration, reason);
        }
        const construction = constructionOf(registration.call.getExpression().asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression());
        if (construction) servingConstruction.set(handler, construction);
        const left = new Set(skipped.map(s => s.site));
        const as = registration.delegateOf ? `, ${registration.delegateOf}` : '';
        for (const site of fnSites) if (!left.has(site) && site.unwrapped) unwrappedCalls.push(site.unwrapped.call);
        for (const site of fnSites) if (!left.has(site)) report(site, 'rewritten', `rewritten into input_required phases of ${handler.label}${as}`, handler.label);
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        for (const site of fnSites) markSite(site, error, true);
        failure = error.message;
      } finally {
        const delegation = registration.delegateOf ? delegationReaching(fn) : undefined;
        if (delegation) {
          const outcome: DelegateOutcome = { fn, label: registration.label, plan: planned, failure, sites: fnSites, reports: sites.slice(before.sites), notes: notes.slice(before.notes) };
          delegated.set(delegation, [...(delegated.get(delegation) ?? []), outcome]);
        }
      }
    }
  }
  settleDelegations(delegated, { planFor, sites, notes, rel: sf => rel(options.cwd, sf) });
  for (const [sf, found] of sitesByFile) {
    const removed = plans.has(sf) ? unusedWrappers(plans.get(sf)!, unwrappedCalls, found) : undefined;
    if (!removed) continue;
    plans.get(sf)!.removed = removed.plan;
    notes.push(...removed.notes.map(({ line, text }) => `${rel(options.cwd, sf)}:${line}: ${text}`));
  }
  for (const plan of plans.values()) for (const handler of plan.handlers) if (servingConstruction.has(handler)) wiredConstructions.add(servingConstruction.get(handler)!);

  const mcpFiles = options.mcpFiles ?? options.files;
  if (sites.some(s => s.outcome === 'rewritten')) {
    // A handler's server is often built elsewhere (a factory, a parameter): wire every SDK server
    // the project constructs, so whichever one serves the handler verifies its state.
    for (const sf of mcpFiles) {
      for (const n of sf.getDescendantsOfKind(SyntaxKind.NewExpression)) {
        const call = serverKindOf(n) ? sdkConstructorCall(n) : undefined;
        if (call) wiredConstructions.add(call);
      }
    }
    if (wiredConstructions.size === 0) {
      notes.push('no McpServer/Server construction was found: pass requestState: { verify: verifyRequestState } in the options of the server that registers the migrated handlers');
    }
  }
  for (const construction of wiredConstructions) {
    const wiring = wiringOf(construction);
    if (wiring && !wiring.alreadyWired) planFor(construction.getSourceFile()).servers.push(wiring);
  }
  for (const sf of mcpFiles) {
    // Even for one handler: its migrated phases reach a 2026-07-28 client only through serveStdio.
    for (const entry of stdioEntries(sf, options.beforeUpgrade && importsFrom(sf, V1_SDK_MODULE) ? V1_SDK_MODULE : V2_SERVER_MODULE)) {
      if ('plan' in entry) {
        planFor(sf).stdio.push(entry.plan);
        continue;
      }
      addMarker(planFor(sf), entry.marked, entry.reason);
      const { line, column } = sf.getLineAndColumnAtPos(entry.marked.getStart());
      sites.push({ file: rel(options.cwd, sf), line, column, kind: 'entry', call: callText({ node: entry.marked } as Site), outcome: 'marked', reason: entry.reason, handler: 'serving entry', cause: entry.cause });
    }
    const fresh = entryNames(sf);
    for (const transport of options.onlyHandlerAt ? [] : httpTransports(sf)) {
      const entry = httpEntryOf(transport, fresh, options.beforeUpgrade);
      if ('skip' in entry) continue;
      if (entry.plan) planFor(sf).http.push(entry.plan);
      else addMarker(planFor(sf), transport, entry.reason);
      const { line, column } = sf.getLineAndColumnAtPos(transport.getStart());
      const call = `new ${transportName(transport)}(...)`;
      sites.push({ file: rel(options.cwd, sf), line, column, kind: 'entry', call, outcome: entry.plan ? 'rewritten' : 'marked', reason: entry.reason, handler: 'serving entry', cause: entry.plan ? undefined : (entry.cause ?? entry.reason) });
    }
    for (const call of capabilityReads(sf)) {
      const callee = call.getExpression().getText();
      const { line, column } = sf.getLineAndColumnAtPos(call.getStart());
      // In a handler being rewritten, the request's own capabilities are read instead.
      const handler = handlerReading(planFor(sf), call);
      if (handler) {
        const access = unwrap(call.getExpression()).asKindOrThrow(SyntaxKind.PropertyAccessExpression);
        (handler.capabilityReads ??= []).push({ range: { start: call.getStart(), end: call.getEnd() }, serverText: access.getExpression().getText() });
        const reason = `reads this request's own client capabilities (clientCapabilities in the requestState module): a 2026-07-28 client declares them with each request`;
        sites.push({ file: rel(options.cwd, sf), line, column, kind: 'capabilities', call: `${callee}(...)`, outcome: 'rewritten', reason, handler: handler.label });
        continue;
      }
      if (options.onlyHandlerAt) continue;
      const reason = `${callee}() answers with what the client declared at initialize; a 2026-07-28 client declares its capabilities with each request instead, and under serveStdio this returns undefined for it (createMcpHandler fills it in per request): in a handler, read the request's own, ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY]`;
      addMarker(planFor(sf), call, reason);
      const cause = 'client capabilities read from the connection (undefined for a 2026-07-28 client under serveStdio)';
      sites.push({ file: rel(options.cwd, sf), line, column, kind: 'capabilities', call: `${callee}(...)`, outcome: 'marked', reason, handler: 'capability check', cause });
    }
    for (const call of options.onlyHandlerAt ? [] : registrationsAfterInitialize(sf)) {
      const reason = `${call.getExpression().getText()}() runs in oninitialized, which never fires on MCP 2026-07-28 (there is no initialize): register it when the server is built`;
      addMarker(planFor(sf), call, reason);
      const { line, column } = sf.getLineAndColumnAtPos(call.getStart());
      const cause = 'registered in oninitialized, which never fires on MCP 2026-07-28: register it when the server is built';
      sites.push({ file: rel(options.cwd, sf), line, column, kind: 'registration', call: call.getExpression().getText(), outcome: 'marked', reason, handler: 'lifecycle', cause });
    }
  }
  return { plans: [...plans.values()], sites, notes };
}

function importsFrom(sf: SourceFile, module: string): boolean {
  return sf.getImportDeclarations().some(d => d.getModuleSpecifierValue().startsWith(module));
}

function emptyPlan(sf: SourceFile, stateModulePath: string): FilePlan {
  return {
    file: sf.getFilePath(),
    handlers: [],
    markers: [],
    servers: [],
    stdio: [],
    http: [],
    stateModuleSpecifier: moduleSpecifier(sf, stateModulePath),
    sdkModule: V2_SERVER_MODULE,
    commonJs: isCommonJs(sf)
  };
}

function rel(cwd: string, sf: SourceFile): string {
  return path.relative(cwd, sf.getFilePath()) || path.basename(sf.getFilePath());
}

/**
 * The request options a rewritten request had (`elicitInput(params, { timeout: 30_000, signal: extra.signal })`),
 * which its inputRequired entry has no place for: no request waits on the server any more, so a timeout, an abort
 * signal or a progress callback has nothing to act on. Said, since a catch for the timeout's error no longer runs.
 */
function droppedOptions(site: Site): string | undefined {
  if (!Node.isCallExpression(site.node)) return undefined;
  const args = site.node.getArguments();
  const params = site.params;
  const at = params ? args.findIndex(a => a.getStart() <= params.getStart() && params.getEnd() <= a.getEnd()) : -1;
  // After the params, or after the result schema of a request object (`sendRequest({ method, params }, Schema, options)`).
  const index = at < 0 ? (site.builder === 'listRoots' ? 1 : -1) : args[at] === params || unwrap(args[at]!) === params ? at + 1 : at + 2;
  const options = index >= 0 ? args[index] : undefined;
  if (!options || (Node.isIdentifier(options) && options.getText() === 'undefined')) return undefined;
  const text = options.getText().replace(/\s+/g, ' ');
  return `the options of ${callText(site)} (${text.length > 80 ? `${text.slice(0, 77)}...` : text}) are dropped: the request no longer waits on the server (the client answers on its retry, within the state's ten minutes), so a timeout, an abort signal or a progress callback has nothing to act on; review that nothing relied on them (a catch for the timeout's error)`;
}

function callText(site: Site): string {
  const text = site.node.getText().replace(/\s+/g, ' ');
  const open = text.indexOf('(');
  return open > 0 ? `${text.slice(0, open)}(...)` : text;
}

const SECRET_NAME = /token|secret|passw(?:or)?d|api_?key|apikey|credential|private_?key|access_?key|client_?secret/i;

/** Carried locals that look secret: read from process.env, named or typed like a credential. */
function secretLocals(fn: FunctionLike, carried: CarriedLocal[]): { local: CarriedLocal; declaration: Node; why: string }[] {
  const found: { local: CarriedLocal; declaration: Node; why: string }[] = [];
  for (const local of carried) {
    const declaration = fn.getDescendantsOfKind(SyntaxKind.VariableDeclaration).find(d => d.getName() === local.name);
    if (!declaration) continue;
    const why = /\bprocess\.env\b/.test(declaration.getInitializer()?.getText() ?? '')
      ? 'read from process.env'
      : SECRET_NAME.test(local.name)
        ? 'named like a secret'
        : SECRET_NAME.test(local.typeText ?? '')
          ? `typed ${local.typeText}`
          : PRIMITIVE.test(local.typeText ?? '')
            ? undefined
            : secretField(declaration);
    if (why) found.push({ local, declaration, why });
  }
  return found;
}

/**
 * A local restored as a primitive has only its wrapper's fields (String's, Number's, Boolean's), none named
 * like a secret: its type is not asked for (typing a local may resolve a registration call's overloads).
 */
const PRIMITIVE = /^(?:string|number|boolean)$/;

/** A field of the local's object type named like a secret (`{ accessToken, refreshToken }`), said as why. */
function secretField(declaration: Node): string | undefined {
  let names: string[];
  try {
    names = declaration.getType().getNonNullableType().getProperties().map(p => p.getName());
  } catch {
    return undefined;
  }
  // Counts and limits are no secret: `maxTokens` of a sampling request, `tokenCount` of a usage record.
  const field = names.find(name => SECRET_NAME.test(name) && !/^max_?tokens$|count|limit|usage/i.test(name));
  return field === undefined ? undefined : `its field "${field}" named like a secret`;
}

function addMarker(plan: FilePlan, node: Node, reason: string): void {
  const isStatement = (a: Node) => Node.isStatement(a) && !Node.isBlock(a);
  let statement = node.getFirstAncestor(isStatement) ?? node;
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
  const already = statement.getLeadingCommentRanges().some(c => c.getText().includes(text) || (c.getText().includes(MARKER_PREFIX) && !/\bis not inlined: /.test(c.getText())));
  if (already) return;
  plan.markers.push({ at, text });
}

/** For a handler wrapped by a pass-through before it is registered: the review note on the wrapper's call. */
function passThroughNote(registration: Registration): { at: number; note: string } | undefined {
  const wrapper = registration.wrapper;
  if (!wrapper?.passesThrough) return undefined;
  const note = `${wrapper.passesThrough} now runs once per round: the handler it wraps resumes from requestState inside a fresh call, so its code around the handler (a try/catch, logging, timing) runs on each retry (review that running it on each retry is safe)`;
  return { at: wrapper.call.getStart(), note };
}

/** A handler registered through a wrapper whose function types let it return no input_required: those types widened, once. */
function widenWrapperType(registration: Registration, planFor: (sf: SourceFile) => FilePlan): void {
  for (const type of registration.wrapper?.widen ?? []) {
    const widened = (planFor(type.getSourceFile()).widenedCallbackTypes ??= []);
    if (!widened.some(r => r.start === type.getStart())) widened.push({ start: type.getStart(), end: type.getEnd() });
  }
}

/** The cause the summary counts a site outside a migratable handler under. */
const NON_HANDLER_CAUSE: Record<NonHandler['kind'], string> = {
  helper: 'in a helper body, left for its callers that are not handlers (handler calls to it are inlined where they can be)',
  'shared-handler': 'in a handler passed by name that is also called or exported',
  'wrapped-handler': 'in a handler wrapped by a function of the project before it is registered',
  generator: 'in a generator',
  'other-request': 'in a request handler other than tools/call, prompts/get or resources/read',
  notification: 'in a notification handler',
  lifecycle: 'in a lifecycle callback (oninitialized, onclose, onerror)',
  callback: 'in a callback the handler passes on',
  wrapped: 'in a callback registered through a wrapper of the project that is not migrated as its handler',
  'class-member': 'in a getter, setter, constructor or static block of a class',
  'top-level': 'at module level'
};

function redesign(kind: string): string {
  switch (kind) {
    case 'lifecycle':
    case 'notification':
      return 'MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read; request it from inside the tool that needs it (return inputRequired) or read it lazily there';
    case 'other-request':
      return 'only tools/call, prompts/get and resources/read can return input_required; move the request into one of those';
    case 'callback':
      return 'the await is inside a callback the handler passes on; await it directly in the handler body';
    case 'generator':
      return 'a generator hands out its results one yield at a time, which phases cannot resume; await the requests in the handler (a loop there migrates) and keep the generator for the rest';
    case 'wrapped-handler':
      return 'the wrapper stands between the registration and this handler, and only one call of a pass-through of the project, passed to the registration itself, is migrated through (a function that returns `async (...args) => cb(...args)`), so it is not migrated; make it one, or pass the callback to the registration directly and keep the wrapper\'s work inside it (it is then migrated); or migrate by hand';
    case 'class-member':
      return 'a property read, an assignment or a `new` cannot return input_required, so it is left as it is; make it a function the handler awaits (one taking the server is inlined and migrated there), or migrate by hand';
    case 'shared-handler':
      return 'its other callers would see input_required results, so it is not rewritten; give the registration a function of its own (a shared helper it calls is inlined there), or migrate by hand';
    default:
      return 'move it into a tools/call, prompts/get or resources/read handler';
  }
}

/**
 * What became of a helper's callers, for the marker on its body: how many of its handler calls were
 * inlined and migrated, how many calls are left (each marked where it is made), and what the body is still for.
 */
function helperFate(inlined: number, left: number, split = 0): string {
  const calls = (n: number) => `${n} handler ${n === 1 ? 'call reaching it was' : 'calls reaching it were'}`;
  const splitDone = split > 0 ? `${calls(split)} migrated, ${split === 1 ? '' : 'each '}reading its cache and asking only when it is empty` : '';
  const inlinedDone = inlined > 0 ? `${calls(inlined)} inlined there and migrated` : split > 0 ? '' : 'no handler call reaching it was inlined';
  const done = [splitDone, inlinedDone].filter(Boolean).join('; ');
  const marked = left > 0 ? `; ${inlined + split > 0 ? `${left} other` : left} ${left === 1 ? 'call reaching it is' : 'calls reaching it are'} marked where ${left === 1 ? 'it is' : 'they are'} made` : '';
  return `${done}${marked}; this body ${split > 0 ? '' : 'is left as it is and '}still sends the request to ${left > 0 ? 'those callers and ' : ''}any caller outside the project: migrate it by hand for them, or remove it when nothing calls it`;
}

/**
 * The helper a callback is written in, through callbacks nested in it (`lock.runExclusive(async () =>
 * ...)` in `getContext()`): its request is made for whoever calls that helper. Undefined inside a handler.
 */
function helperAroundCallback(fn: FunctionLike): FunctionLike | undefined {
  for (let f = enclosingFunction(fn); f; f = enclosingFunction(f)) {
    if (registrationOf(f)) return undefined;
    const kind = describeNonHandler(f).kind;
    if (kind === 'helper') return f;
    if (kind !== 'callback') return undefined;
  }
  return undefined;
}

/** How many handler calls of a helper, or of a function it is declared in, were inlined (and migrated). */
function inlinedReaching(fn: FunctionLike, inlined: ReadonlyMap<string, number> | undefined): number {
  let count = 0;
  for (let f: FunctionLike | undefined = fn; f; f = enclosingFunction(f)) count += inlined?.get(helperKey(f)) ?? 0;
  return count;
}

/** The innermost control-flow construct between a site and its function's body. */
function shapeOf(node: Node, fn: Node | undefined): SiteShape {
  const parent = node.getParent();
  if (parent && Node.isArrayLiteralExpression(parent) && /^Promise\.all/.test(parent.getParent()?.getText() ?? '')) return 'Promise.all';
  // Inlined from a helper (src/analysis/inline.ts): what the counts of migrated helpers group by.
  for (let n = node.getParent(); n && n !== fn; n = n.getParent()) {
    if (Node.isArrowFunction(n) || Node.isFunctionExpression(n)) break;
    if (Node.isLabeledStatement(n) && INLINE_LABEL.test(n.getLabel().getText())) return 'helper';
  }
  for (let n = node.getParent(); n && n !== fn; n = n.getParent()) {
    if (Node.isArrowFunction(n) || Node.isFunctionExpression(n)) return 'callback';
    if (Node.isIterationStatement(n)) return 'loop';
    if (Node.isTryStatement(n)) return 'try';
    if (Node.isCaseClause(n) || Node.isDefaultClause(n)) return 'switch';
    if (Node.isIfStatement(n)) return 'if';
  }
  return 'straight';
}

/** `getClientCapabilities()` on an SDK server: the connection's capabilities, which a 2026-07-28 client never declares at initialize. */
function capabilityReads(sf: SourceFile): CallExpression[] {
  if (!sf.getFullText().includes('getClientCapabilities')) return [];
  return sf.getDescendantsOfKind(SyntaxKind.CallExpression).filter(call => {
    const callee = unwrap(call.getExpression());
    return Node.isPropertyAccessExpression(callee) && callee.getName() === 'getClientCapabilities' && serverKindOf(callee.getExpression()) !== undefined;
  });
}

/**
 * The handler of this file's plan that a capability read sits directly in (not in a callback of
 * it), when the read is not part of a request the rewrite replaces.
 */
function handlerReading(plan: FilePlan, call: CallExpression): HandlerPlan | undefined {
  const fn = enclosingFunction(call);
  if (!fn) return undefined;
  const handler = plan.handlers.find(h => h.fn.start === fn.getStart() && h.fn.end === fn.getEnd());
  const overlaps = (r: { start: number; end: number }) => r.start < call.getEnd() && call.getStart() < r.end;
  if (!handler || handler.suspensions.some(s => s.requests.some(r => overlaps(r.replace)))) return undefined;
  return handler;
}

/** Tool, prompt and resource registrations inside an `oninitialized` callback. */
function registrationsAfterInitialize(sf: SourceFile): CallExpression[] {
  const found: CallExpression[] = [];
  for (const assignment of sf.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
    if (assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || !/\.oninitialized$/.test(assignment.getLeft().getText())) continue;
    for (const call of assignment.getRight().getDescendantsOfKind(SyntaxKind.CallExpression)) {
      if (registers(call, 0)) found.push(call);
    }
  }
  return found;
}

/** Whether a call registers a tool, prompt or resource, itself or through the project's own functions. */
function registers(call: import('ts-morph').CallExpression, depth: number): boolean {
  const callee = call.getExpression();
  if (Node.isPropertyAccessExpression(callee) && /^(registerTool|registerPrompt|registerResource|tool|prompt|resource)$/.test(callee.getName())) {
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

/** The `new McpServer(...)` an expression's server comes from, across files. */
function constructionOf(expr: Node, depth = 0): Node | undefined {
  if (depth > 6) return undefined;
  const e = unwrap(expr);
  if (Node.isNewExpression(e)) return serverKindOf(e) ? sdkConstructorCall(e) : undefined;
  if (Node.isPropertyAccessExpression(e) && e.getName() === 'server') return constructionOf(e.getExpression(), depth + 1);
  const symbol = Node.isIdentifier(e) ? e.getSymbol() : Node.isPropertyAccessExpression(e) ? e.getNameNode().getSymbol() : undefined;
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  for (const decl of target?.getDeclarations() ?? []) {
    if (Node.isVariableDeclaration(decl) || Node.isPropertyDeclaration(decl)) {
      const init = decl.getInitializer();
      if (init) return constructionOf(init, depth + 1);
    }
  }
  return undefined;
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
      const superCall = ctor.getDescendantsOfKind(SyntaxKind.CallExpression).find(c => c.getExpression().getKind() === SyntaxKind.SuperKeyword);
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
  return declared && Node.isClassDeclaration(declared) && !declared.getSourceFile().isInNodeModules() && !declared.getSourceFile().isDeclarationFile() ? declared : undefined;
}

function wiringOf(construction: Node): ServerWiringPlan | undefined {
  if (!Node.isNewExpression(construction) && !Node.isCallExpression(construction)) return undefined;
  const args = construction.getArguments();
  const [first, options] = args;
  const range = (n: Node) => ({ start: n.getStart(), end: n.getEnd() });
  const optionsIsObjectLiteral = options !== undefined && Node.isObjectLiteralExpression(unwrap(options));
  const alreadyWired = optionsIsObjectLiteral && (unwrap(options!) as import('ts-morph').ObjectLiteralExpression).getProperty('requestState') !== undefined;
  const literal = optionsIsObjectLiteral ? (unwrap(options!) as import('ts-morph').ObjectLiteralExpression) : undefined;
  return {
    construct: range(construction),
    options: options ? range(options) : undefined,
    optionsIsObjectLiteral,
    ...(literal ? { optionProperties: literal.getProperties().map(range) } : {}),
    firstArg: first ? range(first) : undefined,
    alreadyWired
  };
}

function moduleSpecifier(sf: SourceFile, target: string): string {
  let spec = path.relative(path.dirname(sf.getFilePath()), target).split(path.sep).join('/');
  if (!spec.startsWith('.')) spec = `./${spec}`;
  const withoutExt = spec.replace(/\.(ts|js|mjs|cjs|mts|cts)$/, '');
  const relImports = sf.getImportDeclarations().map(d => d.getModuleSpecifierValue()).filter(s => s.startsWith('.'));
  const extensionless = relImports.length > 0 && relImports.every(s => !/\.[cm]?[jt]s$/.test(s));
  const ext = path.extname(target);
  if (ext === '.cjs' || ext === '.mjs') return withoutExt + ext;
  return extensionless ? withoutExt : `${withoutExt}.js`;
}

export function isCommonJs(sf: SourceFile): boolean {
  if (sf.getFilePath().endsWith('.cjs') || sf.getFilePath().endsWith('.cts')) return true;
  if (sf.getImportDeclarations().length > 0) return false;
  return sf.getDescendantsOfKind(SyntaxKind.CallExpression).some(c => c.getExpression().getText() === 'require');
}

export function importsMcp(sf: SourceFile): boolean {
  return sf.getImportDeclarations().some(d => isMcpModule(d.getModuleSpecifierValue()));
}

export { STATE_MODULE_BASENAME };

/** What became of one delegate of a handler that hands its call on (src/analysis/delegates.ts). */
interface DelegateOutcome {
  fn: FunctionLike;
  label: string;
  /** Its handler plan, when it was migrated. */
  plan?: HandlerPlan;
  /** Why it was not, when it was not. */
  failure?: string;
  sites: Site[];
  /** What the report says of it: its sites, its notes. */
  reports: SiteReport[];
  notes: string[];
}

interface Recorder {
  planFor: (sf: SourceFile) => FilePlan;
  sites: SiteReport[];
  notes: string[];
  rel: (sf: SourceFile) => string;
}

/**
 * Every delegate of a handler is migrated, or none is: the handler runs whichever one the instance has.
 * When all of them that make requests were migrated, the handler passes its context on (and an abstract
 * declaration takes it); otherwise each one's plan is dropped and its sites marked with the reason.
 */
function settleDelegations(outcomes: Map<Delegation, DelegateOutcome[]>, r: Recorder): void {
  for (const [delegation, list] of outcomes) {
    const failed = list.find(o => !o.plan) ?? unmigratedDelegate(delegation, list);
    if (!failed) {
      passContextOn(delegation, list, r);
      continue;
    }
    const classes = list.map(o => (delegation.table ? entryLabel(o.fn) : (o.fn.getFirstAncestorByKind(SyntaxKind.ClassDeclaration)?.getName() ?? o.label))).join(', ');
    const whichever = delegation.table ? `whichever entry ${(delegation.call.getExpression() as import('ts-morph').PropertyAccessExpression).getExpression().getText()} is` : 'whichever class the instance is';
    const reason = `${delegation.handlerName} runs the ${delegation.callee} of ${whichever} (${classes}), and ${failed.label} cannot be migrated (${failed.failure}), so none is; make that one migratable, or migrate by hand`;
    for (const o of list) {
      if (!o.plan) continue;
      const plan = r.planFor(o.fn.getSourceFile());
      plan.handlers.splice(plan.handlers.indexOf(o.plan), 1);
      for (const note of o.notes) r.notes.splice(r.notes.indexOf(note), 1);
      for (const site of o.sites) {
        const { line, column } = site.node.getSourceFile().getLineAndColumnAtPos(site.node.getStart());
        const report = o.reports.find(x => x.outcome === 'rewritten' && x.line === line && x.column === column && x.kind === site.kind);
        if (!report) continue;
        Object.assign(report, { outcome: 'marked', reason: `${o.label} not migrated: ${reason}`, cause: `${DELEGATE_CAUSE}: another delegate of its handler cannot be migrated` });
        addMarker(plan, site.node, report.reason);
      }
    }
  }
}

/** A delegate that reaches a request the analysis did not find (a helper call in it was not inlined, and is marked). */
function unmigratedDelegate(delegation: Delegation, migrated: DelegateOutcome[]): DelegateOutcome | undefined {
  for (const fn of delegation.delegates) {
    if (migrated.some(o => o.fn === fn)) continue;
    const marker = /\/\/ mcp-migrate: ([^\n]*)/.exec(fn.getBody()?.getText() ?? '');
    if (marker) return { fn, label: delegateLabel(fn, delegation.callee), failure: marker[1], sites: [], reports: [], notes: [] };
  }
  return undefined;
}

/** The handler's half of a migrated delegation: it passes its context to the call; an abstract declaration takes it. */
function passContextOn(delegation: Delegation, migrated: DelegateOutcome[], r: Recorder): void {
  const { handler, registration, call, signature } = delegation;
  const sf = handler.getSourceFile();
  const range = (n: Node) => ({ start: n.getStart(), end: n.getEnd() });
  if (call.getArguments().length === registration.ctxIndex) (r.planFor(sf).delegating ??= []).push({ fn: range(handler), ctx: ctxOf(registration, handler), call: range(call) });
  if (signature) (r.planFor(signature.getSourceFile()).delegateSignatures ??= []).push({ fn: range(signature), ctx: ctxOf(registration, signature) });
  // A table's declaration of the member its entries share returns what they may: input_required too.
  const widen = delegation.table?.widen;
  if (widen) (r.planFor(widen.getSourceFile()).widenedCallbackTypes ??= []).push(range(widen));
  // A method body left as it is, overridden by a migrated one, takes the context too (an override may not ask for more).
  const migratedFns = new Set<Node>(migrated.map(o => o.fn));
  for (const fn of delegation.delegates.filter(f => !delegation.table && !migratedFns.has(f) && Node.isMethodDeclaration(f) && overridesOf(f).some(o => migratedFns.has(o)))) {
    const ctx = ctxOf(registration, fn);
    const unused = ctx.add?.map(name => (name === ctx.name ? '_ctx' : name));
    if (unused) (r.planFor(fn.getSourceFile()).delegateSignatures ??= []).push({ fn: range(fn), ctx: { ...ctx, name: '_ctx', add: unused } });
  }
  const { line } = sf.getLineAndColumnAtPos(call.getStart());
  const names = migrated.map(o => o.label);
  const owner = widen?.getFirstAncestor(a => Node.isInterfaceDeclaration(a) || Node.isTypeAliasDeclaration(a)) as { getName(): string } | undefined;
  const declared = signature
    ? `; its declaration in ${signature.getFirstAncestorByKind(SyntaxKind.ClassDeclaration)?.getName() ?? 'the class'} takes the context too`
    : widen ? `; its declaration in ${owner?.getName() ?? 'the table\'s type'} may return InputRequiredResult too` : '';
  r.notes.push(`${r.rel(sf)}:${line}: ${delegation.handlerName} passes its context on to ${call.getExpression().getText()}(...): ${names.join(' and ')} migrated as its ${names.length === 1 ? 'delegate' : 'delegates'}${declared}`);
}
