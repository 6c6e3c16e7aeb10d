/**
 * Locals that cannot travel in requestState but can be made again: an API client, a database pool or
 * connection, another class instance made before the question and used after it. Instead of carrying such a
 * local (JSON cannot) the resumed phase evaluates its declaration again, as a person migrating by hand would,
 * and says so in the diff and the report, to be reviewed. What cannot be made again stays refused, with why:
 * a value built from what changes between rounds (the time, a random number), one changed or set up before the
 * question (a login, a transaction), a promise already running, a value whose content is data (a Date, a Map).
 */
import { Node, SyntaxKind, type ParameterDeclaration, type Statement, type VariableDeclaration } from 'ts-morph';
import { isAssignment } from './hoist.js';
import type { FunctionLike } from './sites.js';

/** What a value that cannot travel is, when making it again gives an equivalent one: a handle, not data. */
const HANDLE = /^(an instance of class |a function|an object with method |an object whose "[^"]*" is (an instance of class |a function|an object with method ))/;

/** Calls whose result differs each time: the resumed phase would see another value. */
const NOT_REPEATABLE = /\bnew Date\b|\bDate\.now\b|\bMath\.random\b|\brandomUUID\b|\brandomBytes\b|\bperformance\.now\b|\bhrtime\b/;

/** Methods that set a handle up (log in, open a transaction, take a lock): a new handle would not be set up so. */
const SETS_UP = /^(login|logIn|signIn|authenticate|auth|connect|begin|beginTransaction|startTransaction|transaction|lock|acquire|init|initialize|configure|open|start|use|set[A-Z]\w*)$/;

export interface Recompute {
  /** The declaration statement, evaluated again at the start of each later phase. */
  statement: Statement;
  initializer: string;
}

/**
 * Whether the local `decl` declares, live across `suspension` but not JSON (`problem` says what it is), can be
 * made again in the resumed phase: a `Recompute`, or why not.
 */
export function recomputation(decl: VariableDeclaration, problem: string, fn: FunctionLike, suspension: Statement, requests: Node[]): Recompute | { refused: string; fix?: string } {
  if (!HANDLE.test(problem)) return { refused: problem };
  const statement = decl.getVariableStatement();
  const init = decl.getInitializer();
  if (!statement || statement.getDeclarations().length !== 1 || !init || !Node.isIdentifier(decl.getNameNode())) return { refused: `${problem}, declared with others or without a value` };
  if (requests.some(r => r.getStart() >= init.getStart() && r.getEnd() <= init.getEnd())) return { refused: `${problem}, made from a request's answer` };
  if (NOT_REPEATABLE.test(init.getText())) return { refused: `${problem}, made from a value that differs each time (${NOT_REPEATABLE.exec(init.getText())![0]})` };
  const all = uses(decl, fn);
  const before = all.filter(id => id.getStart() < suspension.getStart());
  if (isTransaction(decl, before)) {
    return { refused: `${problem}, an open transaction: made again, it would hold nothing of what was done before the question`, fix: 'ask before the transaction begins, or commit it before asking' };
  }
  if (all.some(isWrite)) return { refused: `${problem}, assigned or changed after it is made` };
  const setUp = before.find(setUpCall);
  if (setUp) {
    return { refused: `${problem}, set up before the question (${setUp.getParentOrThrow().getText().split('(')[0]}()): a new one would not be`, fix: 'ask before setting it up, or make and set it up after the question' };
  }
  const after = all.filter(id => id.getStart() >= suspension.getEnd());
  const change = changeReadLater(before, after);
  if (change) {
    return {
      refused: `${problem}, changed before the question (${change}) in a way read after it: made again, it would not hold that change`,
      fix: 'ask before changing it, or carry what it holds as plain data and build it again after the question',
    };
  }
  return { statement, initializer: init.getText().replace(/\s+/g, ' ') };
}

/**
 * A parameter the caller supplies afresh each round (an awaited callback's, which its wrapper makes again):
 * how it is changed before the question in a way read after it, like a handle made again; undefined when it is not.
 */
export function parameterChange(param: ParameterDeclaration, fn: FunctionLike, suspension: Statement): string | undefined {
  const name = param.getNameNode();
  const bound = Node.isIdentifier(name) ? [name] : name.getDescendantsOfKind(SyntaxKind.Identifier);
  for (const id of bound) {
    const symbol = id.getSymbol();
    const all = fn.getDescendantsOfKind(SyntaxKind.Identifier).filter(use => use !== id && use.getSymbol() === symbol);
    const change = changeReadLater(all.filter(use => use.getStart() < suspension.getStart()), all.filter(use => use.getStart() >= suspension.getEnd()));
    if (change) return `changed before the question (${change}) in a way read after it`;
  }
  return undefined;
}

/** The identifiers of `fn` naming the local `decl` declares (its declaration left out). */
function uses(decl: VariableDeclaration, fn: FunctionLike): Node[] {
  const symbol = decl.getSymbol();
  return fn.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => id !== decl.getNameNode() && id.getText() === decl.getName() && id.getSymbol() === symbol);
}

/**
 * A transaction: made by a `begin`/`transaction` call, with a `commit` method, or sent `BEGIN` before the
 * question. What it did before the question lives in it, not in the database yet.
 */
function isTransaction(decl: VariableDeclaration, before: Node[]): boolean {
  const init = decl.getInitializer()?.getText() ?? '';
  if (/(begin|beginTransaction|startTransaction|transaction)\s*\(/.test(init)) return true;
  if (decl.getType().getProperties().some(p => p.getName() === 'commit' || p.getName() === 'rollback')) return true;
  return before.some(id => {
    const call = id.getParent()?.getParent();
    return call !== undefined && Node.isCallExpression(call) && call.getArguments().some(a => /^['"`]\s*(BEGIN|START TRANSACTION)\b/i.test(a.getText()));
  });
}

/** `x = ...`, `x.p = ...`, `x.p++`, `delete x.p`: what changes the handle or what it holds. */
function isWrite(id: Node): boolean {
  let target: Node = id;
  for (let p = id.getParent(); p && (Node.isPropertyAccessExpression(p) || Node.isElementAccessExpression(p)) && p.getExpression() === target; p = p.getParent()) target = p;
  const parent = target.getParent();
  if (!parent) return false;
  if (Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent) || Node.isDeleteExpression(parent)) return true;
  return Node.isBinaryExpression(parent) && parent.getLeft() === target && isAssignment(parent);
}

/** Array, Map and Set methods that change what they are called on. */
const MUTATORS = /^(push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin|set|add|delete|clear)$/;

/** Every field: what a use the project's code does not show (a library's method, the handle passed on) may touch. */
const ALL = '*';

/**
 * The first use before the question that changes a field of the handle a use after it reads, named; a use
 * whose effect cannot be read (a library's method called for its effect, the handle passed to a call made
 * for its effect) changes every field. A counter bumped before and never read is no reason to refuse.
 */
function changeReadLater(before: Node[], after: Node[]): string | undefined {
  const read = new Set(after.flatMap(id => [...fieldsOfUse(id, 'read')]));
  if (read.size === 0) return undefined;
  for (const id of before) {
    const changed = fieldsOfUse(id, 'changed');
    if ([...changed].some(f => read.has(f) || read.has(ALL) || f === ALL)) return callName(id);
  }
  return undefined;
}

/** The handle's fields a use of it reads or changes, as far as the project's code shows. */
function fieldsOfUse(id: Node, what: 'read' | 'changed'): Set<string> {
  const written = writtenField(id);
  if (written) return new Set(what === 'changed' ? [written.field] : []);
  const access = id.getParent();
  const call = access?.getParent();
  if (access && Node.isPropertyAccessExpression(access) && access.getExpression() === id) {
    if (!(call && Node.isCallExpression(call) && call.getExpression() === access)) return new Set(what === 'read' ? [access.getName()] : []);
    // Only code that can be read: an interface's signature or a library's declaration says nothing of what the call changes.
    const bodies = (access.getNameNode().getSymbol()?.getDeclarations() ?? []).filter(d => !d.getSourceFile().isDeclarationFile() && !d.getSourceFile().isInNodeModules() && hasBody(d));
    if (bodies.length > 0) return new Set(bodies.flatMap(d => [...thisFields(d, what, 3)]));
    return new Set(what === 'read' || resultUnused(call) ? [ALL] : []);
  }
  if (access && Node.isCallExpression(access) && access.getArguments().includes(id as never)) return new Set(what === 'read' || resultUnused(access) ? [ALL] : []);
  return new Set(what === 'read' ? [ALL] : []);
}

/** The fields of `this` a method reads, or changes (assigned, bumped, a mutator called on), through the methods of `this` it calls too. */
function thisFields(method: Node, what: 'read' | 'changed', depth: number): Set<string> {
  const fields = new Set<string>();
  for (const n of method.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
    if (n.getExpression().getKind() !== SyntaxKind.ThisKeyword) continue;
    const parent = n.getParentOrThrow();
    if (Node.isCallExpression(parent) && parent.getExpression() === n) {
      if (depth > 0) for (const d of n.getNameNode().getSymbol()?.getDeclarations() ?? []) if (d !== method) for (const f of thisFields(d, what, depth - 1)) fields.add(f);
      continue;
    }
    if (fieldUse(n) === what) fields.add(n.getName());
  }
  return fields;
}

/** How `this.f` is used: assigned, bumped, a member of it assigned or a mutator called on it (changed), or read. */
function fieldUse(access: Node): 'read' | 'changed' {
  const parent = access.getParentOrThrow();
  if (Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) {
    const op = parent.getOperatorToken();
    return op === SyntaxKind.PlusPlusToken || op === SyntaxKind.MinusMinusToken ? 'changed' : 'read';
  }
  if (Node.isDeleteExpression(parent)) return 'changed';
  if (Node.isBinaryExpression(parent) && parent.getLeft() === access && isAssignment(parent)) return 'changed';
  if (!(Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) || parent.getExpression() !== access) return 'read';
  const outer = parent.getParentOrThrow();
  if (Node.isCallExpression(outer) && outer.getExpression() === parent && Node.isPropertyAccessExpression(parent) && MUTATORS.test(parent.getName())) return 'changed';
  return Node.isBinaryExpression(outer) && outer.getLeft() === parent && isAssignment(outer) ? 'changed' : 'read';
}

/** A method with a body, or a property initialised with a function. */
function hasBody(d: Node): boolean {
  if (Node.isMethodDeclaration(d)) return d.getBody() !== undefined;
  const init = Node.isPropertyDeclaration(d) || Node.isPropertyAssignment(d) ? d.getInitializer() : undefined;
  return init !== undefined && (Node.isArrowFunction(init) || Node.isFunctionExpression(init));
}

/** A call made for its effect: a statement of its own, awaited or not. */
function resultUnused(call: Node): boolean {
  let node: Node = call;
  while (Node.isAwaitExpression(node.getParentOrThrow()) || Node.isParenthesizedExpression(node.getParentOrThrow()) || Node.isVoidExpression(node.getParentOrThrow())) node = node.getParentOrThrow();
  return Node.isExpressionStatement(node.getParentOrThrow());
}

/**
 * The field a use changes by writing into it (`x.f = v`, `x.f.g = v`, `x.f++`, `delete x.f.g`, `x.f.push(v)`;
 * every field for `x = v` or `x[k] = v`), with the write; undefined for any other use.
 */
function writtenField(id: Node): { field: string; write: Node } | undefined {
  let target: Node = id;
  for (let p = id.getParent(); p && (Node.isPropertyAccessExpression(p) || Node.isElementAccessExpression(p)) && p.getExpression() === target; p = p.getParent()) target = p;
  const first = target === id ? undefined : id.getParentOrThrow();
  const field = first && Node.isPropertyAccessExpression(first) ? first.getName() : ALL;
  const parent = target.getParentOrThrow();
  if (Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) {
    const op = parent.getOperatorToken();
    return op === SyntaxKind.PlusPlusToken || op === SyntaxKind.MinusMinusToken ? { field, write: parent } : undefined;
  }
  if (Node.isDeleteExpression(parent) || (Node.isBinaryExpression(parent) && parent.getLeft() === target && isAssignment(parent))) return { field, write: parent };
  // A mutator called on a field (`x.items.push(v)`); one called on the value itself is a method call, judged by its body.
  const mutated = Node.isPropertyAccessExpression(target) && MUTATORS.test(target.getName()) && target.getExpression() !== id;
  if (mutated && Node.isCallExpression(parent) && parent.getExpression() === target) return { field, write: parent };
  return undefined;
}

function callName(id: Node): string {
  const written = writtenField(id);
  if (written) return written.write.getText().split('\n')[0]!;
  const parent = id.getParentOrThrow();
  return Node.isPropertyAccessExpression(parent) ? `${parent.getText()}()` : `${parent.getText().split('(')[0]}(${id.getText()})`;
}

/** `x.login(...)`, `x.beginTransaction()`: a call that sets the handle up. */
function setUpCall(id: Node): boolean {
  const access = id.getParent();
  const call = access?.getParent();
  return access !== undefined && Node.isPropertyAccessExpression(access) && access.getExpression() === id && call !== undefined && Node.isCallExpression(call) && call.getExpression() === access && SETS_UP.test(access.getName());
}
