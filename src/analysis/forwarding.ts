/**
 * Whether a wrapper of the project hands the callback it takes the arguments it receives, unchanged,
 * and returns its result (`cb => async (...args) => { try { return await cb(...args); } catch ... }`):
 * then the callback stands for the function the wrapper returns, context included. Read from the
 * syntax and symbols alone (ts-morph, nothing of the analysis), so the upgrade's repairs ask it too.
 */
import { Node, SyntaxKind, type CallExpression, type ParameterDeclaration } from 'ts-morph';

import type { FunctionLike } from './functions.js';
import { descendantsOfKind } from './descendants.js';

/**
 * Whether `call` (`withErrors(cb)`) is a call of a function of the project that passes `arg` through:
 * the context (argument `ctxIndex`) reaches the callback unchanged. A function declared in a file
 * the project does not hold, or a method (it may be overridden), is not read.
 */
export function passesArgumentsThrough(call: CallExpression, arg: Node, ctxIndex: number): boolean {
  const callee = call.getExpression();
  if (!Node.isIdentifier(callee)) return false;
  const symbol = callee.getSymbol();
  const decl = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
  if (!decl || decl.getSourceFile().isDeclarationFile() || decl.getSourceFile().isInNodeModules()) return false;
  const init = Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
  const wrapper =
    init && (Node.isFunctionDeclaration(init) || Node.isArrowFunction(init) || Node.isFunctionExpression(init)) ? init : undefined;
  const param = wrapper?.getParameters()[call.getArguments().indexOf(arg as never)];
  if (!wrapper || !param || param.isRestParameter() || !Node.isIdentifier(param.getNameNode())) return false;
  const inner = returnedFunction(wrapper);
  return inner !== undefined && forwardingProblem(wrapper, param, inner, ctxIndex) === undefined;
}

/** The function the wrapper's body returns as its last statement (or an arrow's expression body is). */
export function returnedFunction(wrapper: FunctionLike): FunctionLike | undefined {
  const body = wrapper.getBody();
  let result: Node | undefined;
  if (body && Node.isBlock(body)) {
    const own = descendantsOfKind(body, SyntaxKind.ReturnStatement).filter(r => ownerOf(r) === wrapper);
    const last = body.getStatements().at(-1);
    if (own.length !== 1 || own[0] !== last) return undefined;
    result = own[0]!.getExpression();
  } else result = body;
  const fn = result && unwrap(result);
  return fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ? fn : undefined;
}

/**
 * Why the returned function does not hand its arguments to the callback unchanged and return its
 * result, or undefined when it does: `(...a) => cb(...a)` or `(x, y) => cb(x, y)`, the call
 * returned (awaited or not, in a try block or not), the callback used nowhere else.
 */
export function forwardingProblem(
  wrapper: FunctionLike,
  param: ParameterDeclaration,
  inner: FunctionLike,
  ctxIndex: number,
): string | undefined {
  const uses = identifiersOf(param, wrapper);
  const call = uses.length === 1 ? uses[0]!.getParent() : undefined;
  if (!call || !Node.isCallExpression(call) || call.getExpression() !== uses[0] || ownerOf(call) !== inner) {
    return `uses the callback otherwise than calling it once from the function it returns (${uses.length} uses)`;
  }
  const params = inner.getParameters();
  const args = call.getArguments();
  const rest = params.length === 1 && params[0]!.isRestParameter() ? params[0]! : undefined;
  const same = rest
    ? args.length === 1 && Node.isSpreadElement(args[0]!) && sameName(args[0]!.getExpression(), rest)
    : params.length === args.length && params.every((p, i) => !p.hasInitializer() && sameName(args[i]!, p));
  if (!same || params.some(p => !Node.isIdentifier(p.getNameNode())))
    return 'does not hand the callback the arguments it receives as they came (write `(...args) => cb(...args)`)';
  if (!rest && params.length <= ctxIndex)
    return 'does not hand the callback the context the registration passes (its function takes no such parameter)';
  const changed = params.find(p => identifiersOf(p, inner).some(writes));
  if (changed) return `changes the argument "${changed.getName()}" it hands the callback`;
  const loop = call.getAncestors().find(a => a.getAncestors().includes(inner) && (Node.isIterationStatement(a) || Node.isCatchClause(a)));
  if (loop)
    return `calls the callback ${Node.isCatchClause(loop) ? 'again when it throws' : 'in a loop'} (a retry), where a migrated handler would run only its current round again, from its state, not the whole handler as now`;
  if (!returnsValue(call, inner))
    return "does not return the callback's result as it is (write `return await cb(...args)`, in a try block or not)";
  return undefined;
}

/**
 * The call's value is what the function returns: its expression body, a return statement reached through try
 * blocks only, or a const so reached that every return of the function returns (`const result = await cb(...args);
 * span.end(); return result;`, as a tracer's wrapper writes it).
 */
function returnsValue(call: CallExpression, inner: FunctionLike): boolean {
  let node: Node = call;
  for (let up = node.getParent(); up && (Node.isAwaitExpression(up) || Node.isParenthesizedExpression(up)); up = up.getParent()) node = up;
  if (node === inner.getBody()) return true;
  const statement = node.getParent();
  if (statement && Node.isVariableDeclaration(statement)) return returnedConst(statement, inner);
  if (!statement || !Node.isReturnStatement(statement)) return false;
  return reachedThroughTryBlocks(statement, inner);
}

/** `const result = <the call>`, at the top of the function or of a try block in it, and every return of the function returns `result`. */
function returnedConst(declaration: import('ts-morph').VariableDeclaration, inner: FunctionLike): boolean {
  const name = declaration.getNameNode();
  const list = declaration.getParent();
  const statement = list?.getParent();
  if (
    !Node.isIdentifier(name) ||
    !list ||
    !Node.isVariableDeclarationList(list) ||
    list.getDeclarationKind() !== 'const' ||
    !statement ||
    !reachedThroughTryBlocks(statement, inner)
  )
    return false;
  const returns = descendantsOfKind(inner, SyntaxKind.ReturnStatement).filter(r => ownerOf(r) === inner);
  return (
    returns.length > 0 &&
    returns.every(r => {
      const value = r.getExpression();
      return value !== undefined && Node.isIdentifier(unwrap(value)) && unwrap(value).getSymbol() === name.getSymbol();
    })
  );
}

/** A statement of the function's body, or of a try block reached through try blocks only. */
function reachedThroughTryBlocks(statement: Node, inner: FunctionLike): boolean {
  for (let n: Node = statement; n !== inner.getBody();) {
    const block = n.getParent();
    if (!block || !Node.isBlock(block)) return false;
    if (block === inner.getBody()) return true;
    const holder = block.getParent();
    if (!holder || !Node.isTryStatement(holder) || holder.getTryBlock() !== block) return false;
    n = holder;
  }
  return true;
}

const MUTATING = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

/** Whether a use of a name writes it, or into it (`a = x`, `a[0] = x`, `a.k++`, `delete a.k`, `a.splice(...)`). */
function writes(use: Node): boolean {
  let target = use;
  for (
    let up = target.getParent();
    up && (Node.isPropertyAccessExpression(up) || Node.isElementAccessExpression(up)) && up.getExpression() === target;
    up = up.getParent()
  )
    target = up;
  const parent = target.getParent();
  if (!parent) return false;
  const assigns = (kind: SyntaxKind) => kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
  if (Node.isBinaryExpression(parent) && parent.getLeft() === target && assigns(parent.getOperatorToken().getKind())) return true;
  const steps = (n: Node) =>
    (Node.isPrefixUnaryExpression(n) || Node.isPostfixUnaryExpression(n)) &&
    [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(n.getOperatorToken());
  if (steps(parent) || Node.isDeleteExpression(parent)) return true;
  return (
    target !== use &&
    Node.isPropertyAccessExpression(target) &&
    MUTATING.has(target.getName()) &&
    Node.isCallExpression(parent) &&
    parent.getExpression() === target
  );
}

function identifiersOf(param: ParameterDeclaration, fn: FunctionLike): Node[] {
  const nameNode = param.getNameNode();
  const symbol = nameNode.getSymbol();
  return descendantsOfKind(fn, SyntaxKind.Identifier).filter(
    id => id !== nameNode && id.getText() === nameNode.getText() && id.getSymbol() === symbol,
  );
}

function sameName(node: Node, param: ParameterDeclaration): boolean {
  const n = unwrap(node);
  return Node.isIdentifier(n) && n.getSymbol() === param.getNameNode().getSymbol();
}

/** The function a node is written in. */
function ownerOf(node: Node): Node | undefined {
  return node.getFirstAncestor(
    a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a),
  );
}

/** The expression inside parentheses and type assertions (as mcpSymbols' unwrap, kept here to import nothing of the analysis). */
function unwrap(node: Node): Node {
  let n = node;
  while (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isNonNullExpression(n) || Node.isTypeAssertion(n))
    n = n.getExpression();
  return n;
}
