/**
 * Control flow and liveness for one handler: where it suspends, which statements run after each
 * suspension, which locals those statements need, and whether each can travel in requestState.
 */
import { Node, SyntaxKind, ts, type Block, type ForOfStatement, type Statement, type Type, type VariableDeclaration } from 'ts-morph';
import type { CarriedLocal, HandlerPlan, LoopPlan, Range, RecomputedLocal, RequestPlan, ResponseReader, SuspensionPlan, SwitchPlan, UnreadWhereMade } from '../plan.js';
import { constObjectLiteral, objectProperty, unwrap } from './mcpSymbols.js';
import { nameAllocator } from './names.js';
import { recomputation } from './recompute.js';
import { droppedByRequests, unreadWhereMade, unusedDeclarations, type Gone } from './unusedLocals.js';
import { helperOf, requestReached } from './inline.js';
import type { FunctionLike, Registration, Site } from './sites.js';

export class Unsupported extends Error {
  constructor(
    message: string,
    readonly at: Node,
    /** Whether the request, left as it is, still reaches 2025-era clients once the server runs on SDK 2.x. */
    readonly servesLegacy = true
  ) {
    super(message);
  }
}

const range = (n: Node): Range => ({ start: n.getStart(), end: n.getEnd() });

interface Suspension {
  statement: Statement;
  sites: Site[];
  /** The node replaced by the readers in the resuming phase. */
  replace: Node;
  promiseAll?: Node;
  /** By site, the names of the handler's locals its request's arguments change. */
  argumentWrites?: Map<Site, string[]>;
  /** The elements of its Promise.all that are not requests, awaited where it suspends and carried. */
  besides?: Beside[];
}

interface Beside {
  node: Node;
  /** The local its value is carried in. */
  name: string;
  /** The type of its value. */
  value: Type;
}

export interface HandlerPlanning {
  /** Undefined when no site of the handler can be rewritten. */
  plan?: HandlerPlan;
  /** Sites left as they are (and marked), each with the reason; the handler's other sites are still rewritten. */
  skipped: { site: Site; reason: Unsupported }[];
}

/**
 * Plans the rewrite of one handler. A site that cannot be split out is skipped (it stays an
 * ordinary await, still served to 2025-era clients) without holding back the others; what makes
 * the whole handler unmigratable (its shape, a local that cannot travel) throws Unsupported.
 */
/**
 * `host`: when `fn` is a callback the registered handler returns through a pass-through wrapper, the
 * handler (its parameters name the call and give the context) and the note for the wrapper's statement.
 */
export function planHandler(fn: FunctionLike, registration: Registration, sites: Site[], host?: { fn: FunctionLike; statement: Node; note: string }): HandlerPlanning {
  const body = fn.getBody();
  if (!body || !Node.isBlock(body)) throw new Unsupported('the handler is an expression-bodied arrow function; give it a block body', fn);
  if (!(fn as unknown as { isAsync(): boolean }).isAsync()) throw new Unsupported('the handler is not an async function', fn);
  const skipped: HandlerPlanning['skipped'] = [];
  const attempt = <T>(site: Site, work: () => T): T | undefined => {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      skipped.push({ site, reason: error });
      return undefined;
    }
  };
  // Promise.all groups several sites into one suspension.
  const unique = new Map<Node, Suspension>();
  for (const site of sites) {
    const s = attempt(site, () => suspensionOf(site, body));
    if (!s) continue;
    const existing = unique.get(s.statement);
    if (existing && existing.promiseAll && existing.promiseAll === s.promiseAll) existing.sites.push(...s.sites);
    else if (existing) {
      const reason = new Unsupported('two server-initiated requests are awaited in one statement; split it into one await per statement', s.statement);
      skipped.push(...existing.sites.map(x => ({ site: x, reason })), { site, reason });
      unique.delete(s.statement);
    } else unique.set(s.statement, s);
  }
  const ordered: Suspension[] = [];
  // Names for the values a Promise.all awaits beside its requests, made only when one does (listing the names costs).
  let allocator: ((base: string) => string) | undefined;
  const fresh = (base: string): string => (allocator ??= nameAllocator(fn.getDescendantsOfKind(SyntaxKind.Identifier).map(i => i.getText())))(base);
  for (const s of unique.values()) {
    try {
      checkEvaluationOrder(s.replace, s.statement);
      s.argumentWrites = new Map(s.sites.map(site => [site, argumentWrites(site, fn)]));
      if (s.promiseAll) s.besides = besideRequests(s, sites, fresh);
      checkPath(s.statement, body);
      ordered.push(s);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      skipped.push(...s.sites.map(site => ({ site, reason: error })));
    }
  }
  ordered.sort((a, b) => a.statement.getStart() - b.statement.getStart());
  if (ordered.length === 0) return { skipped };
  const groups = batch(ordered);
  const { loops, switches, finallyGuard } = controlPlans(ordered.map(s => s.statement), body, fn);
  const keys = new KeyAllocator();
  const params = fn.getParameters();
  const reassignedParams = params.flatMap(p => boundIdentifiers(p.getNameNode())).filter(id => isReassigned(id, fn));
  const steps = nameAllocator([]);
  // What the builders leave unread (the server a request was called on) is read by no phase.
  const { dropped, gone } = unusedDeclarations(fn, body, droppedByRequests(ordered.flatMap(s => s.sites.map(site => ({ replace: replacedBy(site, s), site })))));
  const plans: SuspensionPlan[] = groups.map(group => {
    const requests = group.flatMap(s => s.sites.map(site => requestOf(site, s, keys, fn)));
    const { live, recompute, recomputedLocals } = liveAcross(group, body, fn, reassignedParams, loops, ordered, gone);
    return {
      step: steps(stepName(requests)),
      statements: group.map(s => range(s.statement)),
      requests,
      live,
      recompute,
      ...(recomputedLocals.length > 0 ? { recomputedLocals } : {}),
      promiseAll: group.length === 1 && group[0]!.promiseAll ? range(group[0]!.promiseAll) : undefined,
      insideTry: insideTry(group[0]!.statement, body) || undefined,
      requestsFirst: changesCarried(group, live) || group.some(s => (s.besides ?? []).length > 0) || undefined,
      besides: besidesOf(group)
    };
  });
  const made = madeBeforeUnread(plans, ordered, body, fn, gone);
  const perPhase = finallyGuard ? finallyPerPhase(ordered.map(s => s.statement), body, plans) : [];
  for (const [i, p] of plans.entries()) p.guardsFinally = guardsFinally(groups[i]![0]!.statement, body, perPhase) || undefined;
  const guard = plans.some(p => p.guardsFinally) ? finallyGuard : undefined;
  if (guard && perPhase.length > 0) guard.perPhase = perPhase.map(range);
  const plan: HandlerPlan = {
    method: registration.method,
    label: registration.label,
    fn: range(fn),
    body: range(body),
    ...(host ? { host: { fn: range(host.fn), statement: host.statement.getStart(), note: host.note } } : {}),
    nameText: nameTextOf(registration, host?.fn ?? fn),
    argsText: argsTextOf(registration, host?.fn ?? fn),
    ctx: ctxOf(registration, host?.fn ?? fn),
    suspensions: plans,
    ...(dropped.length > 0 ? { dropped } : {}),
    ...(made.length > 0 ? { unreadWhereMade: made } : {}),
    loops,
    switches,
    finallyGuard: guard
  };
  return { plan, skipped };
}

/** The handles made again on resume that nothing reads where the handler first makes them (src/analysis/unusedLocals.ts). */
function madeBeforeUnread(plans: SuspensionPlan[], ordered: Suspension[], body: Block, fn: FunctionLike, gone: Gone): UnreadWhereMade[] {
  const starts = new Set(plans.flatMap(p => (p.recomputedLocals ?? []).map(l => l.range.start)));
  if (starts.size === 0) return [];
  const suspensions = new Set<Node>(ordered.map(s => s.statement));
  return body
    .getDescendantsOfKind(SyntaxKind.VariableStatement)
    .filter(st => starts.has(st.getStart()))
    .flatMap(st => unreadWhereMade(st, suspensions, fn, gone) ?? []);
}

/** Finds the statement a site suspends in and checks the await sits where a phase can split. */
function suspensionOf(site: Site, body: Block): Suspension {
  if (site.passedOn) {
    const target = site.node.getParent();
    const where = target && Node.isCallExpression(target) ? ` to ${target.getExpression().getText()}()` : '';
    throw new Unsupported(`${site.node.getText()} is passed on as a value${where}, so the request it sends cannot be followed; call it in the handler, or rewrite that helper to return inputRequired`, site.node);
  }
  if (site.unsupported) throw new Unsupported(site.unsupported.reason, site.node, site.unsupported.servesLegacy);
  if (site.urlError) {
    throw new Unsupported('throw new UrlElicitationRequiredError(...) is not rewritten yet; return inputRequired({ inputRequests: { k: inputRequired.elicitUrl({ message, url }) } }) instead', site.node);
  }
  let expr: Node = site.unwrapped?.call ?? site.node;
  let promiseAll: Node | undefined;
  const parent = skipParens(expr).getParent();
  if (parent && Node.isArrayLiteralExpression(parent)) {
    const all = parent.getParent();
    if (all && Node.isCallExpression(all) && /^Promise\.all$/.test(all.getExpression().getText()) && all.getArguments()[0] === parent) {
      promiseAll = all;
      expr = all;
    } else {
      throw new Unsupported('the request is put in an array that is not awaited with Promise.all', site.node);
    }
  }
  const outer = skipParens(expr).getParent();
  let replace: Node;
  if (outer && Node.isAwaitExpression(outer)) replace = outer;
  else if (outer && Node.isReturnStatement(outer)) replace = skipParens(expr);
  else throw new Unsupported('the request promise is not awaited where it is made (stored or passed on); await it directly', site.node);
  const statement = replace.getFirstAncestor(a => Node.isStatement(a) && !Node.isBlock(a)) as Statement | undefined;
  if (!statement || statement.getFirstAncestor(a => a === body) === undefined) throw new Unsupported('the await is not inside the handler body', site.node);
  return { statement, sites: [site], replace, promiseAll };
}

function skipParens(n: Node): Node {
  let cur = n;
  while (cur.getParent() && Node.isParenthesizedExpression(cur.getParent()!)) cur = cur.getParent()!;
  return cur;
}

/**
 * The resuming phase re-runs the whole statement with the await replaced by the answer. That is
 * only the same program when nothing with an effect is evaluated before the await in it.
 */
function checkEvaluationOrder(awaited: Node, statement: Statement): void {
  for (let n = awaited.getParent(); n && n !== statement; n = n.getParent()) {
    if (Node.isConditionalExpression(n) || (Node.isBinaryExpression(n) && isShortCircuit(n.getOperatorToken().getKind()) && n.getRight().getEnd() >= awaited.getEnd() && n.getRight().getStart() <= awaited.getStart())) {
      throw new Unsupported('the await is evaluated conditionally inside an expression; move it into its own statement under an if', awaited);
    }
    if (Node.isVariableStatement(n) || Node.isVariableDeclarationList(n)) {
      const count = Node.isVariableStatement(n) ? n.getDeclarations().length : n.getDeclarations().length;
      if (count > 1) throw new Unsupported('the await is in a declaration list; declare one variable per statement', awaited);
    }
  }
  // Source order is evaluation order here: an effect written before the await (and not
  // containing it, like the call it is an argument of) would run again in the resuming phase.
  const before = statement.getDescendants().filter(d => d.getEnd() <= awaited.getStart() && isEffect(d) && !insideFunction(d, statement));
  if (before.length > 0) {
    throw new Unsupported('the statement evaluates something with an effect before the await; split it so the await comes first', awaited);
  }
}

/**
 * The handler's locals the request's arguments change (`message: `Question ${++asked}``), directly or through a
 * function of the handler they call (`message: tag(item)`, where `tag` does `++counter`). The round is then printed
 * with its requests built first (`const inputRequests = { key: inputRequired.elicit(params) };` before
 * `return call.suspend({ step, ...locals }, inputRequests)`), so the locals it carries are the ones after the
 * arguments ran, as the code after the await read them. A local that cannot travel as JSON would be made again on
 * resume, without the change: that request is left as it is, with where to move the change.
 */
function argumentWrites(site: Site, fn: FunctionLike): string[] {
  if (!Node.isCallExpression(site.node)) return [];
  const names: string[] = [];
  for (const arg of site.node.getArguments()) {
    for (const written of localsWrittenIn(arg, fn, 0)) {
      const problem = unserializable(written.getType(), 0);
      if (problem) {
        throw new Unsupported(
          `the request's arguments change the handler's local "${written.getText()}" (${problem}), which cannot travel in requestState, so the rewritten round would not carry the change; keep what the arguments change in a plain local (a number, a string, an object literal)`,
          site.node
        );
      }
      names.push(written.getText());
    }
  }
  return names;
}

/** The locals of `fn` declared outside `node` that `node` assigns (or increments), itself or through functions of `fn` it calls. */
function localsWrittenIn(node: Node, fn: FunctionLike, depth: number): Node[] {
  const outside = (decl: Node | undefined) => decl !== undefined && decl.getFirstAncestor(a => a === fn) !== undefined && !(decl.getStart() >= node.getStart() && decl.getEnd() <= node.getEnd());
  const written: Node[] = [];
  for (const d of [node, ...node.getDescendants()]) {
    const target = writeTarget(d);
    if (target && outside(declOf(target))) written.push(target);
    if (!Node.isCallExpression(d) || depth >= 2) continue;
    const callee = unwrap(d.getExpression());
    const decl = Node.isIdentifier(callee) ? declOf(callee) : undefined;
    if (!decl || !outside(decl)) continue;
    const init = Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
    const local = Node.isFunctionDeclaration(decl) ? decl : init && (Node.isArrowFunction(unwrap(init)) || Node.isFunctionExpression(unwrap(init))) ? unwrap(init) : undefined;
    if (local) written.push(...localsWrittenIn(local, fn, depth + 1));
  }
  return written;
}

/** The round's Promise.all elements that are not requests: where they are, and the local each value is carried in. */
function besidesOf(group: Suspension[]): SuspensionPlan['besides'] {
  const besides = group.flatMap(s => (s.besides ?? []).map(b => ({ range: range(b.node), name: b.name })));
  return besides.length > 0 ? besides : undefined;
}

/** Whether the arguments of the round's requests change a local it carries: then its requests are built before its state is sealed. */
function changesCarried(group: Suspension[], live: CarriedLocal[]): boolean {
  const written = new Set(group.flatMap(s => [...(s.argumentWrites?.values() ?? [])].flat()));
  return live.some(l => !l.answered && written.has(l.name));
}

/** The identifier an assignment, `++` or `--` writes, or the one its target is a member of (`state.count++`). */
function writeTarget(n: Node): Node | undefined {
  let target: Node | undefined;
  if (Node.isBinaryExpression(n)) {
    const k = n.getOperatorToken().getKind();
    if (k >= SyntaxKind.FirstAssignment && k <= SyntaxKind.LastAssignment) target = n.getLeft();
  } else if ((Node.isPrefixUnaryExpression(n) || Node.isPostfixUnaryExpression(n)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(n.getOperatorToken())) {
    target = n.getOperand();
  }
  while (target && (Node.isPropertyAccessExpression(target) || Node.isElementAccessExpression(target) || Node.isParenthesizedExpression(target) || Node.isNonNullExpression(target))) target = target.getExpression();
  return target && Node.isIdentifier(target) ? target : undefined;
}

/**
 * The elements of a Promise.all the round replaces that are not its requests (`loadRecord(id)` beside a question).
 * The round sends only requests, so such an element is awaited in the suspending phase, after the requests are
 * built, as the Promise.all evaluated it after their arguments; its value is carried to the resuming phase, where
 * it takes its place in the array. That keeps the order of every effect when it comes after all the requests,
 * holds no request itself, and its value can travel as JSON; anything else is left as it is, with why.
 */
function besideRequests(s: Suspension, sites: Site[], fresh: (base: string) => string): Beside[] {
  const list = Node.isCallExpression(s.promiseAll!) ? s.promiseAll.getArguments()[0] : undefined;
  if (!list || !Node.isArrayLiteralExpression(list)) return [];
  const requests = new Set<Node>(s.sites.map(site => site.unwrapped?.call ?? site.node));
  const elements = list.getElements();
  const lastRequest = Math.max(...elements.map((e, i) => (requests.has(skipParens(e)) ? i : -1)));
  const others = elements.filter(e => !requests.has(skipParens(e)));
  const found = others.map(other => {
    const refuse = (why: string): never => {
      throw new Unsupported(`the Promise.all also awaits ${other.getText().replace(/\s+/g, ' ').slice(0, 60)}, ${why}`, s.sites[0]!.node);
    };
    if (Node.isSpreadElement(other) || Node.isOmittedExpression(other)) return refuse('a spread or a hole, which the rewritten round cannot send with its requests; await it in a statement of its own');
    if (elements.indexOf(other) < lastRequest) return refuse("before a request: the rewritten round would run it after the request's arguments; list the requests first, or await it in a statement of its own");
    if (sites.some(site => site.node.getStart() >= other.getStart() && site.node.getEnd() <= other.getEnd()) || callsAskingHelper(other)) return refuse('which sends a request itself; await it in a statement of its own');
    const value = awaitedType(other);
    const problem = value ? unserializable(value, 0) : 'a thenable of its own';
    if (problem) return refuse(`whose value (${problem}) cannot travel in requestState to where the round resumes; await it in a statement of its own`);
    return { node: other, name: fresh(`awaited${pascal(bindingAt(s, elements.indexOf(other)) ?? 'value')}`), value: value! };
  });
  const parent = s.statement.getParent();
  if (found.length > 0 && !(parent && (Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent)))) {
    throw new Unsupported(`the Promise.all also awaits ${found[0]!.node.getText().slice(0, 60)}, in a statement that is not in a block; give it braces`, s.sites[0]!.node);
  }
  return found;
}

/**
 * Whether an element calls a function of the project that sends a request (`askName()` beside a question): it
 * would run, asking push-style, where the round suspends; the inliner marks the call, not the Promise.all.
 */
function callsAskingHelper(element: Node): boolean {
  return [element, ...element.getDescendantsOfKind(SyntaxKind.CallExpression)].some(call => {
    if (!Node.isCallExpression(call)) return false;
    const helper = helperOf(call.getExpression());
    return helper !== undefined && requestReached(helper.fn, helper.name) !== undefined;
  });
}

/** What awaiting a value gives: a Promise's type argument, the value's own type when it is no promise; none for another thenable. */
function awaitedType(n: Node): Type | undefined {
  const type = n.getType();
  if (type.getSymbol()?.getName() === 'Promise' && type.getTypeArguments().length === 1) return type.getTypeArguments()[0];
  if (type.isAny() || type.isUnknown()) return type;
  return (type.isUnion() ? type.getUnionTypes() : [type]).some(t => t.getProperty('then')) ? undefined : type;
}

/** The name the statement gives the Promise.all's element at `index` (`record` in `const [answer, record] = ...`). */
function bindingAt(s: Suspension, index: number): string | undefined {
  const st = s.statement;
  const name = Node.isVariableStatement(st) ? st.getDeclarations()[0]?.getNameNode() : undefined;
  const el = name && Node.isArrayBindingPattern(name) ? name.getElements()[index] : undefined;
  return el && Node.isBindingElement(el) && Node.isIdentifier(el.getNameNode()) ? el.getName() : undefined;
}

function pascal(name: string): string {
  return name[0]!.toUpperCase() + name.slice(1);
}

function insideFunction(n: Node, stop: Node): boolean {
  for (let p = n.getParent(); p && p !== stop; p = p.getParent()) {
    if (Node.isArrowFunction(p) || Node.isFunctionExpression(p)) return true;
  }
  return false;
}

function isShortCircuit(kind: SyntaxKind): boolean {
  return kind === SyntaxKind.AmpersandAmpersandToken || kind === SyntaxKind.BarBarToken || kind === SyntaxKind.QuestionQuestionToken;
}

function isEffect(n: Node): boolean {
  if (Node.isCallExpression(n) || Node.isNewExpression(n) || Node.isAwaitExpression(n) || Node.isYieldExpression(n) || Node.isTaggedTemplateExpression(n) || Node.isDeleteExpression(n)) return true;
  if (Node.isPrefixUnaryExpression(n) || Node.isPostfixUnaryExpression(n)) {
    const op = n.getOperatorToken();
    return op === SyntaxKind.PlusPlusToken || op === SyntaxKind.MinusMinusToken;
  }
  if (Node.isBinaryExpression(n)) {
    const k = n.getOperatorToken().getKind();
    return k >= SyntaxKind.FirstAssignment && k <= SyntaxKind.LastAssignment;
  }
  return false;
}

/** Every construct between the statement and the body must be one a phase can be split through. */
function checkPath(statement: Statement, body: Block): void {
  let child: Node = statement;
  for (let n = statement.getParent(); n && n !== body; child = n, n = n.getParent()) {
    if (Node.isBlock(n) || Node.isIfStatement(n) || Node.isCaseClause(n) || Node.isDefaultClause(n) || Node.isCaseBlock(n) || Node.isSwitchStatement(n)) continue;
    if (Node.isForStatement(n) || Node.isWhileStatement(n) || Node.isDoStatement(n)) {
      if (child !== n.getStatement()) throw new Unsupported('the await is in a loop header; move it into the loop body', statement);
      continue;
    }
    if (Node.isForOfStatement(n) || Node.isForInStatement(n)) {
      const loop = Node.isForInStatement(n) ? 'for...in' : n.isAwaited() ? 'for await...of' : 'for...of';
      if (child !== n.getStatement()) throw new Unsupported('the await is in a loop header; move it into the loop body', statement);
      if (!Node.isVariableDeclarationList(n.getInitializer())) throw new Unsupported(`the ${loop} loop assigns an outer variable; declare the loop variable in the loop`, statement);
      if (Node.isForOfStatement(n)) checkSnapshot(n, statement);
      continue;
    }
    if (Node.isTryStatement(n)) {
      if (child === n.getFinallyBlock()) {
        throw new Unsupported('the await is inside a finally block, which runs as the try is left and cannot wait for a later round; move the request after the try statement or migrate by hand', statement);
      }
      continue;
    }
    if (Node.isCatchClause(n)) continue;
    if (Node.isLabeledStatement(n) && Node.isBlock(n.getStatement())) continue; // an inlined helper
    const shape = Node.isLabeledStatement(n) ? 'a labelled statement' : n.getKindName();
    throw new Unsupported(`the await is inside ${shape}, which this version does not split into phases; lift it out or migrate by hand`, statement);
  }
}

/**
 * A for...of (or for await...of) resumes from a snapshot of its items carried in requestState: they
 * must travel as JSON, and a for await...of must iterate an array or tuple (an async iterable's
 * position cannot be carried).
 */
function checkSnapshot(loop: ForOfStatement, statement: Statement): void {
  const iterated = loop.getExpression().getType();
  let items: Type[];
  if (loop.isAwaited()) {
    if (!iterated.isArray() && !iterated.isTuple()) {
      throw new Unsupported(
        `the await is inside a for await...of over ${describeType(iterated, loop)}, not an array: its position cannot travel in requestState; collect the items into an array before the loop, or migrate by hand`,
        statement
      );
    }
    items = iterated.isArray() ? [iterated.getArrayElementTypeOrThrow()] : iterated.getTupleElements();
  } else {
    items = [loop.getInitializer().asKindOrThrow(SyntaxKind.VariableDeclarationList).getDeclarations()[0]!.getType()];
  }
  for (const item of items) {
    const problem = unserializable(item, 0);
    if (!problem) continue;
    const fix = problem === 'a Promise' ? 'await them before the loop (Promise.all) and iterate the values' : 'iterate plain data (ids, records) and look the rest up in the loop body';
    throw new Unsupported(`the ${loop.isAwaited() ? 'for await...of' : 'for...of'} loop iterates values that cannot travel in requestState (${problem}), and its snapshot of the items is carried across the await; ${fix}`, statement);
  }
}

function describeType(type: Type, at: Node): string {
  const text = type.getText(at, ts.TypeFormatFlags.NoTruncation);
  return text.length <= 60 ? `an iterable of type ${text}` : 'an iterable that is not an array';
}

/** Inside a try block, or inside the catch of a try whose finally must see what the legacy await threw. */
function insideTry(statement: Statement, body: Block): boolean {
  for (let n: Node = statement; n !== body; n = n.getParent()!) {
    const parent = n.getParent()!;
    if (Node.isTryStatement(parent) && (n === parent.getTryBlock() || (n === parent.getCatchClause() && parent.getFinallyBlock()))) return true;
  }
  return false;
}

/** Inside the try block or the catch clause of a try statement that has a finally block. */
function guardsFinally(statement: Statement, body: Block, perPhase: Node[] = []): boolean {
  for (let n: Node = statement; n !== body; n = n.getParent()!) {
    const parent = n.getParent()!;
    if (Node.isTryStatement(parent) && parent.getFinallyBlock() && n !== parent.getFinallyBlock() && !perPhase.includes(parent)) return true;
  }
  return false;
}

/**
 * The trys around suspensions whose finally only releases handles made again in each phase
 * (`finally { connection.release(); }`): each phase's handle is its own, so that finally runs in every phase.
 */
function finallyPerPhase(statements: Statement[], body: Block, plans: SuspensionPlan[]): Node[] {
  const remade = new Set(plans.flatMap(p => (p.recomputedLocals ?? []).map(l => l.name)));
  if (remade.size === 0) return [];
  const trys = new Set(statements.flatMap(st => st.getAncestors().filter(Node.isTryStatement).filter(t => t.getStart() >= body.getStart())));
  return [...trys].filter(t => t.getFinallyBlock() !== undefined && releasesOnly(t.getFinallyBlock()!, remade));
}

/** Every statement of the block is a call of a method on one of `handles` (awaited or not), with plain arguments. */
function releasesOnly(block: Block, handles: Set<string>): boolean {
  const statements = block.getStatements();
  return statements.length > 0 && statements.every(st => {
    if (!Node.isExpressionStatement(st)) return false;
    const expr = st.getExpression();
    const call = Node.isAwaitExpression(expr) ? expr.getExpression() : expr;
    if (!Node.isCallExpression(call)) return false;
    const callee = call.getExpression();
    return Node.isPropertyAccessExpression(callee) && Node.isIdentifier(callee.getExpression()) && handles.has(callee.getExpression().getText())
      && call.getArguments().every(a => Node.isLiteralExpression(a) || Node.isIdentifier(a));
  });
}

/** Loops and switches around the suspensions, in source order, with the names the rewrite introduces. */
function controlPlans(statements: Statement[], body: Block, fn: FunctionLike): Pick<HandlerPlan, 'loops' | 'switches' | 'finallyGuard'> {
  const loops = new Map<Node, LoopPlan>();
  const switches = new Map<Node, SwitchPlan>();
  const fresh = nameAllocator(fn.getDescendantsOfKind(SyntaxKind.Identifier).map(i => i.getText()));
  const ancestors = statements.flatMap(st => st.getAncestors().filter(a => a.getStart() >= body.getStart() && a !== body));
  for (const n of [...new Set(ancestors)].sort((a, b) => a.getStart() - b.getStart())) {
    if (Node.isForOfStatement(n) && !loops.has(n)) {
      loops.set(n, { range: range(n), kind: n.isAwaited() ? 'for-await-of' : 'for-of', first: fresh('mcpFirst'), items: fresh('mcpItems'), index: fresh('mcpIndex') });
    } else if (Node.isForInStatement(n) && !loops.has(n)) {
      loops.set(n, { range: range(n), kind: 'for-in', first: fresh('mcpFirst'), items: fresh('mcpKeys'), index: fresh('mcpIndex') });
    } else if ((Node.isForStatement(n) || Node.isWhileStatement(n) || Node.isDoStatement(n)) && !loops.has(n)) {
      loops.set(n, { range: range(n), kind: Node.isForStatement(n) ? 'for' : Node.isWhileStatement(n) ? 'while' : 'do', first: fresh('mcpFirst') });
    } else if (Node.isSwitchStatement(n) && !switches.has(n)) {
      const breaks = n.getDescendantsOfKind(SyntaxKind.BreakStatement).filter(b => !b.getLabel() && breakTarget(b) === n).map(range);
      switches.set(n, { range: range(n), label: fresh('mcpSwitch'), breaks });
    }
  }
  const finallyGuard = statements.some(st => guardsFinally(st, body)) ? { flag: fresh('mcpSuspended'), round: fresh('mcpRound') } : undefined;
  return { loops: [...loops.values()], switches: [...switches.values()], finallyGuard };
}

/** The loop or switch an unlabelled break leaves. */
function breakTarget(b: Node): Node | undefined {
  return b.getFirstAncestor(a => Node.isIterationStatement(a) || Node.isSwitchStatement(a) || Node.isFunctionLikeDeclaration(a) || Node.isArrowFunction(a));
}

/** Adjacent suspensions with no data dependence between them go out in one round. */
function batch(ordered: Suspension[]): Suspension[][] {
  const groups: Suspension[][] = [];
  for (const s of ordered) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (last && prev && !prev.promiseAll && !s.promiseAll && adjacent(prev.statement, s.statement) && !dependsOn(s, last)) last.push(s);
    else groups.push([s]);
  }
  return groups;
}

function adjacent(a: Statement, b: Statement): boolean {
  return a.getParent() === b.getParent() && a.getNextSibling() === b;
}

/** Whether anything evaluated up to the await in `s` reads a name an earlier statement of the group declares or assigns. */
function dependsOn(s: Suspension, group: Suspension[]): boolean {
  const written = new Set<Node>();
  // The names written, so an identifier of another name is not resolved (a property's name can mean typing its object).
  const names = new Set<string>();
  const write = (id: Node) => {
    names.add(id.getText());
    written.add(declOf(id) ?? id);
  };
  for (const g of group) {
    const st = g.statement;
    if (Node.isVariableStatement(st)) for (const d of st.getDeclarations()) boundIdentifiers(d.getNameNode()).forEach(write);
    if (Node.isExpressionStatement(st)) {
      const e = unwrap(st.getExpression());
      if (Node.isBinaryExpression(e)) for (const id of e.getLeft().getDescendantsOfKind(SyntaxKind.Identifier).concat(Node.isIdentifier(e.getLeft()) ? [e.getLeft() as never] : [])) write(id);
    }
  }
  const before = s.statement.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => id.getStart() < s.replace.getEnd() && names.has(id.getText()));
  return before.some(id => {
    const d = declOf(id);
    return d !== undefined && written.has(d);
  });
}

/**
 * `b` in `a.b` and in `{ b: 1 }`: never a local, and resolving it asks the checker for the type of
 * what it is a member of, the expensive part of finding what is live.
 */
function isMemberName(id: Node): boolean {
  const parent = id.getParent();
  return (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) || (Node.isPropertyAssignment(parent) && parent.getNameNode() === id);
}

function declOf(id: Node): Node | undefined {
  // In `{ full }` the identifier's own symbol is the property's: the local it reads is the value symbol's.
  const parent = id.getParent();
  if (parent && Node.isShorthandPropertyAssignment(parent) && parent.getNameNode() === id) return parent.getValueSymbol()?.getDeclarations()[0];
  return id.getSymbol()?.getDeclarations()[0];
}

export function boundIdentifiers(name: Node): Node[] {
  if (Node.isIdentifier(name)) return [name];
  if (Node.isObjectBindingPattern(name) || Node.isArrayBindingPattern(name)) {
    return name.getElements().flatMap(el => (Node.isBindingElement(el) ? boundIdentifiers(el.getNameNode()) : []));
  }
  return [];
}

function isReassigned(id: Node, fn: FunctionLike): boolean {
  const decl = declOf(id);
  const name = id.getText();
  return fn.getDescendantsOfKind(SyntaxKind.Identifier).some(ref => {
    // The name first: asking the checker for the symbol of every identifier is the expensive part. A member
    // name (`result.content.text`) is never the local, and its symbol costs the type of what it is read from.
    if (ref === id || ref.getText() !== name || isMemberName(ref) || declOf(ref) !== decl) return false;
    const p = ref.getParent();
    if (Node.isBinaryExpression(p) && p.getLeft() === ref) {
      const k = p.getOperatorToken().getKind();
      return k >= SyntaxKind.FirstAssignment && k <= SyntaxKind.LastAssignment;
    }
    return (Node.isPrefixUnaryExpression(p) || Node.isPostfixUnaryExpression(p)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(p.getOperatorToken());
  });
}

/** Keys of `inputRequests`, unique within a handler. */
/**
 * What a round waits for, as the name of the step it resumes at: `awaiting-review` for the request keyed
 * `review`, `awaiting-first-and-second` for a batch; a key the rewrite made up (`mcpAwait1`) by the
 * request's kind. Numbers that only told keys apart go (`rootList2`): the handler's steps get their own.
 */
function stepName(requests: RequestPlan[]): string {
  const words = (r: RequestPlan) =>
    (/^mcp[A-Z]/.test(r.key) ? r.kind.replace(/-url$/, '') : r.key.replace(/\d+$/, ''))
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/_+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'input';
  return `awaiting-${[...new Set(requests.map(words))].join('-and-')}`;
}

class KeyAllocator {
  private readonly fresh = nameAllocator([]);
  take(preferred: string): string {
    return this.fresh(preferred.replace(/[^A-Za-z0-9_]/g, '') || 'input');
  }
}

function requestOf(site: Site, s: Suspension, keys: KeyAllocator, fn: FunctionLike): RequestPlan {
  if (site.builder !== 'listRoots' && !site.params) throw new Unsupported('the request has no params to forward', site.node);
  const key = keys.take(preferredKey(site, s));
  const params = site.params ? unwrap(site.params) : undefined;
  let paramsText = params?.getText();
  if (site.builder === 'elicitUrl') {
    // The 2026-07-28 URL request has no mode or elicitationId: drop them from the literal (or the const holding it).
    const literal = constObjectLiteral(params);
    if (!literal || !Node.isObjectLiteralExpression(literal)) throw new Unsupported('URL-mode elicitation params must be an object literal to drop mode and elicitationId', site.node);
    const kept = literal.getProperties().filter(p => !(Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) || !['mode', 'elicitationId'].includes(p.getName()));
    paramsText = `{ ${kept.map(p => p.getText()).join(', ')} }`;
  }
  return {
    key,
    kind: site.kind,
    builder: site.builder,
    reader: site.reader,
    paramsText,
    // SDK 1.x checked accepted content against the requested schema in `elicitInput` only, not in a generic request.
    schemaText: site.builder === 'elicit' && calledMethod(site) === 'elicitInput' ? requestedSchemaText(params, fn) : undefined,
    replace: range(replacedBy(site, s)),
    ...(site.unwrapped ? { unwrapped: { note: site.unwrapped.note, wrapper: site.unwrapped.wrapper } } : {}),
    ...((s.argumentWrites?.get(site) ?? []).length > 0 ? { changesLocals: true } : {})
  };
}

/** What the resuming phase replaces by the request's reader: its await, or its element of a Promise.all. */
function replacedBy(site: Site, s: Suspension): Node {
  return s.promiseAll ? site.node : withParens(s.replace);
}

function calledMethod(site: Site): string | undefined {
  const callee = Node.isCallExpression(site.node) ? site.node.getExpression() : undefined;
  return callee && Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined;
}

/**
 * `(await x).y` reads `reader(...).y` once the await is replaced by the reader's call: the parentheses
 * go with the await when a member of the result is read (not under `new`, where they matter).
 */
function withParens(awaited: Node): Node {
  const outer = skipParens(awaited);
  const parent = outer.getParent();
  if (outer === awaited || !parent || !Node.isPropertyAccessExpression(parent) || parent.getExpression() !== outer) return awaited;
  return parent.getFirstAncestor(a => Node.isNewExpression(a)) ? awaited : outer;
}

function preferredKey(site: Site, s: Suspension): string {
  const named = keyFromStatement(site, s);
  // A temporary of the rewrite (`mcpAwait1`, a hoisted await's) names nothing the user wrote: the request's kind does.
  return named !== undefined && !/^mcp[A-Z]/.test(named) ? named : defaultKey(site);
}

const defaultKey = (site: Site): string =>
  ({ elicitation: 'elicitation', 'elicitation-url': 'urlElicitation', sampling: 'sampling', roots: 'roots', request: 'request', task: 'task', registration: 'input', entry: 'input', capabilities: 'input' })[site.kind];

/** The name the statement of a suspension gives the request's result (`const review = await ...`, `x = await ...`). */
function keyFromStatement(site: Site, s: Suspension): string | undefined {
  const st = s.statement;
  if (Node.isVariableStatement(st)) {
    const name = st.getDeclarations()[0]?.getNameNode();
    if (name && Node.isIdentifier(name)) return name.getText();
    if (name && Node.isArrayBindingPattern(name) && s.promiseAll) {
      const array = s.promiseAll.asKindOrThrow(SyntaxKind.CallExpression).getArguments()[0]!.asKindOrThrow(SyntaxKind.ArrayLiteralExpression);
      const index = array.getElements().findIndex(e => unwrap(e) === site.node);
      const el = name.getElements()[index];
      if (el && Node.isBindingElement(el) && Node.isIdentifier(el.getNameNode())) return el.getName();
    }
  }
  if (Node.isExpressionStatement(st)) {
    const e = unwrap(st.getExpression());
    if (Node.isBinaryExpression(e) && Node.isIdentifier(e.getLeft())) return e.getLeft().getText();
  }
  return undefined;
}

/**
 * What the resuming phase checks the answer against: the schema repeated, or read from the params where
 * they are a const declared outside the handler (`params.requestedSchema`), so it is written once.
 */
function requestedSchemaText(params: Node | undefined, fn: FunctionLike): string | undefined {
  const literal = constObjectLiteral(params);
  const text = repeatableSchema(literal, fn);
  const heldOutside = params !== undefined && Node.isIdentifier(params) && literal !== params && !literal!.getFirstAncestor(a => a === fn);
  return text?.startsWith('{') && heldOutside ? `${params.getText()}.requestedSchema` : text;
}

/** The requested schema's text when the resuming phase can evaluate it again (a literal, or a module-level constant). */
function repeatableSchema(params: Node | undefined, fn: FunctionLike): string | undefined {
  const schema = objectProperty(params, 'requestedSchema');
  if (!schema) return undefined;
  const s = unwrap(schema);
  if (Node.isObjectLiteralExpression(s)) {
    const literalOnly = s.getDescendants().every(d => !Node.isIdentifier(d) || Node.isPropertyAssignment(d.getParent()!) && (d.getParent() as import('ts-morph').PropertyAssignment).getNameNode() === d || d.getText() === 'undefined');
    return literalOnly ? s.getText() : undefined;
  }
  if (Node.isIdentifier(s)) {
    const decl = declOf(s);
    if (decl && Node.isVariableDeclaration(decl) && !decl.getFirstAncestor(a => a === fn) && Node.isObjectLiteralExpression(unwrap(decl.getInitializer() ?? s))) return s.getText();
  }
  return undefined;
}

/**
 * The locals the code after a suspension reads or writes — the rest of every enclosing block,
 * later iterations of enclosing loops, the catch clause of an enclosing try, later cases of an
 * enclosing switch — declared before it in a scope enclosing it: these travel in requestState.
 * Local functions are re-created instead; for...of variables are re-read from the carried snapshot.
 */
function liveAcross(
  group: Suspension[],
  body: Block,
  fn: FunctionLike,
  reassignedParams: Node[],
  loops: LoopPlan[],
  suspensions: Suspension[],
  /** What no phase reads: the parts of the handler's requests the builders drop, the declarations dropped. */
  gone: Gone
): { live: CarriedLocal[]; recompute: Range[]; recomputedLocals: RecomputedLocal[] } {
  const first = group[0]!.statement;
  const last = group[group.length - 1]!.statement;
  const region: Node[] = group.map(g => g.statement);
  const enclosing = new Set<Node>([body]);
  const synthetic: CarriedLocal[] = [];
  // The statement the resumed code ends with at this level, when it is one of the handler's own: an if's
  // branch (or a bare block) that ends in a return or throw never reaches what follows, which the phase leaves
  // out (src/rewrite/resume.ts), so nothing there is carried into the round.
  let inner: Node | undefined;
  for (let n: Node = last; n !== body; n = n.getParent()!) {
    const parent = n.getParent()!;
    if (Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent)) {
      enclosing.add(parent);
      const stmts = parent.getStatements();
      const tail = stmts.slice(stmts.indexOf(n as Statement) + 1);
      const ends = n !== last && (Node.isIfStatement(n) || (Node.isBlock(n) && Node.isBlock(parent))) && inner !== undefined && !completesNormally(inner) && !tail.some(Node.isFunctionDeclaration);
      if (!ends) region.push(...tail);
      inner = ends ? undefined : (tail.at(-1) ?? (n === last ? n : undefined));
    } else if (!Node.isIfStatement(parent)) inner = undefined;
    if (Node.isCaseBlock(parent)) {
      const clauses = parent.getClauses();
      region.push(...clauses.slice(clauses.indexOf(n as never) + 1));
    }
    if (Node.isTryStatement(parent) && n === parent.getTryBlock()) {
      const handler = parent.getCatchClause();
      if (handler) region.push(handler);
    }
    if (Node.isTryStatement(parent) && n !== parent.getFinallyBlock()) {
      const finalizer = parent.getFinallyBlock();
      if (finalizer) region.push(finalizer);
    }
    if (Node.isIterationStatement(parent)) {
      region.push(parent);
      enclosing.add(parent);
      const loop = loops.find(l => l.range.start === parent.getStart() && l.range.end === parent.getEnd());
      if (loop?.items && loop.index) {
        const owner = parent.getParent()!;
        const what = loop.kind === 'for-in' ? 'the keys the for...in' : loop.kind === 'for-await-of' ? 'the values the for await...of' : 'the values the for...of';
        synthetic.push(
          { name: loop.items, declare: 'const', ...snapshotType(parent, loop, fn), scope: range(owner), unbounded: `a snapshot of ${what} iterates` },
          { name: loop.index, declare: 'let', stepType: { text: 'number' }, scope: range(parent) }
        );
      }
    }
  }
  for (const b of group.flatMap(g => (g.besides ?? []).map(b => ({ ...b, scope: g.statement.getParent()! })))) synthetic.push(besideLocal(b, b.scope, fn));
  // What the awaits themselves mention (the request's arguments) is gone from the resuming code.
  const replaced = group.map(g => g.replace);
  const vanishes = (id: Node) => replaced.some(r => id.getStart() >= r.getStart() && id.getEnd() <= r.getEnd());
  // `x = await request()`, `x = fill(await request())`: x gets its value where the phase resumes, from what
  // does not read x; that assignment is no use of x, and its value before is never read.
  const answerTargets = new Set<Node>();
  for (const g of group) {
    const e = Node.isExpressionStatement(g.statement) ? unwrap(g.statement.getExpression()) : undefined;
    if (!e || !Node.isBinaryExpression(e) || e.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || !Node.isIdentifier(e.getLeft())) continue;
    const right = unwrap(e.getRight());
    const target = declOf(e.getLeft());
    const readsTarget = right.getDescendantsOfKind(SyntaxKind.Identifier).some(id => declOf(id) === target);
    if (right.getStart() <= g.replace.getStart() && g.replace.getEnd() <= right.getEnd() && !readsTarget) answerTargets.add(e.getLeft());
  }
  const answered = new Set([...answerTargets].map(declOf).filter((d): d is Node => d !== undefined));
  const carried = new Map<Node, CarriedLocal>();
  const recompute = new Map<Node, Range>();
  const recomputedLocals: RecomputedLocal[] = [];
  const pending: Node[] = [...region];
  const visited = new Set<Node>();
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (visited.has(node)) continue;
    visited.add(node);
    for (const id of [node, ...node.getDescendants()].filter(Node.isIdentifier)) {
      if (vanishes(id) || gone(id) || isMemberName(id) || answerTargets.has(id)) continue;
      const decl = declOf(id);
      if (!decl || carried.has(decl) || recompute.has(decl)) continue;
      if (decl.getStart() >= first.getStart()) continue; // declared in the resuming code itself
      if (!decl.getFirstAncestor(a => a === fn)) continue; // module scope or outer closure: still there on re-entry
      if (Node.isParameterDeclaration(decl) || Node.isParameterDeclaration(decl.getParent()?.getParent() ?? decl)) {
        if (reassignedParams.some(p => declOf(p) === decl) && !answered.has(decl)) {
          // In scope where the handler declares its steps: its type is the parameter's, named or not.
          const stepType = { text: printableType(decl, fn) ?? `typeof ${id.getText()}` };
          carried.set(decl, { ...carry(id.getText(), 'assign', decl, body, fn), stepType });
        }
        continue;
      }
      if (ownerFunction(decl) !== fn) continue; // a nested function's own local
      if (Node.isFunctionDeclaration(decl)) {
        recompute.set(decl, range(decl));
        pending.push(decl);
        continue;
      }
      const varDecl = Node.isVariableDeclaration(decl) ? decl : decl.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
      const list = varDecl?.getParent();
      if (!varDecl || !list || !Node.isVariableDeclarationList(list)) {
        throw new Unsupported(`"${id.getText()}" (a ${decl.getKindName()}) is live across the await and cannot travel in requestState`, id);
      }
      const holder = list.getParent();
      const kind = list.getDeclarationKind();
      if ((Node.isForOfStatement(holder) || Node.isForInStatement(holder)) && enclosing.has(holder)) continue; // re-read from the snapshot
      const scope = Node.isVariableStatement(holder) ? holder.getParent() : holder;
      if (kind !== 'var' && !enclosing.has(scope)) continue; // out of scope here
      const init = varDecl.getInitializer();
      if (kind === 'const' && init && (Node.isArrowFunction(unwrap(init)) || Node.isFunctionExpression(unwrap(init))) && Node.isIdentifier(varDecl.getNameNode()) && Node.isVariableStatement(holder)) {
        recompute.set(decl, range(holder));
        pending.push(holder);
        continue;
      }
      // A template string's type is known without the checker, which would type all it reads (see templateString).
      const asString = decl === varDecl && templateString(varDecl, first);
      const problem = asString ? undefined : unserializable(id.getType(), 0);
      if (problem) {
        // A handle (a client, a pool) is made again where the phase resumes; anything else cannot go on.
        const again = Node.isVariableDeclaration(decl) ? recomputation(decl, problem, fn, first, replaced) : { refused: problem };
        if ('refused' in again) {
          const fix = ('fix' in again && again.fix) || 'recompute it after the await or keep it in a server-side store';
          throw new Unsupported(`local "${id.getText()}" (${again.refused}) is live across the await and cannot travel in requestState; ${fix}`, id);
        }
        recompute.set(decl, range(again.statement));
        recomputedLocals.push({ name: id.getText(), range: range(again.statement), initializer: again.initializer, what: problem });
        pending.push(again.statement);
        continue;
      }
      const reassigned = isReassigned(Node.isIdentifier(varDecl.getNameNode()) ? varDecl.getNameNode() : id, fn);
      const unassigned = answered.has(decl) || unassignedAtSuspension(varDecl, kind, first, last, fn);
      // A `let` only assigned before the suspension (an inlined helper's result) is a constant where the phase resumes.
      const constant = Node.isVariableStatement(holder) && ((kind === 'const' && !reassigned) || (kind === 'let' && !unassigned && assignedOnlyBefore(varDecl, first, fn)));
      const declare = kind === 'var' ? 'var' : constant ? 'const' : 'let';
      // A const narrowed before the await (`if (!node) return;`) is restored with the narrowed type: the one the
      // code after the await reads it with (its first read there, before any narrowing of its own).
      const firstRead = declare === 'const' && !asString ? firstReadAfter(decl, first, region) : undefined;
      const narrowed = firstRead && firstRead.getType().compilerType !== decl.getType().compilerType ? printableType(firstRead, fn) : undefined;
      const local = carry(id.getText(), declare, decl, kind === 'var' ? body : scope, fn, narrowed ?? (asString ? 'string' : varDecl.getTypeNode()?.getText()));
      if (local.typeText === undefined) local.stepType = stepTypeOf(decl, suspensions);
      const type = asString ? undefined : id.getType();
      if (unassigned) local.answered = true;
      else if (type && (type.isArray() || type.isTuple() === false && type.getStringIndexType() !== undefined)) local.unbounded = `${type.isArray() ? 'an array' : 'a record'}`;
      carried.set(decl, local);
    }
  }
  const live = [...carried.values(), ...synthetic].sort((a, b) => a.scope.start - b.scope.start || a.name.localeCompare(b.name));
  const recomputeRanges = [...recompute.values()].sort((a, b) => a.start - b.start);
  return { live, recompute: recomputeRanges, recomputedLocals };
}

/** Whether control can reach the end of a statement, as the phases read it (src/rewrite/flow.ts): true when unsure. */
function completesNormally(st: Node): boolean {
  if (Node.isReturnStatement(st) || Node.isThrowStatement(st)) return false;
  if (Node.isBlock(st)) return st.getStatements().every(completesNormally);
  if (Node.isIfStatement(st)) {
    const otherwise = st.getElseStatement();
    return !otherwise || completesNormally(st.getThenStatement()) || completesNormally(otherwise);
  }
  if (!Node.isTryStatement(st)) return true;
  const finallyBlock = st.getFinallyBlock();
  if (finallyBlock && !completesNormally(finallyBlock)) return false;
  const handler = st.getCatchClause();
  return completesNormally(st.getTryBlock()) || (handler !== undefined && completesNormally(handler.getBlock()));
}

/** The local a Promise.all element beside the requests is carried in: its value's type, in the statement's block. */
function besideLocal(b: Beside, scope: Node, fn: FunctionLike): CarriedLocal {
  const typeText = printableTypeOf(b.value, fn);
  const unbounded = b.value.isArray() ? 'an array' : !b.value.isTuple() && b.value.getStringIndexType() !== undefined ? 'a record' : undefined;
  return {
    name: b.name,
    declare: 'const',
    scope: range(scope),
    ...(typeText !== undefined ? { typeText } : { stepType: { text: b.value.isUnknown() ? 'unknown' : 'any' } }),
    ...(unbounded ? { unbounded } : {})
  };
}

/**
 * `let text: string;` declared before the await and first assigned after it (`try { text = (await ask()).action }
 * catch { text = 'failed' }`): its value at the suspension is certainly `undefined`, so, like a local the answer
 * is assigned to, it is re-declared where the phase resumes without a value rather than carried (carried, the
 * suspending phase would read it unassigned, which tsc refuses). Certain when nothing names it, besides its
 * declaration, before the end of the round's statements, in a loop around them inside its scope (a later
 * iteration would reach the await with a value), or in a nested function; but for assignments that leave
 * right after, never reaching the await (an inlined helper's early return, `{ r = v; break mcpInline; }`
 * round the block the await is in, or a `return`).
 */
function unassignedAtSuspension(varDecl: Node, kind: string, first: Node, last: Node, fn: FunctionLike): boolean {
  // `let x!: T` (the inliner's result variables) reads as assigned, so carrying it compiles: it stays as it was.
  const uses = kind === 'let' ? usesOfUninitialised(varDecl, first, fn) : undefined;
  if (!uses) return false;
  return !uses.refs.some(ref => {
    if (uses.inLoop(ref)) return true;
    if (ownerFunction(ref) !== fn) return true;
    return ref.getStart() < last.getEnd() && !(ref.getEnd() <= first.getStart() && assignsThenLeaves(ref, first, last));
  });
}

/**
 * The references in `fn` to `varDecl`, a `let name;` declared without a value (undefined for any other
 * declaration), and whether one is in a loop around `first` inside the variable's scope.
 */
function usesOfUninitialised(varDecl: Node, first: Node, fn: FunctionLike): { refs: Node[]; inLoop: (ref: Node) => boolean } | undefined {
  if (!Node.isVariableDeclaration(varDecl) || varDecl.getInitializer() || !Node.isIdentifier(varDecl.getNameNode())) return undefined;
  const nameNode = varDecl.getNameNode();
  const scope = varDecl.getParent()?.getParent()?.getParent();
  if (!scope) return undefined;
  const loops = first.getAncestors().filter(a => Node.isIterationStatement(a) && a.getStart() >= scope.getStart() && a.getEnd() <= scope.getEnd());
  const name = nameNode.getText();
  const refs = fn.getDescendantsOfKind(SyntaxKind.Identifier).filter(ref => ref !== nameNode && ref.getText() === name && !isMemberName(ref) && declOf(ref) === varDecl);
  return { refs, inLoop: ref => loops.some(l => ref.getStart() >= l.getStart() && ref.getEnd() <= l.getEnd()) };
}

/**
 * Whether `ref` is assigned by a statement of its own (`r = v;`) that is followed by a jump past the round's
 * statements: a `break` out of a labelled statement holding them, a `return` or a `throw`.
 */
function assignsThenLeaves(ref: Node, first: Node, last: Node): boolean {
  const assignment = ref.getParent();
  const statement = assignment?.getParent();
  if (!Node.isBinaryExpression(assignment) || assignment.getLeft() !== ref || assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) return false;
  const list = statement?.getParent();
  if (!Node.isExpressionStatement(statement) || !(Node.isBlock(list) || Node.isCaseClause(list) || Node.isDefaultClause(list))) return false;
  const statements: Node[] = list.getStatements();
  const next = statements[statements.indexOf(statement) + 1];
  if (!next) return false;
  if (Node.isReturnStatement(next) || Node.isThrowStatement(next)) return true;
  if (!Node.isBreakStatement(next) || !next.getLabel()) return false;
  const label = next.getLabel()!.getText();
  const target = next.getAncestors().find(a => Node.isLabeledStatement(a) && a.getLabel().getText() === label);
  return target !== undefined && target.getStart() <= first.getStart() && last.getEnd() <= target.getEnd();
}

/**
 * `let name!: T;` (declared without a value) whose every assignment comes before the resuming code: before it in
 * the text, in no loop around it inside its scope (a later iteration would assign it again) and in no nested
 * function. Where the phase resumes it is never assigned again, so it is restored as a const.
 */
function assignedOnlyBefore(varDecl: Node, first: Node, fn: FunctionLike): boolean {
  const uses = usesOfUninitialised(varDecl, first, fn);
  if (!uses) return false;
  return !uses.refs.some(ref => writes(ref) && (ref.getStart() >= first.getStart() || ownerFunction(ref) !== fn || uses.inLoop(ref)));
}

/** Whether an identifier is written there: assigned (also inside a destructuring target), incremented, a for...of/in's variable. */
function writes(ref: Node): boolean {
  let node = ref;
  while (Node.isParenthesizedExpression(node.getParent()) || Node.isArrayLiteralExpression(node.getParent()) || Node.isShorthandPropertyAssignment(node.getParent()) || Node.isPropertyAssignment(node.getParent()) || Node.isObjectLiteralExpression(node.getParent()) || Node.isSpreadElement(node.getParent()) || Node.isSpreadAssignment(node.getParent())) node = node.getParent()!;
  const parent = node.getParent();
  if (Node.isBinaryExpression(parent) && parent.getLeft() === node) {
    const k = parent.getOperatorToken().getKind();
    return k >= SyntaxKind.FirstAssignment && k <= SyntaxKind.LastAssignment;
  }
  if ((Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(parent.getOperatorToken())) return true;
  return (Node.isForOfStatement(parent) || Node.isForInStatement(parent)) && parent.getInitializer() === node;
}

/** The type of a loop's snapshot: the keys of a for...in, the items of a for...of over an array or tuple. */
function snapshotType(loop: Node, plan: LoopPlan, fn: FunctionLike): Pick<CarriedLocal, 'typeText' | 'stepType'> {
  if (plan.kind === 'for-in') return { typeText: 'string[]' };
  let item: Type | undefined;
  try {
    item = Node.isForOfStatement(loop) ? loop.getExpression().getType().getNumberIndexType() : undefined;
  } catch {
    item = undefined;
  }
  const text = item && printableTypeOf(item, fn);
  return { stepType: { text: text === undefined ? 'any' : /^[\w$.<>, ]+$|^\{[^{}]*\}$|^\[.*\]$/.test(text) ? `${text}[]` : `(${text})[]` } };
}

/**
 * A carried local's type in the handler's steps where none prints for it: what the reader of the round
 * that declared it returns (`const answer = await server.elicitInput(...)`, also as an element of a
 * Promise.all), `unknown` for an unknown, else `any` (its type is any, or cannot be named at the handler).
 */
function stepTypeOf(decl: Node, suspensions: Suspension[]): CarriedLocal['stepType'] {
  const reader = answerReader(decl, suspensions);
  if (reader) return { reader };
  let unknown = false;
  try {
    unknown = decl.getType().isUnknown();
  } catch {
    unknown = false;
  }
  return { text: unknown ? 'unknown' : 'any' };
}

/** The reader whose result `decl` holds: declared by a round's await, or by an element of its Promise.all. */
function answerReader(decl: Node, suspensions: Suspension[]): ResponseReader | undefined {
  const element = Node.isBindingElement(decl) ? decl : undefined;
  const varDecl = element ? element.getParent()?.getParent() : decl;
  const init = varDecl && Node.isVariableDeclaration(varDecl) ? varDecl.getInitializer() : undefined;
  const round = init && suspensions.find(s => s.replace === init || s.replace === unwrap(init));
  if (!round) return undefined;
  if (!element) return !round.promiseAll && round.sites.length === 1 ? round.sites[0]!.reader : undefined;
  const pattern = element.getParent();
  const list = round.promiseAll && Node.isCallExpression(round.promiseAll) ? round.promiseAll.getArguments()[0] : undefined;
  if (!Node.isArrayBindingPattern(pattern) || !list || !Node.isArrayLiteralExpression(list)) return undefined;
  const item = list.getElements()[pattern.getElements().indexOf(element)];
  return round.sites.find(site => item !== undefined && site.node.getStart() >= item.getStart() && site.node.getEnd() <= item.getEnd())?.reader;
}

/**
 * A local declared with an untagged template with substitutions, with no type of its own (annotation or
 * JSDoc), and not read before `first` ends but in a template's `${...}`: a `string` where the resuming
 * code reads it (no condition narrowed it). Asking the checker would type every name the template reads,
 * a handler's parameter among them, which resolves the registration call's overloads (`server.tool`
 * has many): an eighth of a large file's first analysis, measured.
 */
function templateString(varDecl: VariableDeclaration, first: Node): boolean {
  let init: Node | undefined = varDecl.getInitializer();
  while (init && Node.isParenthesizedExpression(init)) init = init.getExpression();
  if (!init || !Node.isTemplateExpression(init) || varDecl.getTypeNode() || ts.getJSDocType(varDecl.compilerNode) || !Node.isIdentifier(varDecl.getNameNode())) return false;
  const name = varDecl.getName();
  const between = (n: ts.Node): boolean => n.pos < first.getEnd() && n.end > varDecl.getEnd();
  let narrowable = false;
  const visit = (n: ts.Node): void => {
    if (narrowable || !between(n)) return;
    if (ts.isIdentifier(n) && n.text === name && n.pos >= varDecl.getEnd() && !ts.isTemplateSpan(n.parent)) narrowable = true;
    else ts.forEachChild(n, visit);
  };
  visit(varDecl.getSourceFile().compilerNode);
  return !narrowable;
}

/** The first identifier after `from`, in the nodes of `region`, that reads the local `decl` declares. */
function firstReadAfter(decl: Node, from: Node, region: Node[]): Node | undefined {
  let found: Node | undefined;
  // Only an identifier of the declared name can read it: no other is resolved (a property's name can mean typing its object).
  const local = Node.isVariableDeclaration(decl) || Node.isBindingElement(decl) || Node.isParameterDeclaration(decl) ? decl.getNameNode() : undefined;
  const name = local && Node.isIdentifier(local) ? local.getText() : undefined;
  for (const node of region) {
    for (const id of [node, ...node.getDescendantsOfKind(SyntaxKind.Identifier)]) {
      if (!Node.isIdentifier(id) || (name !== undefined && id.getText() !== name) || id.getStart() < from.getEnd() || declOf(id) !== decl || (found && found.getStart() <= id.getStart())) continue;
      found = id;
    }
  }
  return found;
}

function ownerFunction(n: Node): Node | undefined {
  return n.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a));
}

function carry(name: string, declare: CarriedLocal['declare'], decl: Node, scope: Node, fn: FunctionLike, annotation?: string): CarriedLocal {
  const typeText = declare === 'assign' ? undefined : (annotation ?? printableType(decl, fn));
  return { name, declare, typeText, scope: range(scope) };
}

/**
 * A type annotation for the restored local, when the checker's type prints as something valid at the handler.
 * In JavaScript, where it becomes a JSDoc type, a type declared in another module of the project and not
 * named in the handler's file prints as an import type of it (`import("./recipes.js").Recipe`).
 */
export function printableType(decl: Node, fn: FunctionLike): string | undefined {
  try {
    return printableTypeOf(decl.getType(), fn);
  } catch {
    return undefined;
  }
}

function printableTypeOf(type: Type, fn: FunctionLike): string | undefined {
  if (type.isAny() || type.isUnknown()) return undefined;
  const named = namesInScope(type.getText(fn, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope), fn);
  if (named !== undefined || !/\.[cm]?jsx?$/.test(fn.getSourceFile().getFilePath())) return named;
  const imported = type.getText(fn, ts.TypeFormatFlags.NoTruncation);
  const specifiers = [...imported.matchAll(/import\("([^"]*)"\)/g)].map(m => m[1]!);
  return specifiers.length > 0 && specifiers.every(s => /^\.\.?\//.test(s)) ? namesInScope(imported, fn, true) : undefined;
}

/** `text` when it is a type every name of which resolves at `fn` (no `any`, spread or `typeof`, not too long; import types only when allowed). */
function namesInScope(text: string, fn: FunctionLike, importTypes = false): string | undefined {
  if ((!importTypes && /import\(/.test(text)) || /\.\.\.|\bany\b|typeof /.test(text) || text.length > 200) return undefined;
  const checker = fn.getProject().getTypeChecker().compilerObject;
  const parsed = ts.createSourceFile('t.ts', `type T = ${text};`, ts.ScriptTarget.Latest);
  let ok = true;
  const visit = (n: ts.Node): void => {
    if (ts.isTypeReferenceNode(n)) {
      const root = ts.isIdentifier(n.typeName) ? n.typeName.text : n.typeName.getText(parsed).split('.')[0]!;
      const resolved = (checker as unknown as { resolveName(name: string, location: ts.Node, meaning: ts.SymbolFlags, excludeGlobals: boolean): ts.Symbol | undefined }).resolveName(
        root,
        fn.compilerNode,
        ts.SymbolFlags.Type | ts.SymbolFlags.Namespace,
        false
      );
      if (!resolved) ok = false;
    }
    ts.forEachChild(n, visit);
  };
  visit(parsed);
  return ok ? text : undefined;
}

const NOT_JSON = new Set(['Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp', 'Promise', 'Buffer', 'URL', 'Uint8Array', 'ArrayBuffer', 'Error', 'Function', 'Symbol', 'BigInt']);

/** Why a value of this type cannot round-trip through JSON, or undefined when it can (or cannot be told). */
function unserializable(type: Type, depth: number): string | undefined {
  if (depth > 4) return undefined;
  if (type.isAny() || type.isUnknown() || type.isString() || type.isNumber() || type.isBoolean() || type.isNull() || type.isUndefined() || type.isLiteral() || type.isStringLiteral() || type.isNumberLiteral() || type.isBooleanLiteral() || type.isEnum() || type.isEnumLiteral() || type.isTemplateLiteral()) {
    return undefined;
  }
  if (type.getFlags() & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral)) return 'a bigint';
  if (type.getFlags() & (ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol)) return 'a symbol';
  if (type.isUnion() || type.isIntersection()) {
    for (const t of type.isUnion() ? type.getUnionTypes() : (type as Type).getIntersectionTypes()) {
      const p = unserializable(t, depth + 1);
      if (p) return p;
    }
    return undefined;
  }
  if (type.isArray() || type.isTuple()) {
    for (const t of type.isArray() ? [type.getArrayElementTypeOrThrow()] : type.getTupleElements()) {
      const p = unserializable(t, depth + 1);
      if (p) return p;
    }
    return undefined;
  }
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return 'a function';
  const symbol = type.getSymbol() ?? type.getAliasSymbol();
  const name = symbol?.getName();
  if (name && NOT_JSON.has(name)) return `a ${name}`;
  if (symbol && symbol.getDeclarations().some(d => Node.isClassDeclaration(d))) return `an instance of class ${name}`;
  if (type.isObject()) {
    for (const prop of type.getProperties()) {
      const decl = prop.getValueDeclaration() ?? prop.getDeclarations()[0];
      if (!decl) continue;
      if (Node.isMethodSignature(decl) || Node.isMethodDeclaration(decl)) return `an object with method ${prop.getName()}()`;
      const p = unserializable(prop.getTypeAtLocation(decl), depth + 1);
      if (p) return `an object whose "${prop.getName()}" is ${p}`;
    }
  }
  return undefined;
}

function nameTextOf(registration: Registration, fn: FunctionLike): string {
  if (registration.args.kind !== 'request') return registration.nameText;
  const request = fn.getParameters()[0];
  if (!request || !Node.isIdentifier(request.getNameNode())) throw new Unsupported('the request parameter is destructured; name it so the state can be bound to the call', fn);
  const r = request.getName();
  return registration.method === 'resources/read' ? `${r}.params.uri` : `${r}.params.name`;
}

function argsTextOf(registration: Registration, fn: FunctionLike): string {
  const params = fn.getParameters();
  switch (registration.args.kind) {
    case 'none':
      return 'undefined';
    case 'request': {
      const r = params[0]!.getName();
      return registration.method === 'resources/read' ? 'undefined' : `${r}.params.arguments`;
    }
    case 'resource': {
      const uri = params[0];
      if (!uri) return 'undefined';
      if (!Node.isIdentifier(uri.getNameNode())) throw new Unsupported('the resource URI parameter is destructured; name it', fn);
      const vars = registration.args.variablesIndex !== undefined ? params[registration.args.variablesIndex] : undefined;
      return vars && Node.isIdentifier(vars.getNameNode()) ? `{ uri: ${uri.getName()}.href, variables: ${vars.getName()} }` : `${uri.getName()}.href`;
    }
    case 'param': {
      const p = params[registration.args.index];
      if (!p) return 'undefined';
      const name = p.getNameNode();
      if (Node.isIdentifier(name)) return name.getText();
      const ids = boundIdentifiers(name).map(id => id.getText());
      if (Node.isObjectBindingPattern(name) && !name.getElements().some(e => e.getDotDotDotToken())) return `{ ${ids.join(', ')} }`;
      return `[${ids.join(', ')}]`;
    }
  }
}

export function ctxOf(registration: Registration, fn: FunctionLike): HandlerPlan['ctx'] {
  const params = fn.getParameters();
  const existing = params[registration.ctxIndex];
  // A table's entry handed the context in a member of its parameter (`ctx.extra`): read there.
  const member = registration.ctxMember ?? '';
  if (existing) {
    if (!Node.isIdentifier(existing.getNameNode())) throw new Unsupported('the context parameter is destructured; name it (e.g. ctx) so the rewrite can use it', existing);
    return { name: `${existing.getName()}${member}` };
  }
  const taken = new Set(fn.getDescendantsOfKind(SyntaxKind.Identifier).map(i => i.getText()));
  const name = taken.has('ctx') ? 'mcpCtx' : 'ctx';
  const add: string[] = [];
  for (let i = params.length; i < registration.ctxIndex; i++) add.push(i === 0 ? '_args' : `_arg${i}`);
  // An entry's parameters take their types from its table's declaration of the member.
  if (member) return { name: `${name}${member}`, add: [...add, name] };
  // Written inline, the callback's parameters take their types from the registration; declared
  // apart and passed by name, TypeScript would infer them as implicit any.
  const inline = fn.getParent() === registration.call;
  const typed = !inline && !/\.[cm]?jsx?$/.test(fn.getSourceFile().getFilePath());
  return { name, add: [...add, name], ...(typed ? { typed } : {}) };
}
