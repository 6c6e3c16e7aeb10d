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
import { isFunctionLike } from '../find/callees.js';
import { unwrap } from '../analysis/mcpSymbols.js';
import type { FunctionLike } from '../analysis/sites.js';

/** How many parameters a callback is followed through (`outer(cb)` handing `cb` on to `inner(name, cb)`). */
const MAX_DEPTH = 4;

export class HandedCallbacks {
  private readonly memo = new Map<Node, boolean>();

  /** `asking`: the functions that ask; `asks`: the requests asked (a request channel may be handed as a value). */
  constructor(
    private readonly asking: ReadonlySet<Node>,
    private readonly asks: ReadonlySet<Node>
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
    const asks = index >= 0 && !param.isRestParameter() && depth < MAX_DEPTH && callsOf(fn as FunctionLike).some(call => this.argumentAsks(call.getArguments()[index], depth));
    this.memo.set(param, asks);
    return asks;
  }

  /** An argument that is a function that asks (written there, or named), a request channel, or a parameter handed on. */
  private argumentAsks(arg: Node | undefined, depth: number): boolean {
    if (!arg) return false;
    const value = unwrap(arg);
    if (this.asking.has(value) || this.asks.has(value)) return true;
    if (!Node.isIdentifier(value)) return false;
    const decl = declarationOf(value);
    if (!decl) return false;
    if (Node.isParameterDeclaration(decl)) return this.parameterAsks(decl, depth + 1);
    const fn = Node.isVariableDeclaration(decl) ? decl.getInitializer() && unwrap(decl.getInitializer()!) : decl;
    return fn !== undefined && this.asking.has(fn);
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
  const name = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) ? fn.getNameNode() : parent && Node.isVariableDeclaration(parent) ? parent.getNameNode() : undefined;
  if (!name || !Node.isIdentifier(name)) return [];
  const calls: CallExpression[] = [];
  for (const ref of name.findReferencesAsNodes()) {
    // `timed(...)`, or `this.timed(...)` / `obj.timed(...)`.
    let callee: Node = ref;
    const access = ref.getParent();
    if (access && Node.isPropertyAccessExpression(access) && access.getNameNode() === ref) callee = access;
    let outer = callee;
    for (let p = outer.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isNonNullExpression(p)); p = outer.getParent()) outer = p;
    const call = outer.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === outer) calls.push(call);
  }
  return calls;
}
