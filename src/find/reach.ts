/**
 * Which handlers may run a function: followed up from it through the calls that run it, the callbacks
 * it is passed as, the functions of the project that hand it on, and the registrations that take it.
 * A request in a function is migrated when a tools/call, prompts/get or resources/read handler may
 * run it: its registration goes through `resumable(...)`, and the request asks through `ask(...)` while
 * that handler runs. Whatever else may run it (a lifecycle callback, a timer, another request's handler)
 * is said, with why it cannot ask there.
 *
 * Each function's answer is worked out once per program. Calls of a function are found through an index
 * of the names the project's files use (one walk of each file's syntax), each candidate resolved by the
 * type checker (src/find/callees.ts): the cost grows with the calls of the functions followed, not with
 * the size of the project.
 */
import { Node, SyntaxKind, ts, VariableDeclarationKind, type CallExpression, type ParameterDeclaration, type SourceFile } from 'ts-morph';
import { literalString, mcpImportOf, receiverOverrides, serverKindOf, unwrap } from '../analysis/mcpSymbols.js';
import { enclosingFunction, type FunctionLike } from '../analysis/functions.js';
import { describeNonHandler, sdkCallbackOf, type NonHandler } from '../analysis/nonHandlers.js';
import type { HandlerMethod } from '../plan.js';
import { calleesOf, isFunctionLike, isModuleExportsAssignment, isProjectFunction } from './callees.js';
import { MCP_TEXT } from '../triggers.js';
import { descendantsOfKind } from '../analysis/descendants.js';

/** A registration whose handler may run the function: its receiver goes through `resumable(...)`. */
export interface HandlerReached {
  registration: CallExpression;
  method: HandlerMethod;
  /** `tools/call greet`. */
  label: string;
}

/** Something other than a migratable handler that may run the function, and where the chain left the handlers. */
export interface NotAHandler extends NonHandler {
  /** The call or use where it was found (a call in oninitialized, a callback passed to setTimeout). */
  at?: Node;
  /**
   * It certainly runs where no request is served (a lifecycle callback, a notification handler, module
   * level, a timer or an event): not where what runs it could not be followed.
   */
  outside?: boolean;
  /** `at` is the call, in the code that runs where no request is served, that leads to the function: where it is marked. */
  reached?: boolean;
}

export interface Reach {
  handlers: HandlerReached[];
  others: NotAHandler[];
  /**
   * A registration takes the function itself as its handler, and nothing calls it: what it does after its
   * last question runs once, on the last round. Otherwise (a helper, a callback) all of it may run again.
   */
  root?: boolean;
}

/** A function a handler may run that asks the client something, itself or through what it calls. */
export interface AskingFunction {
  fn: FunctionLike;
  reach: Reach;
}

/** The SDK's registrations whose handlers may answer input_required, by method name. */
const REGISTRATION_METHODS: Record<string, HandlerMethod> = {
  registerTool: 'tools/call',
  registerPrompt: 'prompts/get',
  registerResource: 'resources/read',
};
const LEGACY_REGISTRATIONS: Record<string, HandlerMethod> = { tool: 'tools/call', prompt: 'prompts/get', resource: 'resources/read' };
const RESUMABLE: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);
const REQUEST_SCHEMAS: Record<string, HandlerMethod> = {
  CallToolRequestSchema: 'tools/call',
  GetPromptRequestSchema: 'prompts/get',
  ReadResourceRequestSchema: 'resources/read',
};

/** Functions that run a callback later, not while the call that hands it over runs. */
const DEFERRING = new Set([
  'createServer',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'nextTick',
  'on',
  'once',
  'addListener',
  'addEventListener',
  'prependListener',
  'subscribe',
  'listen',
  'setNotificationHandler',
  'onclose',
  'onerror',
]);

/** A web framework's route (`app.get('/path', cb)`): its callback runs on each HTTP request, later. */
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'use', 'head', 'options']);
function routeOf(call: CallExpression | import('ts-morph').NewExpression): boolean {
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !ROUTE_METHODS.has(callee.getName())) return false;
  return /^['"`]\//.test(call.getArguments()[0]?.getText() ?? '');
}

/** How many hand-overs (a callback passed on, a value stored) are followed from one function. */
const MAX_HOPS = 6;

export class Reacher {
  private readonly memo = new Map<Node, Reach>();
  private readonly values = new Map<Node, Reach>();
  private index: Map<string, { file: SourceFile; pos: number }[]> | undefined;
  /** How the function being followed is run: registered as a handler itself, called. */
  private current = { registered: false, called: false };
  /** The function whose uses are being followed, and the calls of it those uses are, by name or through a holder. */
  private following: FunctionLike | undefined;
  private readonly callsFollowed = new Map<Node, FunctionLike>();

  constructor(private readonly files: readonly SourceFile[]) {}

  /** Every function followed so far that a handler may run (those a request was followed up from, and their callers). */
  askingFunctions(): AskingFunction[] {
    return [...this.memo].filter(([, reach]) => reach.handlers.length > 0).map(([fn, reach]) => ({ fn: fn as FunctionLike, reach }));
  }

  /** What may run `fn`. */
  of(fn: FunctionLike): Reach {
    const known = this.memo.get(fn);
    if (known) return known;
    const reach: Reach = { handlers: [], others: [] };
    // Until it is settled, a cycle back to it adds nothing.
    this.memo.set(fn, reach);
    const uses = this.valueUses(fn);
    const outer = this.current;
    const outerFollowing = this.following;
    const mine = (this.current = { registered: false, called: false });
    this.following = fn;
    try {
      for (const use of uses) this.classify(use, reach, 0);
    } finally {
      this.current = outer;
      this.following = outerFollowing;
    }
    reach.root = mine.registered && !mine.called;
    if (uses.length === 0 && reach.handlers.length === 0) reach.others.push(describeNonHandler(fn));
    return reach;
  }

  /**
   * The calls of `fn`, where every use the project makes of it is a call of it (a function or method it declares,
   * or a function it holds in a const); undefined where `fn` is also handed on, stored, read by a computed key
   * or held otherwise: what may run it then cannot all be seen as calls.
   */
  callsOf(fn: FunctionLike): CallExpression[] | undefined {
    const uses = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) ? this.valueUses(fn) : this.constUses(fn);
    if (!uses) return undefined;
    const calls: CallExpression[] = [];
    for (const use of uses) {
      const value = outerValue(use);
      const parent = value.getParent();
      if (!parent || !Node.isCallExpression(parent) || parent.getExpression() !== value) return undefined;
      calls.push(parent);
    }
    return calls;
  }

  /** The uses of a function held in a const (`const ask = async () => ...`); undefined for one held otherwise. */
  private constUses(fn: FunctionLike): Node[] | undefined {
    const holder = outerValue(fn).getParent();
    if (!holder || !Node.isVariableDeclaration(holder) || !Node.isIdentifier(holder.getNameNode())) return undefined;
    if (holder.getVariableStatement()?.getDeclarationKind() !== VariableDeclarationKind.Const) return undefined;
    return this.usesOfName(holder.getName(), holder);
  }

  /** The function a call runs, where following that function's uses led to the call (`confirm(...)` of a required `confirm`). */
  functionCalledAt(call: Node): FunctionLike | undefined {
    return this.callsFollowed.get(call);
  }

  /** What may run a function value handed on (`retry(server.createMessage.bind(server))`, `{ ask }`). */
  ofValue(value: Node): Reach {
    const known = this.values.get(value);
    if (known) return known;
    const reach: Reach = { handlers: [], others: [] };
    this.values.set(value, reach);
    const outer = this.current;
    const outerFollowing = this.following;
    this.current = { registered: false, called: false };
    this.following = undefined;
    try {
      this.classify(value, reach, 0);
    } finally {
      this.current = outer;
      this.following = outerFollowing;
    }
    return reach;
  }

  /** The handlers that may run `fn`, and what else may. */
  private classify(use: Node, reach: Reach, hops: number): void {
    if (hops > MAX_HOPS) return;
    const value = outerValue(use);
    const parent = value.getParent();
    if (!parent) return;
    if (Node.isCallExpression(parent) && parent.getExpression() === value) return this.calledAt(this.followed(parent), reach);
    // `ask.call(this, q)`, `ask.apply(this, args)`
    if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === value && /^(call|apply)$/.test(parent.getName())) {
      const call = parent.getParent();
      if (call && Node.isCallExpression(call) && call.getExpression() === parent) return this.calledAt(this.followed(call), reach);
    }
    if ((Node.isCallExpression(parent) || Node.isNewExpression(parent)) && (parent.getArguments() as Node[]).includes(value))
      return this.passedTo(parent, value, reach, hops);
    // `module.exports = async function (...) {...}`, `exports.confirm = ...`: what the requiring modules do with it.
    const required = moduleExportOf(value) ? this.requiredUses(parent) : [];
    if (required.length > 0) return void required.forEach(use => this.classify(use, reach, hops + 1));
    const holder = holderName(value);
    if (holder) {
      const lifecycle = lifecycleOf(value);
      if (lifecycle) return void reach.others.push({ kind: 'lifecycle', detail: `in ${lifecycle}`, at: value, outside: true });
      // A callback the SDK keeps for a request of its own (a ResourceTemplate's `list` or `complete`), as completable()'s below.
      const fn = unwrap(value);
      const sdkCallback = isFunctionLike(fn) ? sdkCallbackOf(fn) : undefined;
      if (sdkCallback) return void reach.others.push({ kind: 'other-request', detail: sdkCallback, at: value, outside: true });
      const held = this.usesOfName(holder, parent);
      for (const use of held) this.classify(use, reach, hops + 1);
      if (held.length === 0 && this.mayBeRunUnseen(parent, hops))
        reach.others.push({ kind: 'callback', detail: `stored as ${holder}, where what runs it cannot be followed`, at: value });
      return;
    }
    // `export default async (...) => {...}`: what the modules importing it do with it.
    if (Node.isExportAssignment(parent))
      return void this.defaultImports(parent, new Set()).forEach(use => this.classify(use, reach, hops + 1));
    if (Node.isExportSpecifier(parent) || onlyTested(value)) return;
    // Returned by a factory (`return (cap) => ...`): whatever calls the factory holds it.
    const factory = returnedBy(value);
    if (factory) {
      for (const use of this.valueUses(factory)) {
        const call = outerValue(use).getParent();
        if (call && Node.isCallExpression(call) && call.getExpression() === outerValue(use)) this.classify(call, reach, hops + 1);
      }
      return;
    }
    reach.others.push({ kind: 'callback', detail: `passed on as a value (${oneLine(parent.getText())})`, at: value });
  }

  /**
   * The uses, in the modules that require it, of what a CommonJS module exports by `assignment`: under the name
   * `exports.name` gives it, or any name a module's single export is required by (`const confirm = require('./confirm')`).
   */
  private requiredUses(assignment: Node): Node[] {
    const left = Node.isBinaryExpression(assignment) ? assignment.getLeft() : undefined;
    if (!left) return [];
    if (Node.isPropertyAccessExpression(left) && left.getText() !== 'module.exports') return this.usesOfName(left.getName(), assignment);
    const uses: Node[] = [];
    for (const file of this.files) {
      if (file === assignment.getSourceFile() || !file.getFullText().includes('require(')) continue;
      for (const declaration of file.getVariableDeclarations()) {
        const name = declaration.getNameNode();
        const init = declaration.getInitializer();
        if (
          Node.isIdentifier(name) &&
          init &&
          Node.isCallExpression(init) &&
          init.getExpression().getText() === 'require' &&
          refersTo(name, assignment)
        )
          uses.push(...this.usesOfName(name.getText(), assignment));
      }
    }
    return uses;
  }

  /**
   * Whether what holds a function none of the project's code reads may be read where it cannot be seen: not a
   * variable (unused, or exported: the project's own code never runs it), nor an entry of an object that is
   * itself only exported or unused; but a field, or an entry of an object handed to a package.
   */
  private mayBeRunUnseen(holder: Node, hops: number): boolean {
    if (Node.isVariableDeclaration(holder)) return false;
    const object = holder.getParent();
    if (
      (Node.isPropertyAssignment(holder) || Node.isShorthandPropertyAssignment(holder)) &&
      object &&
      Node.isObjectLiteralExpression(object)
    ) {
      const around: Reach = { handlers: [], others: [] };
      this.classify(object, around, hops + 1);
      return around.handlers.length > 0 || around.others.length > 0;
    }
    return true;
  }

  /** A call of the function being followed, kept as one (functionCalledAt). */
  private followed(call: CallExpression): CallExpression {
    if (this.following) this.callsFollowed.set(call, this.following);
    return call;
  }

  /** A call that runs the function: whatever runs the function it is written in runs it. */
  private calledAt(call: Node, reach: Reach): void {
    this.current.called = true;
    const caller = enclosingFunction(call);
    if (!caller) return void reach.others.push({ ...describeNonHandler(undefined, call), at: call, outside: true, reached: true });
    const from = this.of(caller);
    // What runs the caller outside a request runs it through this call: the place to mark, nearest to that context.
    merge(reach, { handlers: from.handlers, others: from.others.map(o => (o.reached ? o : { ...o, at: call, reached: true })) });
  }

  /** The function handed to a call: registered, run by it, or handed on by a function of the project. */
  private passedTo(call: CallExpression | import('ts-morph').NewExpression, value: Node, reach: Reach, hops: number): void {
    if (Node.isCallExpression(call)) {
      const registered = registrationTaking(call, value);
      if (registered) {
        if ('method' in registered) {
          addHandler(reach, registered);
          this.current.registered = true;
        } else reach.others.push({ ...registered, at: call, outside: registered.kind !== 'wrapped' });
        return;
      }
    }
    const callee = unwrap(call.getExpression());
    const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
    if (DEFERRING.has(name) || routeOf(call))
      return void reach.others.push({
        kind: 'callback',
        detail: `in a callback passed to ${name}(), which runs it later, not while a handler runs`,
        at: call,
        outside: true,
      });
    // The SDK's own function (`completable(schema, complete)`): it keeps the callback for a request of its own.
    const fn = unwrap(value);
    if (mcpImportOf(callee) && isFunctionLike(fn)) return void reach.others.push({ ...describeNonHandler(fn), at: call, outside: true });
    const index = (call.getArguments() as Node[]).indexOf(value);
    const handedTo = Node.isCallExpression(call) ? calleesOf(call.getExpression()) : [];
    if (handedTo.length === 0) return this.calledAt(call, reach); // a package's function: it runs the callback while it runs
    for (const fn of handedTo) {
      const param = fn.getParameters()[index];
      if (!param || param.isRestParameter() || !Node.isIdentifier(param.getNameNode())) {
        this.calledAt(call, reach);
        continue;
      }
      for (const use of parameterUses(param, fn)) this.handedOn(use, fn, call, reach, hops);
    }
  }

  /** A use, inside `fn`, of the parameter a callback was handed to `fn` as, by `call`. */
  private handedOn(use: Node, fn: FunctionLike, call: CallExpression | import('ts-morph').NewExpression, reach: Reach, hops: number): void {
    const value = outerValue(use);
    const parent = value.getParent();
    const calledHere = parent && Node.isCallExpression(parent) && parent.getExpression() === value;
    if (!calledHere) return this.classify(use, reach, hops + 1);
    const runner = enclosingFunction(parent);
    // `fn` runs it: it runs while `call` does.
    if (runner === fn) return this.calledAt(call, reach);
    // A function written in `fn` runs it (`return async (...a) => cb(...a)`): what runs that function runs it.
    if (runner && isReturnedFrom(runner, fn)) return this.classify(call, reach, hops + 1);
    if (runner) merge(reach, this.of(runner));
  }

  /**
   * The expressions that stand for `fn`: where it is written, or the uses of the name it is declared or
   * stored by; for an entry of a table, also the table's entries read by a computed key (`tools[name]`).
   */
  private valueUses(fn: FunctionLike): Node[] {
    if (Node.isFunctionDeclaration(fn)) {
      const name = fn.getName();
      // `export default async function (...)`: its uses are those of the names its default imports give it.
      return name ? this.usesOfName(name, fn) : isDefaultExport(fn) ? this.defaultImports(fn, new Set()) : [];
    }
    if (Node.isMethodDeclaration(fn)) return [...this.usesOfName(fn.getName(), fn), ...this.computedReads(fn)];
    return [outerValue(fn), ...this.computedReads(fn)];
  }

  /** The reads of any entry of the object literal `fn` is an entry of, by a key computed when it runs. */
  private computedReads(fn: FunctionLike): Node[] {
    const member = Node.isMethodDeclaration(fn) ? fn : outerValue(fn).getParent();
    const table = member && (Node.isMethodDeclaration(member) || Node.isPropertyAssignment(member)) ? member.getParent() : undefined;
    const holder = table && Node.isObjectLiteralExpression(table) ? outerValue(table).getParent() : undefined;
    if (!holder || !Node.isVariableDeclaration(holder) || !Node.isIdentifier(holder.getNameNode())) return [];
    return this.usesOfName(holder.getName(), holder)
      .map(use => use.getParent())
      .filter(
        (read): read is Node =>
          read !== undefined && Node.isElementAccessExpression(read) && literalString(read.getArgumentExpression()) === undefined,
      );
  }

  /**
   * The identifiers in the project that resolve to `target` (a function, or where one is stored): named `name`,
   * or any name an import or export gives it (`import { ask as askIt }`, a default import, `ns.default`).
   */
  private usesOfName(name: string, target: Node, seen = new Set<string>()): Node[] {
    if (seen.has(name)) return [];
    seen.add(name);
    const stored = storedFunction(target);
    const uses: Node[] = [];
    for (const { file, pos } of this.namesIndex().get(name) ?? []) {
      const id = file.getDescendantAtPos(pos);
      if (!id || !Node.isIdentifier(id) || id === nameNodeOf(target)) continue;
      const parent = id.getParent();
      if (parent && (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent))) {
        const alias = parent.getAliasNode();
        if (alias && alias !== id && refersTo(alias, target)) uses.push(...this.usesOfName(alias.getText(), target, seen));
        continue;
      }
      if (parent && Node.isImportClause(parent)) continue;
      const access = parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id ? parent : undefined;
      if (declaresName(id)) continue;
      // (`{ confirm }` puts the function in an object: its value is the function, whatever the property is typed)
      const shorthand = parent !== undefined && Node.isShorthandPropertyAssignment(parent);
      // A shorthand property's uses may name the property (`ui.confirm(...)`) or the function it holds (required).
      const runs =
        stored && !shorthand
          ? calleesOf(access ?? id).includes(stored) || (Node.isShorthandPropertyAssignment(target) && refersTo(access ?? id, target))
          : refersTo(access ?? id, target);
      if (runs) uses.push(access ?? id);
    }
    if (name !== 'default' && isDefaultExport(target))
      uses.push(...this.usesOfName('default', target, seen), ...this.defaultImports(target, seen));
    return uses;
  }

  /** The uses of `target`, a module's default export, under the names its default imports give it. */
  private defaultImports(target: Node, seen: Set<string>): Node[] {
    const uses: Node[] = [];
    for (const file of this.files) {
      for (const declaration of file.getImportDeclarations()) {
        const local = declaration.getDefaultImport();
        if (local && refersTo(local, target)) uses.push(...this.usesOfName(local.getText(), target, seen));
      }
    }
    return uses;
  }

  /** Per name, where the project's files write it (one walk of each file's syntax, on first use). */
  private namesIndex(): Map<string, { file: SourceFile; pos: number }[]> {
    if (this.index) return this.index;
    const index = new Map<string, { file: SourceFile; pos: number }[]>();
    for (const file of this.files) {
      if (file.isDeclarationFile() || file.isInNodeModules()) continue;
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node)) {
          const list = index.get(node.text);
          const at = { file, pos: node.getStart(file.compilerNode) };
          if (list) list.push(at);
          else index.set(node.text, [at]);
        }
        ts.forEachChild(node, visit);
      };
      visit(file.compilerNode);
    }
    this.index = index;
    return index;
  }
}

function merge(into: Reach, from: Reach): void {
  for (const h of from.handlers) addHandler(into, h);
  for (const o of from.others) if (!into.others.some(x => x.detail === o.detail && x.at === o.at)) into.others.push(o);
}

function addHandler(reach: Reach, handler: HandlerReached): void {
  if (!reach.handlers.some(h => h.registration === handler.registration)) reach.handlers.push(handler);
}

/** The expression a use stands in: through parentheses, casts, `!` and `.bind(...)`. */
function outerValue(node: Node): Node {
  let value = node;
  for (;;) {
    const parent = value.getParent();
    if (!parent) return value;
    if (
      Node.isParenthesizedExpression(parent) ||
      Node.isAsExpression(parent) ||
      Node.isSatisfiesExpression(parent) ||
      Node.isNonNullExpression(parent) ||
      Node.isTypeAssertion(parent)
    ) {
      value = parent;
      continue;
    }
    // `this.ask.bind(this)`: the bound function stands for it.
    if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === value && parent.getName() === 'bind') {
      const call = parent.getParent();
      if (call && Node.isCallExpression(call) && call.getExpression() === parent) {
        value = call;
        continue;
      }
    }
    return value;
  }
}

/** The function that returns `value` (`return value`, or the body of an arrow). */
function returnedBy(value: Node): FunctionLike | undefined {
  const parent = value.getParent();
  if (parent && Node.isReturnStatement(parent)) return enclosingFunction(parent);
  return parent && Node.isArrowFunction(parent) && parent.getBody() === value ? parent : undefined;
}

/** A use that only tests the value (`!tool`, `typeof f`, `f === undefined`, `if (f)`, `f ? a : b`): it runs nothing. */
function onlyTested(value: Node): boolean {
  const parent = value.getParent();
  if (!parent) return false;
  if (Node.isPrefixUnaryExpression(parent)) return parent.getOperatorToken() === SyntaxKind.ExclamationToken;
  if (Node.isTypeOfExpression(parent)) return true;
  if (Node.isBinaryExpression(parent)) return ['===', '!==', '==', '!='].includes(parent.getOperatorToken().getText());
  if (Node.isIfStatement(parent)) return parent.getExpression() === value;
  if (Node.isConditionalExpression(parent)) return parent.getCondition() === value;
  return false;
}

/** The name a value is stored under (`const ask = ...`, `{ ask: ... }`, `ask = ...` as a class field or an assignment). */
function holderName(value: Node): string | undefined {
  const parent = value.getParent();
  if (!parent) return undefined;
  if (
    (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent)) &&
    parent.getInitializer() === value
  ) {
    const name = parent.getNameNode();
    return Node.isIdentifier(name) || Node.isStringLiteral(name) ? (literalString(name) ?? name.getText()) : undefined;
  }
  if (Node.isShorthandPropertyAssignment(parent)) return parent.getName();
  if (Node.isBinaryExpression(parent) && parent.getRight() === value && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
    const left = unwrap(parent.getLeft());
    return Node.isPropertyAccessExpression(left) ? left.getName() : Node.isIdentifier(left) ? left.getText() : undefined;
  }
  return undefined;
}

/** `server.server.oninitialized = fn` and the other lifecycle callbacks an SDK server runs outside any request. */
function lifecycleOf(value: Node): string | undefined {
  const parent = value.getParent();
  if (!parent || !Node.isBinaryExpression(parent)) return undefined;
  const left = unwrap(parent.getLeft());
  return Node.isPropertyAccessExpression(left) && /^(oninitialized|onclose|onerror)$/.test(left.getName()) ? left.getText() : undefined;
}

/**
 * The function stored where `target` names it (its declaration's initializer, or the function a shorthand property
 * names: `module.exports = { confirm }`), when `target` is a declaration storing one.
 */
function storedFunction(target: Node): FunctionLike | undefined {
  if (isFunctionLike(target)) return target;
  if (Node.isShorthandPropertyAssignment(target)) {
    const named = target.getValueSymbol()?.getDeclarations()[0];
    return named && isFunctionLike(named) ? named : storedFunction(named ?? target.getNameNode());
  }
  const init =
    (Node.isVariableDeclaration(target) || Node.isPropertyAssignment(target) || Node.isPropertyDeclaration(target)) &&
    target.getInitializer();
  const fn = init ? unwrap(init) : undefined;
  return isFunctionLike(fn) ? fn : undefined;
}

function nameNodeOf(target: Node): Node | undefined {
  // `exports.pick = ...`: the export's own target names it, and is no use of it.
  if (isModuleExportsAssignment(target)) {
    const left = unwrap(target.getLeft());
    return Node.isPropertyAccessExpression(left) ? left.getNameNode() : undefined;
  }
  return Node.isFunctionDeclaration(target) ||
    Node.isMethodDeclaration(target) ||
    Node.isVariableDeclaration(target) ||
    Node.isPropertyAssignment(target) ||
    Node.isPropertyDeclaration(target)
    ? target.getNameNode()
    : undefined;
}

/** Whether an identifier (or a property access) names the declaration `target`, through imports. */
function refersTo(node: Node, target: Node): boolean {
  const id = Node.isPropertyAccessExpression(node) ? node.getNameNode() : node;
  const parent = id.getParent();
  // `{ name }`: the name's own symbol is the property's; the value it reads is the variable's.
  const symbol = parent && Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
  const declarations = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
  return declarations.some(d => d === target || d.getParent() === target);
}

/** A value a CommonJS module exports (`module.exports = value`, `exports.name = value`). */
function moduleExportOf(value: Node): boolean {
  const parent = value.getParent();
  return parent !== undefined && isModuleExportsAssignment(parent) && parent.getRight() === value;
}

/** `target` is its module's default export (`export default function f`, `export default f`). */
function isDefaultExport(target: Node): boolean {
  const symbol = target.getSourceFile().getDefaultExportSymbol();
  const declarations = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
  return declarations.some(d => d === target || d.getParent() === target);
}

/** An identifier that declares a name rather than uses one. */
function declaresName(id: Node): boolean {
  const parent = id.getParent();
  if (!parent) return false;
  return (
    (Node.isVariableDeclaration(parent) ||
      Node.isFunctionDeclaration(parent) ||
      Node.isParameterDeclaration(parent) ||
      Node.isMethodDeclaration(parent) ||
      Node.isPropertyDeclaration(parent) ||
      Node.isPropertyAssignment(parent) ||
      Node.isBindingElement(parent) ||
      Node.isClassDeclaration(parent)) &&
    (parent as { getNameNode(): Node }).getNameNode() === id
  );
}

/** The identifiers naming a parameter in its function (by symbol: a shadowing local is another name). */
function parameterUses(param: ParameterDeclaration, fn: FunctionLike): Node[] {
  const nameNode = param.getNameNode();
  const symbol = nameNode.getSymbol();
  const name = nameNode.getText();
  return descendantsOfKind(fn, SyntaxKind.Identifier).filter(id => id !== nameNode && id.getText() === name && id.getSymbol() === symbol);
}

/** Whether `inner` is what `outer` returns (`return async (...a) => ...`, or the body of an arrow). */
function isReturnedFrom(inner: FunctionLike, outer: FunctionLike): boolean {
  const value = outerValue(inner);
  const parent = value.getParent();
  if (parent && Node.isReturnStatement(parent)) return enclosingFunction(parent) === outer;
  return parent === outer && Node.isArrowFunction(outer);
}

/**
 * What a registration call does with a function handed to it as `value`: registers it as the handler of a
 * tools/call, prompts/get or resources/read (migrated), or of something else (said). Undefined for any other call.
 */
function registrationTaking(call: CallExpression, value: Node): HandlerReached | NonHandler | undefined {
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const name = callee.getName();
  const target = callee.getExpression();
  const args = call.getArguments();
  if (name in REGISTRATION_METHODS && args.at(-1) === value && serverKindOf(target) === 'McpServer') {
    if (receiverOverrides(target, name))
      return {
        kind: 'wrapped',
        detail: `in a callback passed to ${name}() on an instance of a class that declares ${name}() of its own`,
        fate: `that ${name}() is not the SDK's registration and decides what the callback gets, so it is not migrated as a handler; migrate by hand`,
      };
    const method = REGISTRATION_METHODS[name]!;
    return { registration: call, method, label: `${method} ${literalString(args[0]) ?? args[0]?.getText() ?? ''}` };
  }
  if (name === 'setRequestHandler' && args[1] === value && serverKindOf(target)) {
    const method = requestMethodOf(args[0]);
    if (method && RESUMABLE.has(method))
      return { registration: call, method: method as HandlerMethod, label: `${method} (setRequestHandler)` };
    return {
      kind: 'other-request',
      detail: `in the ${args[0]?.getText() ?? 'request'} handler, which is not tools/call, prompts/get or resources/read`,
    };
  }
  if (name === 'setNotificationHandler' && serverKindOf(target)) return { kind: 'notification', detail: 'in a notification handler' };
  if (/^(tool|prompt|resource)$/.test(name) && args.at(-1) === value && serverKindOf(target) === 'McpServer') {
    // SDK 1.x's own registrations, as the editor sees a file before its upgrade: what the upgrade makes registerTool(...).
    if (importsSdk1(call.getSourceFile()))
      return {
        registration: call,
        method: LEGACY_REGISTRATIONS[name]!,
        label: `${LEGACY_REGISTRATIONS[name]} ${literalString(args[0]) ?? args[0]?.getText() ?? ''}`,
      };
    const register = `register${name[0]!.toUpperCase()}${name.slice(1)}(...)`;
    // A file that names nothing of the SDK (it registers on a server imported from another module, or held by a
    // base class) is not read by the upgrade, as the official codemod reads only files importing SDK 1.x.
    if (!MCP_TEXT.test(call.getSourceFile().getFullText()))
      return {
        kind: 'wrapped',
        detail: `in a callback passed to ${name}(), which SDK 2.x's McpServer does not have; this file imports nothing of the SDK (the server it registers on is declared in another module), so the v1-to-v2 upgrade, which reads only files importing SDK 1.x, left the call as it was`,
        fate: `import the SDK's McpServer type in this file (import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js') and run again, or write the call as ${register} and run again`,
      };
    return {
      kind: 'wrapped',
      detail: `in a callback passed to ${name}(), which SDK 2.x's McpServer does not have (the official codemod left it, marked)`,
      fate: `write it as ${register} and run again`,
    };
  }
  return undefined;
}

/** The request method a setRequestHandler call names: a method string (2.x) or a request schema (1.x). */
function requestMethodOf(first: Node | undefined): string | undefined {
  if (!first) return undefined;
  const literal = literalString(first);
  if (literal) return literal;
  const imported = mcpImportOf(unwrap(first));
  return imported ? (REQUEST_SCHEMAS[imported.exportName] ?? imported.exportName) : undefined;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

export { isProjectFunction };

/** The file imports SDK 1.x (`@modelcontextprotocol/sdk/...`): it has not been upgraded yet. */
function importsSdk1(sf: SourceFile): boolean {
  return sf.getImportDeclarations().some(d => /^@modelcontextprotocol\/sdk(\/|$)/.test(d.getModuleSpecifierValue()));
}
