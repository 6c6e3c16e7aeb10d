/**
 * Awaited callbacks: a request inside a callback the handler hands to a wrapper and awaits
 * (`return tracer.span('x', async span => { ... })`, `await withTimeout(async () => server.elicitInput(q), ms)`,
 * `await mutex.runExclusive(async () => { ... })`). Where the wrapper passes the callback's value through
 * (judged from its body when it is the project's own), the request is migrated: a callback that only makes
 * the request is unwrapped (the request is migrated as if awaited in place of the wrapper's call), any other
 * callback body becomes the phased body, the wrapper running once per round around it. Anything else is
 * refused with the redesign to make: move the request out of the callback.
 */
import { Node, SyntaxKind, type CallExpression, type ParameterDeclaration, type Statement } from 'ts-morph';
import { CALLBACK_CAUSES } from '../tables/causes.js';
import { helperOf } from './inline.js';
import { unwrap } from './mcpSymbols.js';
import { parameterChange } from './recompute.js';
import { registrationOf, type FunctionLike, type Registration, type Site } from './sites.js';

export type AwaitedCallback =
  /** The callback only makes the request: migrated as if `await request` stood where the wrapper's call is. */
  | { kind: 'unwrap'; host: FunctionLike; registration: Registration; call: CallExpression; note: string; wrapper: string }
  /** The callback's body is split into phases; the handler returns the wrapper's call, which runs once per round. */
  | { kind: 'split'; host: FunctionLike; registration: Registration; call: CallExpression; statement: Statement; note: string }
  | { kind: 'refused'; reason: string; cause: string };

/** A library's wrapper, as far as a callback inside it can be split: none is a pass-through yet. */
interface LibraryWrapper {
  module: string;
  method: string;
  why: string;
  fix: string;
}

/**
 * Wrappers from libraries, whose bodies are not read. async-mutex's runExclusive holds a lock while the
 * callback runs: split, the lock would be released between rounds while the client answers, so it is no
 * pass-through for splitting, whatever value it returns.
 */
const LIBRARY_WRAPPERS: readonly LibraryWrapper[] = [
  {
    module: 'async-mutex',
    method: 'runExclusive',
    why: 'holds a lock while the callback runs: split, the lock would be released between rounds while the client answers',
    fix: 'move the question out of the callback: ask before taking the lock, then make the change under it with the answer',
  },
];

/**
 * What to do with the sites of `fn` when it is a callback the registered handler awaits (or returns)
 * through a wrapper; undefined when it is not one (a callback passed on, one outside a handler).
 */
export function awaitedCallback(fn: FunctionLike, sites: Site[]): AwaitedCallback | undefined {
  const call = fn.getParent();
  if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(fn as never)) return undefined;
  const use = outerOf(call);
  if (!Node.isAwaitExpression(use) && !Node.isReturnStatement(use)) return undefined;
  const host = call.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a)) as FunctionLike | undefined;
  const registration = host && registrationOf(host);
  if (!host || !registration) return undefined;
  const wrapper = `${calleeName(call)}()`;
  const where = `in a callback passed to ${wrapper}`;
  const library = libraryWrapper(call);
  if (library) return { kind: 'refused', reason: `${where}, which ${library.why}; ${library.fix}`, cause: CALLBACK_CAUSES.lock };
  const passThrough = passesThrough(call, fn);
  if (passThrough !== true) {
    const reason = `${where}, which ${passThrough}; move the request out of the callback: await it in the handler before calling ${wrapper}, and hand the answer in`;
    return { kind: 'refused', reason, cause: CALLBACK_CAUSES.wrapper };
  }
  // Its other arguments are gone with it: unwrapped only when evaluating them did nothing.
  if (onlyRequest(fn, sites) && sideEffectFree(call.getArguments().filter(a => a !== fn))) {
    const note = `${wrapper} no longer surrounds this question: the client now answers between rounds, so no call waits on the answer`;
    return { kind: 'unwrap', host, registration, call, note, wrapper: rootName(call) };
  }
  return splitting(fn, sites, { host, registration, call, wrapper, where });
}

/** The split of a callback's body, or why not. */
function splitting(fn: FunctionLike, sites: Site[], at: { host: FunctionLike; registration: Registration; call: CallExpression; wrapper: string; where: string }): AwaitedCallback {
  const { host, call, wrapper, where } = at;
  const statement = call.getFirstAncestor(a => Node.isStatement(a) && !Node.isBlock(a)) as Statement | undefined;
  const body = host.getBody();
  const returned = statement && Node.isReturnStatement(statement) && statement.getParent() === body && unwrapAwait(statement.getExpression()) === call;
  if (!statement || !returned || !Node.isBlock(body)) {
    const reason = `${where}: the handler does not return the wrapper's call directly, so an input_required result from the callback would not reach the client; write it \`return ${call.getExpression().getText()}(...)\` as the handler's last statement, or move the request out of the callback`;
    return { kind: 'refused', reason, cause: CALLBACK_CAUSES.notReturned };
  }
  const before = body.getStatements().slice(0, body.getStatements().indexOf(statement));
  const effect = [...before, ...call.getArguments().filter(a => a !== fn)].find(n => !sideEffectFree([n]));
  if (effect) {
    const reason = `${where}: the handler does work before it (${effect.getText().split('\n')[0]}) that would run again on each round; move that work into the callback, or the request out of it`;
    return { kind: 'refused', reason, cause: CALLBACK_CAUSES.workBefore };
  }
  const first = sites.map(s => s.node.getFirstAncestor(a => Node.isStatement(a) && !Node.isBlock(a))).filter((s): s is Statement => s !== undefined).sort((a, b) => a.getStart() - b.getStart())[0];
  for (const param of first ? fn.getParameters() : []) {
    const change = parameterChange(param, fn, first!);
    if (change) {
      const reason = `${where}, whose parameter "${param.getName()}" is ${change}: ${wrapper} makes it again each round, without that change; ask before changing it, or keep what it holds in a local`;
      return { kind: 'refused', reason, cause: CALLBACK_CAUSES.parameter };
    }
  }
  const note = `${wrapper} now runs once per round: its callback resumes from requestState inside a fresh call (review that running it on each retry is safe)`;
  return { kind: 'split', host, registration: at.registration, call, statement, note };
}

/**
 * Whether the project's own wrapper passes the callback's value through (`return await work(...)`, in a
 * try/finally, or raced against a promise that can only reject), or why not.
 */
function passesThrough(call: CallExpression, callback: FunctionLike): true | string {
  const helper = helperOf(call.getExpression());
  if (!helper) return "is not the project's own function (its body cannot be read)";
  if (helper.table) return 'is called through a table of entries, any of which the call may run';
  if (helper.overrides) return 'is a method classes of the project override, any of which the call may run';
  const index = call.getArguments().indexOf(callback as never);
  const param = helper.fn.getParameters()[index];
  if (!param || !Node.isIdentifier(param.getNameNode()) || param.getDotDotDotToken()) return 'does not take the callback as a named parameter';
  const body = helper.fn.getBody();
  if (!body) return 'has no body';
  const own = (n: Node) => ownerOf(n) === helper.fn;
  const uses = body.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => id.getSymbol() === param.getNameNode().getSymbol());
  const returns = Node.isBlock(body) ? body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter(own) : [];
  const results = Node.isBlock(body) ? returns.map(r => r.getExpression()) : [body];
  if (results.length === 0 || results.some(r => !r || !passedValue(r, param))) return "does not return the callback's value as it is";
  if (uses.length !== results.length) return 'uses the callback otherwise than to return its value';
  const caught = returns.some(r => r.getAncestors().some(a => Node.isTryStatement(a) && a.getCatchClause() && a.getTryBlock().containsRange(r.getPos(), r.getEnd())));
  if (caught) return "catches what the callback throws";
  return true;
}

/** `work(...)`, `await work(...)`, `await Promise.race([work(...), rejectOnly])`. */
function passedValue(expr: Node, param: ParameterDeclaration): boolean {
  const e = unwrapAwait(expr);
  if (!Node.isCallExpression(e)) return false;
  const callee = unwrap(e.getExpression());
  if (Node.isIdentifier(callee)) return callee.getSymbol() === param.getNameNode().getSymbol();
  if (callee.getText() !== 'Promise.race') return false;
  const list = e.getArguments()[0] && unwrap(e.getArguments()[0]!);
  if (!list || !Node.isArrayLiteralExpression(list)) return false;
  const [work, ...others] = list.getElements();
  return work !== undefined && passedValue(work, param) && others.every(rejectsOnly);
}

/** A promise that never resolves with a value: `new Promise<never>((_, reject) => ...)`, or a const holding one. */
function rejectsOnly(expr: Node): boolean {
  let e = unwrap(expr);
  if (Node.isIdentifier(e)) {
    const decl = e.getSymbol()?.getDeclarations()[0];
    const init = decl && Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const' ? decl.getInitializer() : undefined;
    if (!init) return false;
    e = unwrap(init);
  }
  if (!Node.isNewExpression(e) || e.getExpression().getText() !== 'Promise') return false;
  const executor = e.getArguments()[0];
  if (!executor || !(Node.isArrowFunction(executor) || Node.isFunctionExpression(executor))) return false;
  const resolve = executor.getParameters()[0];
  if (!resolve) return false;
  const symbol = resolve.getNameNode().getSymbol();
  return !executor.getDescendantsOfKind(SyntaxKind.Identifier).some(id => id !== resolve.getNameNode() && id.getSymbol() === symbol);
}

/** The callback's whole body is its one request (`async () => server.elicitInput(q)`, or `{ return await ... }`). */
function onlyRequest(fn: FunctionLike, sites: Site[]): boolean {
  if (sites.length !== 1) return false;
  const body = fn.getBody();
  const result = body && Node.isBlock(body) ? (body.getStatements().length === 1 && Node.isReturnStatement(body.getStatements()[0]!) ? body.getStatements()[0]!.asKind(SyntaxKind.ReturnStatement)!.getExpression() : undefined) : body;
  if (!result || unwrapAwait(result) !== sites[0]!.node) return false;
  // The request must not read what the callback is given: those are gone once it is unwrapped.
  const params = new Set(fn.getParameters().flatMap(p => p.getDescendantsOfKind(SyntaxKind.Identifier)).map(id => id.getSymbol()));
  return !sites[0]!.node.getDescendantsOfKind(SyntaxKind.Identifier).some(id => params.has(id.getSymbol()));
}

/** The wrapper, when it is a library's one the table names: by where its declaration lives, or the module its receiver's class comes from. */
function libraryWrapper(call: CallExpression): LibraryWrapper | undefined {
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const found = LIBRARY_WRAPPERS.filter(w => w.method === callee.getName());
  if (found.length === 0) return undefined;
  const declared = (callee.getNameNode().getSymbol()?.getDeclarations() ?? []).map(d => d.getSourceFile().getFilePath());
  const modules = [...declared.map(packageOf), ...importedClassModule(callee.getExpression())];
  return found.find(w => modules.includes(w.module));
}

function packageOf(file: string): string | undefined {
  return /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
}

/** `x` where `const x = new Mutex()` and Mutex is imported: the module it is imported from. */
function importedClassModule(receiver: Node): string[] {
  const decl = unwrap(receiver).getSymbol()?.getDeclarations()[0];
  const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  const made = init && unwrap(init);
  if (!made || !Node.isNewExpression(made)) return [];
  const imported = made.getExpression().getSymbol()?.getDeclarations()[0]?.getFirstAncestorByKind(SyntaxKind.ImportDeclaration);
  return imported ? [imported.getModuleSpecifierValue()] : [];
}

/** Nothing with an effect (no call, `new`, await, assignment, update or delete): evaluating it again, or not, changes nothing. */
function sideEffectFree(nodes: Node[]): boolean {
  const effect = (n: Node) =>
    Node.isCallExpression(n) || Node.isNewExpression(n) || Node.isAwaitExpression(n) || Node.isTaggedTemplateExpression(n) || Node.isDeleteExpression(n) ||
    Node.isPrefixUnaryExpression(n) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(n.getOperatorToken()) ||
    Node.isPostfixUnaryExpression(n) ||
    Node.isBinaryExpression(n) && n.getOperatorToken().getKind() >= SyntaxKind.FirstAssignment && n.getOperatorToken().getKind() <= SyntaxKind.LastAssignment;
  return nodes.every(n => {
    if (Node.isVariableStatement(n)) return n.getDeclarationKind() === 'const' && n.getDeclarations().every(d => !d.getInitializer() || sideEffectFree([d.getInitializer()!]));
    if (Node.isStatement(n) && !Node.isExpressionStatement(n)) return false;
    return !effect(n) && !n.getDescendants().some(d => effect(d) && !insideFunction(d, n));
  });
}

/** Code of a function written inside `root`: not run where `root` is evaluated. */
function insideFunction(node: Node, root: Node): boolean {
  return node.getAncestors().some(a => (Node.isArrowFunction(a) || Node.isFunctionExpression(a)) && root.containsRange(a.getPos(), a.getEnd()) && a !== root);
}

/** The wrapper's name as the markers say it: the method's, without its receiver. */
function calleeName(call: CallExpression): string {
  const callee = unwrap(call.getExpression());
  return Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
}

/** The name a call's callee starts from: `withTimeout`, `tracer` of `tracer.span`. */
function rootName(call: CallExpression): string {
  let e = unwrap(call.getExpression());
  while (Node.isPropertyAccessExpression(e)) e = unwrap(e.getExpression());
  return e.getText();
}

function outerOf(call: Node): Node {
  let n = call.getParentOrThrow();
  while (Node.isParenthesizedExpression(n)) n = n.getParentOrThrow();
  return n;
}

function unwrapAwait(expr: Node | undefined): Node | undefined {
  let e = expr && unwrap(expr);
  while (e && Node.isAwaitExpression(e)) e = unwrap(e.getExpression());
  return e;
}

function ownerOf(node: Node): Node | undefined {
  return node.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a));
}

/**
 * The awaited callbacks among the functions `sites` sit in, each with what to do. The sites of a callback
 * that is unwrapped move to its handler (`fn`, `unwrapped`): they are planned with the handler's own.
 */
export function awaitedCallbacks(sites: Site[]): Map<FunctionLike, AwaitedCallback> {
  const byFunction = new Map<FunctionLike, Site[]>();
  for (const site of sites) if (site.fn && !registrationOf(site.fn)) byFunction.set(site.fn, [...(byFunction.get(site.fn) ?? []), site]);
  const found = new Map<FunctionLike, AwaitedCallback>();
  for (const [fn, own] of byFunction) {
    const callback = awaitedCallback(fn, own);
    if (callback?.kind !== 'unwrap') {
      if (callback) found.set(fn, callback);
      continue;
    }
    for (const site of own) Object.assign(site, { fn: callback.host, unwrapped: { call: callback.call, note: callback.note, wrapper: callback.wrapper } });
  }
  return found;
}
