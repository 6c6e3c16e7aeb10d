/**
 * What a call does, for replay: the kind of a function of the standard library, Node, a package or the
 * SDK (src/effects/builtins.ts), or for a function of the project, a summary of its body worked out once
 * (src/effects/walk.ts): whether it does something outside itself, only on each round, or only to the
 * objects it is handed (its parameters, `this`), which is an effect where those objects outlive the round.
 */
import path from 'node:path';
import {
  ModuleDeclarationKind,
  Node,
  SyntaxKind,
  type CallExpression,
  type ClassDeclaration,
  type ModuleDeclaration,
  type NewExpression,
  type TaggedTemplateExpression,
} from 'ts-morph';
import { calleesOf } from '../find/callees.js';
import { stateModuleCall } from '../find/stateCalls.js';
import { isDefaultLib, isNodeTypes, isStandardLibrary, unwrap } from '../analysis/mcpSymbols.js';
import type { FunctionLike } from '../analysis/functions.js';
import { builtinGlobalKind, builtinMethodKind, nodeModuleKind, packageKind, sdkKind, type CallKind } from './builtins.js';

export type Invocation = CallExpression | NewExpression | TaggedTemplateExpression;

/** What a function of the project does when it runs, from its body. */
export interface Summary {
  /** It does something outside itself that a second run would do again (an API call, a write, a counter). */
  effect: boolean;
  /** It does something on each run that may be done again (a log line, a timer set again). */
  perRound: boolean;
  /**
   * The parameters (by index) whose objects it changes, and how: an effect where the caller's object
   * outlives the round and the change repeats.
   */
  mutatesParams: Map<number, Change>;
  /**
   * Whether it changes its own object, and how: `this`, or a variable of a function it is written in (the
   * state of an object a factory makes, `makeCart()`'s `items`). An effect where the object it is called
   * on (the function itself, for a plain call) outlives the round and the change repeats.
   */
  mutatesOwn: Change | false;
  /**
   * The objects outliving the round it changes, itself or through what it calls, in either way (`x = v` as
   * well as `x++`), by what they are rooted in (see walk.ts `rootKey`): a caller's read of one of them before
   * the call and a later question sees the change on the next round.
   */
  changed: ReadonlySet<Node>;
  /**
   * The objects outliving the round it reads, itself or through what it calls, rooted as `changed` is: a call of it
   * before a change of one of them and a later question would read the change on the next round.
   */
  read: ReadonlySet<Node>;
  /** The parameters (by index) whose objects it reads: the caller's objects, read through the call. */
  readsParams: ReadonlySet<number>;
  /** Whether it reads its own object (`this`, or a variable of a function it is written in). */
  readsOwn: boolean;
}

/**
 * `repeats`: done again, it changes the object again (`count++`, `list.push(x)`); `sets`: done again, it leaves
 * the object as the first time left it (`this.server = server`, `cache.set(k, v)`).
 */
export type Change = 'repeats' | 'sets';

export const PURE: Summary = {
  effect: false,
  perRound: false,
  mutatesParams: new Map(),
  mutatesOwn: false,
  changed: new Set(),
  read: new Set(),
  readsParams: new Set(),
  readsOwn: false,
};

/** What a call of the requestState module's own functions is: already migrated code. */
export type StateCall = 'journaled' | 'ask' | 'other';

export type CallClass = { kind: CallKind } | { summaries: Summary[] } | { state: StateCall };

/** Classes whose construction does something outside the call. */
const EFFECTFUL_CLASSES = new Set(['WebSocket', 'Worker', 'EventSource', 'SharedWorker', 'BroadcastChannel']);

/** What the project's functions and constructions do, worked out once each (the walker, src/effects/walk.ts). */
export interface Summaries {
  summary(fn: FunctionLike): Summary;
  construction(cls: ClassDeclaration): Summary;
}

/** What an invocation does. */
export function classifyCall(call: Invocation, summaries: Summaries): CallClass {
  const callee = Node.isTaggedTemplateExpression(call) ? call.getTag() : call.getExpression();
  const state = Node.isTaggedTemplateExpression(call) || Node.isNewExpression(call) ? undefined : stateModuleCall(call);
  if (state) return { state: state === 'journaled' || state === 'ask' ? state : 'other' };
  if (Node.isNewExpression(call)) return constructed(call, summaries);
  // `import('./x.js')`: a module is loaded once per process and cached, so loading it again on a later round
  // does nothing more; the module object holds functions, which could not travel in requestState anyway.
  if (callee.getKind() === SyntaxKind.ImportKeyword) return { kind: 'pure' };
  const project = calleesOf(callee);
  if (project.length > 0) return { summaries: project.map(fn => summaries.summary(fn)) };
  const invoked = invokedThrough(callee, summaries);
  if (invoked) return invoked;
  if (settlesPromise(callee)) return { kind: 'pure' };
  return { kind: libraryInvokedThrough(callee) ?? libraryKind(callee) };
}

/**
 * `fn.call(thisArg, ...args)` and `fn.apply(thisArg, args)` of a project function: a call of it. Through `.call`,
 * its arguments stand one place further on; through `.apply`, which is which is not seen, so a change to one of
 * them is taken for an effect.
 */
function invokedThrough(callee: Node, summaries: Summaries): CallClass | undefined {
  const e = unwrap(callee);
  if (!Node.isPropertyAccessExpression(e) || (e.getName() !== 'call' && e.getName() !== 'apply')) return undefined;
  const fns = calleesOf(e.getExpression());
  if (fns.length === 0) return undefined;
  const byCall = e.getName() === 'call';
  return {
    summaries: fns.map(fn => {
      const summary = summaries.summary(fn);
      if (summary.mutatesParams.size === 0) return summary;
      if (!byCall) return { ...summary, effect: true };
      return { ...summary, mutatesParams: new Map([...summary.mutatesParams].map(([i, change]) => [i + 1, change])) };
    }),
  };
}

/** The standard library's interfaces declaring `call` and `apply`. */
const FUNCTION_INTERFACES: ReadonlySet<string> = new Set(['Function', 'CallableFunction', 'NewableFunction']);

/**
 * `Array.prototype.push.apply(list, items)`, `fetch.call(null, url)`: a function of a library run through the
 * standard library's `.call` or `.apply` does what it does called directly, to its first argument where it changes
 * what it is called on. `Object.assign.call(null, target, source)` changes its second: taken for an effect.
 */
function libraryInvokedThrough(callee: Node): CallKind | undefined {
  const e = unwrap(callee);
  if (!Node.isPropertyAccessExpression(e) || (e.getName() !== 'call' && e.getName() !== 'apply')) return undefined;
  const decl = e.getNameNode().getSymbol()?.getDeclarations()[0];
  const container = decl && containerOf(decl);
  if (!container || !FUNCTION_INTERFACES.has(container) || !isDefaultLib(decl.getSourceFile().getFilePath())) return undefined;
  const kind = libraryKind(e.getExpression());
  if (kind === 'mutates-receiver') return 'mutates-first-argument';
  if (kind === 'sets-receiver') return 'sets-first-argument';
  return kind === 'sets-first-argument' || kind === 'mutates-first-argument' ? 'effect' : kind;
}

/** The combinators whose elements all start before any is awaited. */
const PROMISE_COMBINATORS: ReadonlySet<string> = new Set(['all', 'allSettled', 'race', 'any']);

/** `Promise.all(...)`, `Promise.allSettled(...)`, `Promise.race(...)` or `Promise.any(...)`. */
export function isPromiseCombinator(call: Node): call is CallExpression {
  if (!Node.isCallExpression(call)) return false;
  const callee = unwrap(call.getExpression());
  return (
    Node.isPropertyAccessExpression(callee) && callee.getExpression().getText() === 'Promise' && PROMISE_COMBINATORS.has(callee.getName())
  );
}

/** `resolve(...)` or `reject(...)` of a `new Promise((resolve, reject) => ...)`: settling the promise being made. */
export function settlesPromise(callee: Node): boolean {
  const e = unwrap(callee);
  const decl = Node.isIdentifier(e) ? e.getSymbol()?.getDeclarations()[0] : undefined;
  if (!decl || !Node.isParameterDeclaration(decl)) return false;
  const executor = decl.getParent();
  const made = executor?.getParent();
  return made !== undefined && Node.isNewExpression(made) && unwrap(made.getExpression()).getText() === 'Promise';
}

function constructed(call: NewExpression, summaries: Summaries): CallClass {
  const name = unwrap(call.getExpression()).getText();
  if (name === 'Date' && call.getArguments().length === 0) return { kind: 'effect' };
  if (EFFECTFUL_CLASSES.has(name)) return { kind: 'effect' };
  const cls = projectClassMade(call);
  if (cls) return { summaries: [summaries.construction(cls)] };
  // A package's or the standard library's class: making an object (a client, a builder) does nothing outside it.
  return { kind: 'pure' };
}

/** The project's own class a construction makes, where it is one (not a package's, nor a declaration's). */
export function projectClassMade(call: NewExpression): ClassDeclaration | undefined {
  const symbol = call.getExpression().getSymbol();
  const cls = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations().find(d => Node.isClassDeclaration(d));
  return cls && Node.isClassDeclaration(cls) && !cls.getSourceFile().isInNodeModules() && !cls.getSourceFile().isDeclarationFile()
    ? cls
    : undefined;
}

/** What a function of the standard library, Node, the SDK or a package does, from where it is declared. */
export function libraryKind(callee: Node): CallKind {
  const e = unwrap(callee);
  const nameNode = Node.isPropertyAccessExpression(e) ? e.getNameNode() : Node.isIdentifier(e) ? e : undefined;
  if (!nameNode) return 'effect';
  const name = nameNode.getText();
  const symbol = nameNode.getSymbol();
  const declarations = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
  const decl = declarations[0];
  if (!decl) return Node.isIdentifier(e) ? (builtinGlobalKind(name) ?? 'effect') : 'effect';
  const file = decl.getSourceFile().getFilePath();
  const container = containerOf(decl);
  if (container) {
    const kind = builtinMethodKind(container, name);
    if (kind && isStandardLibrary(file)) return kind;
  }
  if (isDefaultLib(file)) return builtinGlobalKind(name) ?? (container ? 'pure' : 'effect');
  const module = nodeModuleOf(decl);
  if (module) return nodeModuleKind(module, name, container) ?? 'effect';
  if (isNodeTypes(file)) return builtinGlobalKind(name) ?? 'effect';
  const pkg = packageOf(file);
  if (pkg?.startsWith('@modelcontextprotocol/')) return sdkKind(name);
  return pkg ? packageKind(pkg) : 'effect';
}

/** The interface or class a method is declared in (`Array`, `Map`, `Console`). */
function containerOf(decl: Node): string | undefined {
  const parent = decl.getParent();
  if (parent && (Node.isInterfaceDeclaration(parent) || Node.isClassDeclaration(parent))) return parent.getName();
  return undefined;
}

/**
 * The Node module (`fs`, `node:path`) whose `declare module` holds a declaration of @types/node; none for a
 * declaration in a `global` block (`setTimeout`, `fetch`, written inside `declare module "timers"`), which
 * declares a global, read as one.
 */
function nodeModuleOf(decl: Node): string | undefined {
  if (!isNodeTypes(decl.getSourceFile().getFilePath())) return undefined;
  const modules = decl.getAncestors().filter((a): a is ModuleDeclaration => Node.isModuleDeclaration(a));
  if (modules.length === 0 || modules.some(m => m.getDeclarationKind() === ModuleDeclarationKind.Global)) return undefined;
  return modules[0]!.getName().replace(/^['"]|['"]$/g, '');
}

/** The package a declaration file belongs to (`@types/x` read as `x`). */
function packageOf(file: string): string | undefined {
  const parts = file.split(path.sep).join('/').split('/node_modules/');
  if (parts.length < 2) return undefined;
  const rest = parts[parts.length - 1]!.split('/');
  const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  return name.startsWith('@types/') ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : name;
}
