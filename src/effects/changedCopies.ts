/**
 * Journaled values the handler changes after a question. A journaled result comes back on a later round of a
 * 2026-07-28 call as a copy read from the sealed state, not as the object the work returned: where that object
 * is the server's own (a store's task, a cache's entry), a change made to it after the question
 * (`task.priority = 'high'`) lands on the copy, and the server's object never changes while the reply says it
 * did. Only work done by the project's own functions is looked at: what a package or the network returns is
 * a copy on every era.
 */
import { Node, SyntaxKind, type Identifier, type Symbol as MorphSymbol } from 'ts-morph';
import { calleesOf } from '../find/callees.js';
import { unwrap } from '../analysis/mcpSymbols.js';
import type { FunctionLike } from '../analysis/functions.js';
import { ELEMENT_READS, mutationOf, rootOf } from './walk.js';
import { CHANGED_COPY_CAUSE, type FoundCause } from '../tables/causes.js';
import { descendantsOfKind } from '../analysis/descendants.js';

/** Methods that change the array, map or set they are called on. */
const CHANGING_METHODS = /^(push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin|set|delete|add|clear)$/;

/** The first change, after a question that follows it, of what journaled `work` returned; undefined when there is none. */
export function changedAfterAQuestion(work: Node, fn: FunctionLike, questions: Node[]): Node | undefined {
  const name = declaredName(work);
  const body = fn.getBody();
  if (!name || !body || !byProjectCode(work)) return undefined;
  const after = questions.filter(q => q.getStart() >= work.getEnd()).map(q => q.getEnd());
  if (after.length === 0) return undefined;
  const firstQuestionEnd = Math.min(...after);
  const tracked = new Set<MorphSymbol>([name.getSymbol()].filter((s): s is MorphSymbol => s !== undefined));
  for (const node of body.getDescendants()) {
    trackDerived(node, tracked);
    if (node.getStart() >= firstQuestionEnd && changes(node, tracked)) return node;
  }
  return undefined;
}

/** Why journaled `work`, changed by `change` after a question, is marked. */
export function changedCopyReason(work: Node, change: Node, label: string): { reason: string; cause: FoundCause } {
  const flat = (text: string) =>
    text.replace(/\s+/g, ' ').length > 80 ? `${text.replace(/\s+/g, ' ').slice(0, 77)}...` : text.replace(/\s+/g, ' ');
  const reason = `${label} journals ${flat(work.getText())} (done once), and ${flat(change.getText())} (line ${change.getStartLineNumber()}) changes what it returned after a question: on a later round of a 2026-07-28 call that is a copy read back from requestState, so where it is the server's own object (a store's, a cache's) the change is lost while the reply says it was made. Re-read the object after the question (by its id, from its owner) and change that, then run again`;
  return { reason, cause: CHANGED_COPY_CAUSE };
}

/** `const open = await <work>`: the local the work's result is kept in. */
function declaredName(work: Node): Identifier | undefined {
  let at: Node = work;
  for (
    let up = at.getParent();
    up && (Node.isAwaitExpression(up) || Node.isParenthesizedExpression(up) || Node.isAsExpression(up) || Node.isNonNullExpression(up));
    up = up.getParent()
  )
    at = up;
  const declaration = at.getParent();
  if (!declaration || !Node.isVariableDeclaration(declaration) || declaration.getInitializer() !== at) return undefined;
  const name = declaration.getNameNode();
  return Node.isIdentifier(name) ? name : undefined;
}

/**
 * Whether the work calls a function of the project that hands out objects the server holds: one returning what
 * it reads from its `this` or from a module-level variable (`return this.tasks.filter(...)`), not what it makes
 * or fetches (an API client's `return (await fetch(url)).json()` is a copy on every era).
 */
function byProjectCode(work: Node): boolean {
  const calls = [work, ...work.getDescendants()].filter(Node.isCallExpression);
  return calls.some(call =>
    calleesOf(call.getExpression()).some(
      fn => !fn.getSourceFile().isInNodeModules() && !fn.getSourceFile().isDeclarationFile() && handsOutHeldObjects(fn),
    ),
  );
}

function handsOutHeldObjects(fn: Node): boolean {
  const body = (fn as FunctionLike).getBody?.();
  if (!body) return false;
  const returned = Node.isBlock(body) ? descendantsOfKind(body, SyntaxKind.ReturnStatement).map(r => r.getExpression()) : [body];
  return returned.some(expression => {
    const root = expression && heldRoot(expression);
    if (!root) return false;
    if (Node.isThisExpression(root)) return true;
    const declaration = root.getSymbol()?.getDeclarations()[0];
    return (
      declaration !== undefined &&
      Node.isVariableDeclaration(declaration) &&
      declaration.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) === undefined
    );
  });
}

/** Adds the locals read out of a tracked one: `const task = open.find(...)`, `for (const t of open)`, `const [first] = open`. */
function trackDerived(node: Node, tracked: Set<MorphSymbol>): void {
  if (Node.isVariableDeclaration(node)) {
    const from = node.getInitializer();
    if (from && isTracked(rootName(from), tracked)) addNames(node.getNameNode(), tracked);
  } else if (Node.isForOfStatement(node) && isTracked(rootName(node.getExpression()), tracked)) {
    const initializer = node.getInitializer();
    for (const declaration of Node.isVariableDeclarationList(initializer) ? initializer.getDeclarations() : [])
      addNames(declaration.getNameNode(), tracked);
  }
}

function addNames(name: Node, tracked: Set<MorphSymbol>): void {
  const ids = Node.isIdentifier(name)
    ? [name]
    : descendantsOfKind(name, SyntaxKind.Identifier).filter(
        id => Node.isBindingElement(id.getParent()) && (id.getParent() as import('ts-morph').BindingElement).getNameNode() === id,
      );
  for (const id of ids) {
    const symbol = id.getSymbol();
    if (symbol) tracked.add(symbol);
  }
}

/** An assignment to a member, `delete`, `++`/`--` on one, or a changing method called on something tracked. */
function changes(node: Node, tracked: Set<MorphSymbol>): boolean {
  const mutation = mutationOf(node);
  if (mutation) {
    const target = unwrap(mutation.target);
    return (Node.isPropertyAccessExpression(target) || Node.isElementAccessExpression(target)) && isTracked(rootName(target), tracked);
  }
  if (Node.isCallExpression(node)) {
    const callee = unwrap(node.getExpression());
    if (Node.isPropertyAccessExpression(callee) && CHANGING_METHODS.test(callee.getName()))
      return isTracked(rootName(callee.getExpression()), tracked);
    if (callee.getText() === 'Object.assign') return isTracked(rootName(node.getArguments()[0] ?? callee), tracked);
  }
  return false;
}

/** Beside the element reads, methods whose result holds the very objects they are called on hold (not copies, not values made from them). */
const HANDING_OUT: ReadonlySet<string> = new Set([...ELEMENT_READS, 'filter', 'slice']);

/**
 * What an expression reads the objects it stands for from, a name or `this`: `open` for `open.find(t => ...)`,
 * `open[0].tags`, `await open`; none for what is made from them (`open.map(t => t.id)`, `open.length > 0`).
 */
function heldRoot(expression: Node): Node | undefined {
  let at = unwrap(expression);
  while (Node.isAwaitExpression(at)) at = unwrap(at.getExpression());
  const root = rootOf(at, HANDING_OUT);
  return Node.isIdentifier(root) || Node.isThisExpression(root) ? root : undefined;
}

/** The name `heldRoot` reads to, when it is one. */
function rootName(expression: Node): Identifier | undefined {
  const root = heldRoot(expression);
  return root && Node.isIdentifier(root) ? root : undefined;
}

function isTracked(id: Identifier | undefined, tracked: Set<MorphSymbol>): boolean {
  const symbol = id?.getSymbol();
  return symbol !== undefined && tracked.has(symbol);
}
