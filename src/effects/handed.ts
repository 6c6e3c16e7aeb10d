/**
 * Calls of a callback parameter that may ask. A wrapper of the project registers a handler of its own that
 * runs the callback it is handed (`timed(name, cb)` registering `async (args, extra) => { ...; return await
 * cb(args, extra); }`): the call `cb(args, extra)` asks whenever a callback handed as `cb` asks, so what the
 * handler does before it runs again on a later round, and a try around it holds a question.
 *
 * Reach (src/find/reach.ts) follows such a callback up to the handler, but says only which functions a
 * handler runs; here each call of a parameter is followed the other way, to the arguments the function's
 * callers hand it there.
 */
import { Node, type CallExpression, type ParameterDeclaration } from 'ts-morph';
import { calleesOf, isFunctionLike } from '../find/callees.js';
import { unwrap } from '../analysis/mcpSymbols.js';
import { enclosingFunction, type FunctionLike } from '../analysis/functions.js';
import type { AskingFunction } from '../find/reach.js';

/** How many parameters a callback is followed through (`outer(cb)` handing `cb` on to `inner(name, cb)`). */
const MAX_DEPTH = 4;

export class HandedCallbacks {
  private readonly memo = new Map<Node, boolean>();

  /** `asking`: the functions that ask; `asks`: the requests asked (a request channel may be handed as a value). */
  constructor(
    private readonly asking: ReadonlySet<Node>,
    private readonly asks: ReadonlySet<Node>,
  ) {}

  /** A call of a parameter (`cb(args, extra)`) that some caller of its function hands a function that asks. */
  asksThroughParameter(node: Node): boolean {
    if (!Node.isCallExpression(node)) return false;
    const param = parameterOf(node.getExpression());
    return param !== undefined && this.parameterAsks(param, 0);
  }

  private parameterAsks(param: ParameterDeclaration, depth: number): boolean {
    const known = this.memo.get(param);
    if (known !== undefined) return known;
    // A cycle (a wrapper handing its callback to itself) adds nothing.
    this.memo.set(param, false);
    const fn = param.getParent();
    const index = isFunctionLike(fn) ? fn.getParameters().indexOf(param) : -1;
    const asks =
      index >= 0 &&
      !param.isRestParameter() &&
      depth < MAX_DEPTH &&
      callsOf(fn as FunctionLike).some(call => this.argumentAsks(call.getArguments()[index], depth));
    this.memo.set(param, asks);
    return asks;
  }

  /** An argument that is a function that asks (written there, or named), a request channel, or a parameter handed on. */
  private argumentAsks(arg: Node | undefined, depth: number): boolean {
    if (!arg) return false;
    const value = unwrap(arg);
    if (this.asking.has(value) || this.isRequestValue(value)) return true;
    if (!Node.isIdentifier(value)) return false;
    const decl = declarationOf(value);
    if (!decl) return false;
    if (Node.isParameterDeclaration(decl)) return this.parameterAsks(decl, depth + 1);
    const held = Node.isVariableDeclaration(decl) ? decl.getInitializer() && unwrap(decl.getInitializer()!) : decl;
    return held !== undefined && (this.asking.has(held) || this.isRequestValue(held));
  }

  /**
   * A request method taken as a value, bound or not (`server.createMessage`, `server.createMessage.bind(server,
   * params)`): the method is the request asked through the requestState module, so calling the value asks.
   */
  private isRequestValue(value: Node): boolean {
    if (this.asks.has(value)) return true;
    if (!Node.isCallExpression(value)) return false;
    const callee = unwrap(value.getExpression());
    return Node.isPropertyAccessExpression(callee) && callee.getName() === 'bind' && this.asks.has(unwrap(callee.getExpression()));
  }
}

/** The parameter a callee names (`cb` of `cb(args)`), if it is one. */
function parameterOf(callee: Node): ParameterDeclaration | undefined {
  const e = unwrap(callee);
  if (!Node.isIdentifier(e)) return undefined;
  const decl = e.getSymbol()?.getDeclarations()[0];
  return decl && Node.isParameterDeclaration(decl) && Node.isIdentifier(decl.getNameNode()) ? decl : undefined;
}

function declarationOf(id: Node): Node | undefined {
  const symbol = id.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  return target?.getDeclarations()[0];
}

/** The calls of a function by its name: a function declaration's, a variable's holding it, or a method's. */
function callsOf(fn: FunctionLike): CallExpression[] {
  const parent = fn.getParent();
  const name =
    Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)
      ? fn.getNameNode()
      : parent && Node.isVariableDeclaration(parent)
        ? parent.getNameNode()
        : undefined;
  if (!name || !Node.isIdentifier(name)) return [];
  const calls: CallExpression[] = [];
  for (const ref of name.findReferencesAsNodes()) {
    // `timed(...)`, or `this.timed(...)` / `obj.timed(...)`.
    let callee: Node = ref;
    const access = ref.getParent();
    if (access && Node.isPropertyAccessExpression(access) && access.getNameNode() === ref) callee = access;
    let outer = callee;
    for (let p = outer.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isNonNullExpression(p)); p = outer.getParent())
      outer = p;
    const call = outer.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === outer) calls.push(call);
  }
  return calls;
}

/** The functions of the project that run an asking callback handed to them, and their calls of it. */
export interface CallbackRunners {
  /**
   * Each function holding a call of the callback (the wrapper itself, or the closure it returns), with the
   * reach of what it runs and the call handing it the callback (`tracer.span(...)`, `withErrors(...)`).
   */
  runners: (AskingFunction & { via: CallExpression })[];
  /** The calls of the callback (`cb(input, extra)`, `work(span)`): each asks. */
  calls: Set<Node>;
}

/**
 * The project's wrappers an asking callback is handed to: `tracer.span('x', async span => ...)` runs it
 * inside a try whose finally records the span; `withErrors(async (args) => ...)` returns a closure, registered
 * as the handler, that runs it inside a try whose catch turns errors into results. The wrapper's code around
 * the call is the round's too: its catch and finally must let a suspended round through and its work before
 * the call is done again on each round, as the handler's own. A wrapper returning a closure may itself be
 * handed on (`timed(withErrors(cb))`): the closure it returns is followed the same way.
 */
export function callbackRunners(asking: readonly AskingFunction[], asks: ReadonlySet<Node> = new Set()): CallbackRunners {
  const found: CallbackRunners = { runners: [], calls: new Set() };
  const known = new Set<Node>(asking.map(a => a.fn));
  const queued = new Set<Node>();
  const queue: { value: Node; reach: AskingFunction['reach'] }[] = [
    ...asking.map(a => ({ value: a.fn, reach: a.reach })),
    ...requestValuesHanded(asking, asks),
  ];
  for (let item = queue.shift(); item; item = queue.shift()) {
    const handed = handedTo(item.value);
    if (!handed) continue;
    for (const call of callsOfParameter(handed.call, handed.index)) {
      found.calls.add(call);
      const runner = enclosingFunction(call);
      if (!runner) continue;
      // A closure the wrapper returns runs the callback where the wrapper's own value is run (each call of
      // the wrapper followed once, whichever handler it wraps).
      if (!calleesOf(handed.call.getExpression()).includes(runner) && !queued.has(handed.call)) {
        queued.add(handed.call);
        queue.push({ value: handed.call, reach: item.reach });
      }
      if (known.has(runner)) continue;
      known.add(runner);
      found.runners.push({ fn: runner, reach: item.reach, via: handed.call });
    }
  }
  return found;
}

/**
 * The request methods taken as values in the asking functions (`server.createMessage.bind(server, params)`, a
 * method held in a name), where they are handed on (`withRetry(send)`): the function they are handed to runs
 * the request when it calls them, as it runs a callback that asks. A request made by a call is not a value.
 */
function requestValuesHanded(
  asking: readonly AskingFunction[],
  asks: ReadonlySet<Node>,
): { value: Node; reach: AskingFunction['reach'] }[] {
  const handed: { value: Node; reach: AskingFunction['reach'] }[] = [];
  for (const ask of asks) {
    if (Node.isCallExpression(ask)) continue;
    const value = boundBy(ask) ?? ask;
    const reach = asking.find(a => a.fn === enclosingFunction(value))?.reach;
    if (!reach) continue;
    const holder = outermost(value).getParent();
    const name = holder && Node.isVariableDeclaration(holder) ? holder.getNameNode() : undefined;
    const uses = name && Node.isIdentifier(name) ? name.findReferencesAsNodes().filter(ref => handedTo(ref)) : [value];
    for (const use of uses) handed.push({ value: use, reach });
  }
  return handed;
}

/** `method.bind(receiver, ...)`, where `method` is the given node. */
function boundBy(method: Node): CallExpression | undefined {
  const access = method.getParent();
  const call = access?.getParent();
  return access &&
    Node.isPropertyAccessExpression(access) &&
    access.getName() === 'bind' &&
    call &&
    Node.isCallExpression(call) &&
    call.getExpression() === access
    ? call
    : undefined;
}

/** A value with the parentheses, casts and `!` around it. */
function outermost(value: Node): Node {
  let outer = value;
  for (
    let p = outer.getParent();
    p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isNonNullExpression(p) || Node.isSatisfiesExpression(p));
    p = outer.getParent()
  )
    outer = p;
  return outer;
}

/** The call a value is an argument of, and at which index. */
function handedTo(value: Node): { call: CallExpression; index: number } | undefined {
  const outer = outermost(value);
  const call = outer.getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const index = call.getArguments().indexOf(outer);
  return index < 0 ? undefined : { call, index };
}

/** The calls, inside the functions a call may run, of the parameter at `index` (the callback it is handed there). */
function callsOfParameter(call: CallExpression, index: number): CallExpression[] {
  const calls: CallExpression[] = [];
  for (const fn of calleesOf(call.getExpression())) {
    const param = fn.getParameters()[index];
    const name = param?.getNameNode();
    if (!param || param.isRestParameter() || !name || !Node.isIdentifier(name)) continue;
    for (const ref of name.findReferencesAsNodes()) {
      if (ref === name || ref.getSourceFile() !== fn.getSourceFile() || !(fn.getStart() <= ref.getStart() && ref.getEnd() <= fn.getEnd()))
        continue;
      let callee: Node = ref;
      for (let p = callee.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isNonNullExpression(p)); p = callee.getParent())
        callee = p;
      const parent = callee.getParent();
      if (parent && Node.isCallExpression(parent) && parent.getExpression() === callee) calls.push(parent);
    }
  }
  return calls;
}
