/**
 * The effects in a function's body: calls and changes that do something a second run would do again.
 *
 * A change is an effect when what it changes outlives the round: a module-level variable, a closure's,
 * `this`, or an object read from one of them. A handler's own locals and arguments are made again on each
 * round, so changing them is not. A helper's parameters belong to its caller: its summary says which it
 * changes, and the call is an effect where the caller's object outlives the round.
 */
import {
  Node,
  SyntaxKind,
  type CallExpression,
  type ClassDeclaration,
  type Expression,
  type ParameterDeclaration,
  type GetAccessorDeclaration,
  type PropertyAccessExpression,
  type ts,
  type VariableDeclaration,
} from 'ts-morph';
import { calleesOf, isFunctionLike, isProjectFunction } from '../find/callees.js';
import type { FunctionLike } from '../analysis/functions.js';
import { unwrap } from '../analysis/mcpSymbols.js';
import {
  classifyCall,
  isPromiseCombinator,
  PURE,
  settlesPromise,
  type CallClass,
  type Change,
  type Invocation,
  type Summary,
} from './calls.js';
import { TIMERS } from './builtins.js';

/** A walk's result as what a function does for its callers. */
function summaryOf(walked: WalkResult): Summary {
  return {
    effect: walked.effect || walked.effects.length > 0,
    perRound: walked.perRound,
    mutatesParams: walked.mutatesParams,
    mutatesOwn: walked.mutatesOwn,
    changed: new Set(walked.changes.map(c => c.key)),
    read: new Set(walked.reads.map(r => r.key)),
    readsParams: walked.readsParams,
    readsOwn: walked.readsOwn,
  };
}

/**
 * What a walk runs in: a function, or a class whose field initializers run as it is made (with no constructor of
 * its own, it takes no parameters).
 */
type Scope = FunctionLike | ClassDeclaration;

function parametersOf(scope: Scope): ParameterDeclaration[] {
  return Node.isClassDeclaration(scope) ? [] : scope.getParameters();
}

/** What runs when a function is called: its parameters' defaults (`id = randomUUID()`, run on each call), then its body. */
function bodyOf(scope: Scope): Node[] {
  const body = Node.isClassDeclaration(scope) ? undefined : scope.getBody();
  return [...parametersOf(scope), ...(body ? [body] : [])];
}

/**
 * What runs a function: a call, a construction, a tagged template, an access running an accessor, or a
 * destructuring running a getter.
 */
type Run = Invocation | PropertyAccessExpression | VariableDeclaration;

/** An accessor's name as written in source text (`get next(`, `static set #current (`). */
const ACCESSOR_NAME = /\b[gs]et\s+(#?[\w$]+)\s*\(/g;

/**
 * The names of the accessors the project's own files may declare, from their text: a superset (a `get x(` in a
 * comment counts), so that the checker is asked only of the accesses that may run one. Every file of the program
 * is read, those the run was not given too (a class in a module with nothing of MCP in it).
 */
function accessorNamesOf(files: readonly ts.SourceFile[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const sf of files) {
    if (sf.isDeclarationFile || /[\\/]node_modules[\\/]/.test(sf.fileName)) continue;
    for (const m of sf.text.matchAll(ACCESSOR_NAME)) names.add(m[1]!);
  }
  return names;
}

/** An expression whose work must be done once: journaled where it runs before a question. */
export interface EffectPoint {
  node: Node;
  /**
   * Work that is not an expression of its own, so that replay cannot journal it: a destructuring that runs a
   * getter (`const { next } = book`), a `for...of` that advances an iterator outliving the round.
   */
  form?: 'destructuring' | 'for-of';
  /** The getters a destructuring runs that do so (`next`). */
  getters?: string[];
}

/**
 * A change (or a read) of an object outliving the round, by what it is rooted in (a declaration, or `this`'s
 * class). A change made by a call (`held.add(seat)`, or what the called function changes) is made once its
 * arguments are evaluated.
 */
export interface Touch {
  node: Node;
  key: Node;
}

/**
 * `plan`: a function a handler runs that asks (its `this` outlives the round, its parameters are the
 * round's); `summary`: a function it calls, whose changes to `this` and its parameters are said, not judged.
 */
type Mode = 'plan' | 'summary';

/**
 * `local`: made in this run of the function; `param`: handed to it; `own`: `this`, or a variable of a
 * function it is written in (what a function made by a factory keeps); `persistent`: anything else (a
 * module's variables, what they hold).
 */
type Locality = 'local' | 'persistent' | 'own' | { param: number };

export interface WalkResult extends Omit<Summary, 'changed' | 'read' | 'readsParams'> {
  readsParams: Set<number>;
  effects: EffectPoint[];
  /** Timers set (`setTimeout(...)`) whose callback does something outside the round: set again on each round. */
  timers: Node[];
  /** Every change of an object outliving the round, an effect or one a second run leaves alike (`x = 1`, `set.add(x)`). */
  changes: Touch[];
  /** The reads of objects outliving the round (`held.has(seat)`, `counter`). */
  reads: Touch[];
}

/** Methods that hand out an element of what they are called on: a change to it changes that. */
export const ELEMENT_READS: ReadonlySet<string> = new Set(['get', 'find', 'findLast', 'at', 'pop', 'shift', 'values']);

export class Walker {
  private readonly summaries = new Map<Node, Summary>();
  /** The names the project declares a get or set accessor of (accessorNamesOf), read once. */
  private accessorNames: ReadonlySet<string> | undefined;

  /** `asking`: functions that ask (walked on their own); `isQuestion`: an invocation that asks. */
  constructor(
    private readonly asking: ReadonlySet<Node>,
    private readonly isQuestion: (node: Node) => boolean,
  ) {}

  /** The effects of a function that asks, walked as a handler runs it. */
  plan(fn: FunctionLike): WalkResult {
    return this.walk(fn, 'plan');
  }

  /** What a function of the project does, worked out once. */
  summary(fn: FunctionLike): Summary {
    const known = this.summaries.get(fn);
    if (known) return known;
    // A recursion adds nothing its own body does not say already.
    this.summaries.set(fn, PURE);
    const summary = summaryOf(this.walk(fn, 'summary'));
    this.summaries.set(fn, summary);
    return summary;
  }

  /**
   * What making an instance of a project class does, worked out once: its base class's construction, its fields'
   * initializers (`readonly id = ++nextId`) and its constructor's body, in the order they run. Each changes the
   * new object only where it changes `this`, which is made anew.
   */
  construction(cls: ClassDeclaration): Summary {
    const known = this.summaries.get(cls);
    if (known) return known;
    this.summaries.set(cls, PURE);
    const base = cls.getBaseClass();
    const parts = base && isProjectFunction(base) ? [this.construction(base)] : [];
    const initializers = cls
      .getInstanceProperties()
      .flatMap(p => (Node.isPropertyDeclaration(p) && p.getInitializer() ? [p.getInitializer()!] : []))
      // A function held in a field runs when it is called, not when the object is made.
      .filter(init => !isFunctionLike(unwrap(init)));
    const ctor = cls.getConstructors().find(c => c.getBody() !== undefined) as FunctionLike | undefined;
    if (initializers.length > 0) parts.push(summaryOf(this.walk(ctor ?? cls, 'summary', initializers)));
    if (ctor) parts.push(this.summary(ctor));
    const summary: Summary = {
      effect: parts.some(p => p.effect),
      perRound: parts.some(p => p.perRound),
      // Only the constructor's own parameters are the call's arguments.
      mutatesParams: ctor ? this.summary(ctor).mutatesParams : new Map(),
      mutatesOwn: false,
      changed: new Set(parts.flatMap(p => [...p.changed])),
      // What making it reads outliving the round (a module's counter its initializers read), not the new object.
      read: new Set(parts.flatMap(p => [...p.read])),
      readsParams: ctor ? this.summary(ctor).readsParams : new Set(),
      readsOwn: false,
    };
    this.summaries.set(cls, summary);
    return summary;
  }

  /** `roots`: what runs, by default the function's body (a class's field initializers run in its construction). */
  private walk(fn: Scope, mode: Mode, roots: readonly Node[] = bodyOf(fn)): WalkResult {
    const out: WalkResult = {
      effect: false,
      perRound: false,
      mutatesParams: new Map(),
      mutatesOwn: false,
      readsParams: new Set(),
      readsOwn: false,
      effects: [],
      timers: [],
      changes: [],
      reads: [],
    };
    const visit = (node: Node): void => {
      if (isFunctionLike(node)) return;
      if (Node.isCallExpression(node) || Node.isNewExpression(node) || Node.isTaggedTemplateExpression(node)) {
        const cls = classifyCall(node, this);
        if ('state' in cls) {
          if (cls.state !== 'journaled') visitChildren(node);
          return;
        }
        // What the call changes is noted however it is judged: a question's helper, or an effect, may change
        // what the function read before it (and a summary passes it on to its callers).
        this.noteChanges(node, cls, fn, out);
        if (mode === 'plan' && this.isQuestion(node)) return visitChildren(node);
        if (this.callIsEffect(node, cls, fn, mode, out)) return void out.effects.push({ node });
        // A library handed an iterator (`Array.from(ids)`, `new Set(ids)`) takes its items; a project's function says so in its summary.
        if (!('summaries' in cls) && this.advancesIteratorArgument(node, fn, mode, out)) return void out.effects.push({ node });
        // A function of the project handed by name (`items.forEach(record)`) runs as part of the call.
        if (this.handedFunctionIsEffect(node, fn, mode, out)) return void out.effects.push({ node: settledTogether(node) });
        // A timer whose callback does something outside the round, its handle unused: set once, on the first round.
        if (mode === 'plan' && this.setsTimerToJournal(node, cls, fn)) return void out.effects.push({ node });
        this.noteCallRead(node, cls, fn, mode, out);
        return visitChildren(node);
      }
      // A read that runs a getter of the project (`tickets.next`) is a call of it.
      if (this.accessorIsEffect(node, 'get', fn, mode, out)) return void out.effects.push({ node });
      // So is what a pattern, a `for...of` or a spread runs; their parts are walked all the same.
      out.effects.push(...this.implicitRuns(node, fn, mode, out));
      const mutation = mutationOf(node, this.isQuestion);
      if (mutation) {
        // So is a write that runs a setter of the project (`settings.theme = t`).
        if (this.accessorIsEffect(unwrap(mutation.target), 'set', fn, mode, out)) return void out.effects.push({ node });
        const where = locality(mutation.target, fn);
        const key = rootKey(mutation.target, where);
        if (key) out.changes.push({ node, key });
        if (this.changes(where, mode, out, mutation.repeats ? 'repeats' : 'sets')) return void out.effects.push({ node });
        // The target is written, not read: only what it is made of is visited.
        return visitTargetParts(mutation.target, node);
      }
      this.noteRead(node, fn, mode, out);
      visitChildren(node);
    };
    /** The parts of an assignment other than its target's root: the value, the indexes, what the target is reached through. */
    const visitTargetParts = (target: Node, assignment: Node): void => {
      assignment.forEachChild(child => {
        if (child !== target) visit(child);
      });
      const e = unwrap(target);
      if (Node.isElementAccessExpression(e)) visit(e.getArgumentExpressionOrThrow());
    };
    const visitChildren = (node: Node): void => {
      node.forEachChild(child => {
        // A callback handed to a call runs as part of it: its body is walked with the function's. A timer's runs
        // later, outside the round: nothing in it can be journaled (the round that set it may be suspended by
        // then); the timer is journaled or noted (setsTimerToJournal). A summary still counts what it does.
        if (isFunctionLike(child) && !this.asking.has(child) && isHandedOver(child)) {
          if (mode === 'plan' && handedToTimer(child)) return;
          const inner = child.getBody();
          if (inner) visit(inner);
          return;
        }
        visit(child);
      });
    };
    roots.forEach(visit);
    return out;
  }

  /**
   * The objects outliving the round a call changes, each recorded as a change at the call: what it is called
   * on or handed (`held.add(seat)`, a helper changing its parameter), and what the function it runs changes
   * of its own accord (a module's variable, however deep in what it calls).
   */
  private noteChanges(call: Run, cls: CallClass, fn: Scope, out: WalkResult): void {
    for (const node of changedBy(call, cls)) {
      const key = rootKey(node, locality(node, fn));
      if (key) out.changes.push({ node: call, key });
    }
    if (!('summaries' in cls)) return;
    for (const summary of cls.summaries) for (const key of summary.changed) out.changes.push({ node: call, key });
  }

  /**
   * A library call that only reads what it is called on, recorded as a read of its root; a call of the project's
   * functions as a read of what they read (`inventory.stockOf(item)`, `countOf(seen, key)`); a timer, noted.
   */
  private noteCallRead(call: Invocation, cls: CallClass, fn: Scope, mode: Mode, out: WalkResult): void {
    if ('summaries' in cls) return this.noteSummaryReads(call, cls.summaries, fn, mode, out);
    if (!('kind' in cls)) return;
    if (mode === 'plan' && cls.kind === 'per-round' && Node.isCallExpression(call) && this.timerDoesSomething(call, fn))
      out.timers.push(call);
    if (cls.kind === 'pure' && changedBy(call, cls).length === 0) this.noteRead(call, fn, mode, out);
  }

  /** What the functions a call may run read, as reads by the call: their objects, its receiver's, its arguments'. */
  private noteSummaryReads(call: Invocation, summaries: readonly Summary[], fn: Scope, mode: Mode, out: WalkResult): void {
    const args = Node.isCallExpression(call) || Node.isNewExpression(call) ? (call.getArguments() as Node[]) : [];
    for (const summary of summaries) {
      for (const key of summary.read) out.reads.push({ node: call, key });
      if (summary.readsOwn) this.noteReadOf(call, receiverOf(call), fn, mode, out);
      for (const i of summary.readsParams) if (args[i]) this.noteReadOf(call, args[i], fn, mode, out);
    }
  }

  /**
   * A timer (`setTimeout(cb, ms)`) whose callback does something outside the round: set again on each round,
   * its callback runs once per round. A sleep's (`setTimeout(resolve, ms)`) or a deadline's (`reject(...)`) does not.
   */
  private timerDoesSomething(call: CallExpression, fn: Scope): boolean {
    const callback = call.getArguments()[0];
    if (!TIMERS.has(calleeName(call)) || !callback) return false;
    const run = unwrap(callback);
    if (settlesPromise(run)) return false;
    const summaries = isFunctionLike(run) ? [this.summary(run)] : calleesOf(run).map(f => this.summary(f));
    // A callback that cannot be followed (a parameter) may do anything.
    if (summaries.length === 0) return true;
    return summaries.some(s => s.effect || s.perRound || [...s.changed].some(key => !within(key, fn)));
  }

  /**
   * A timer (`setTimeout(() => audit.push(x), ms)`) whose callback does something outside the round and whose handle
   * is not kept: journaled, it is set on the first round alone, and its callback runs once, as it did. One whose
   * handle is kept (to clear it) is set again on each round, and noted (noteCallRead).
   */
  private setsTimerToJournal(call: Invocation, cls: CallClass, fn: Scope): boolean {
    return (
      'kind' in cls && cls.kind === 'per-round' && Node.isCallExpression(call) && !valueIsUsed(call) && this.timerDoesSomething(call, fn)
    );
  }

  /** An expression reading an object outliving the round, as a whole (not a part of a longer read, nor a callee). */
  private noteRead(node: Node, fn: Scope, mode: Mode, out: WalkResult): void {
    const isRead =
      Node.isIdentifier(node) ||
      Node.isPropertyAccessExpression(node) ||
      Node.isElementAccessExpression(node) ||
      Node.isCallExpression(node);
    if (!isRead || !wholeRead(node)) return;
    if (Node.isIdentifier(node) && !readsVariable(node) && !readsContents(node)) return;
    if (Node.isCallExpression(node) && !Node.isPropertyAccessExpression(unwrap(node.getExpression()))) return;
    // A method's read (`held.has(seat)`) reads what it is called on.
    this.noteReadOf(node, Node.isCallExpression(node) ? receiverOf(node) : node, fn, mode, out);
  }

  /**
   * A read, at `node`, of the object `read` names: by its root where it outlives the round; in a summary, which of
   * the function's parameters it is, or that it is the function's own object, which its caller reads through what it
   * calls the function on (an instance the handler makes, `tx.move(...)`, is the round's own: keyed by its class,
   * every instance's read would meet every instance's change).
   */
  private noteReadOf(node: Node, read: Node, fn: Scope, mode: Mode, out: WalkResult): void {
    const where = locality(read, fn);
    if (typeof where === 'object') return void out.readsParams.add(where.param);
    if (where === 'own' && mode === 'summary') return void (out.readsOwn = true);
    const key = rootKey(read, where);
    if (key) out.reads.push({ node, key });
  }

  /** Whether `node` runs a get (or set) accessor of the project that does something outside the round, as a call of it would. */
  private accessorIsEffect(node: Node, kind: 'get' | 'set', fn: Scope, mode: Mode, out: WalkResult): boolean {
    const accessor = this.accessorRun(node, kind);
    if (!accessor) return false;
    const cls: CallClass = { summaries: [this.summary(accessor.declaration)] };
    this.noteChanges(accessor.access, cls, fn, out);
    return this.callIsEffect(accessor.access, cls, fn, mode, out);
  }

  /**
   * What a node runs without a call written: a destructuring a getter of the project (`const { next } = tickets`), an
   * array pattern, a `for...of` or a spread an iterator's `next()` (`[...ids]`: the array or the call it is
   * written in does the work).
   */
  private implicitRuns(node: Node, fn: Scope, mode: Mode, out: WalkResult): EffectPoint[] {
    if (Node.isVariableDeclaration(node)) {
      const getters = this.gettersDestructuredWithEffect(node, fn, mode, out);
      const init = node.getInitializer();
      const items = Node.isArrayBindingPattern(node.getNameNode()) && init !== undefined && this.advancesIterator(init, fn, mode, out);
      return [
        ...(getters.length > 0 ? [{ node, form: 'destructuring' as const, getters }] : []),
        ...(items ? [{ node, form: 'destructuring' as const }] : []),
      ];
    }
    if (Node.isForOfStatement(node) && this.advancesIterator(node.getExpression(), fn, mode, out))
      return [{ node: node.getExpression(), form: 'for-of' }];
    if (Node.isSpreadElement(node) && this.advancesIterator(node.getExpression(), fn, mode, out))
      return [{ node: node.getParentOrThrow() }];
    return [];
  }

  /** The names of the project's getters a destructuring runs that do something outside the round. */
  private gettersDestructuredWithEffect(decl: VariableDeclaration, fn: Scope, mode: Mode, out: WalkResult): string[] {
    return this.gettersDestructured(decl).flatMap(getter => {
      const cls: CallClass = { summaries: [this.summary(getter)] };
      this.noteChanges(decl, cls, fn, out);
      return this.callIsEffect(decl, cls, fn, mode, out) ? [getter.getName()] : [];
    });
  }

  /** The project's getters an object pattern names (`next` of `const { next } = tickets`), asked as accessorRun asks. */
  private gettersDestructured(decl: VariableDeclaration): GetAccessorDeclaration[] {
    const pattern = decl.getNameNode();
    const init = decl.getInitializer();
    if (!Node.isObjectBindingPattern(pattern) || !init) return [];
    const names = this.accessorNamesIn(decl);
    const named = pattern
      .getElements()
      .filter(element => !element.getDotDotDotToken())
      .map(element => (element.getPropertyNameNode() ?? element.getNameNode()).getText())
      .filter(name => names.has(name));
    if (named.length === 0) return [];
    const type = init.getType();
    return named.flatMap(name => {
      const getter = type
        .getProperty(name)
        ?.getDeclarations()
        .find(d => Node.isGetAccessorDeclaration(d));
      return getter && Node.isGetAccessorDeclaration(getter) && getter.getBody() && isProjectFunction(getter) ? [getter] : [];
    });
  }

  /**
   * Whether iterating an expression (a `for...of`, a spread, an array pattern) advances an iterator outliving the
   * round (`ids`, a module's generator), as `ids.next()` does. An iterable that is not its own iterator (an array,
   * a map) is read afresh each time, and an iterator made where it is iterated (`items.values()`) is the run's own.
   */
  private advancesIterator(expr: Node, fn: Scope, mode: Mode, out: WalkResult): boolean {
    const iterated = unwrap(expr);
    if (!isReference(iterated) || !iterated.getType().getProperty('next')) return false;
    const where = locality(iterated, fn);
    const key = rootKey(iterated, where);
    if (key) out.changes.push({ node: expr, key });
    return this.changes(where, mode, out, 'repeats');
  }

  private advancesIteratorArgument(call: Invocation, fn: Scope, mode: Mode, out: WalkResult): boolean {
    if (Node.isTaggedTemplateExpression(call)) return false;
    return (call.getArguments() as Node[]).some(arg => !Node.isSpreadElement(arg) && this.advancesIterator(arg, fn, mode, out));
  }

  /**
   * Whether a call is handed a function of the project by name (`items.forEach(record)`, `promise.then(save)`) that
   * does something outside the round, as a function written in its arguments would (those are walked where they
   * are written). Its parameters are what the call hands it: a change to them is a change to what the call is
   * made on. A timer's callback runs later, on its own (setsTimerToJournal).
   */
  private handedFunctionIsEffect(call: Invocation, fn: Scope, mode: Mode, out: WalkResult): boolean {
    if (Node.isTaggedTemplateExpression(call) || (Node.isCallExpression(call) && TIMERS.has(calleeName(call)))) return false;
    for (const arg of call.getArguments() as Node[]) {
      const handed = unwrap(arg);
      if (!Node.isIdentifier(handed) && !Node.isPropertyAccessExpression(handed)) continue;
      for (const callee of calleesOf(handed)) {
        if (this.asking.has(callee)) continue;
        const summary = this.summary(callee);
        for (const key of summary.changed) out.changes.push({ node: call, key });
        if (summary.effect) return true;
        if (summary.perRound) out.perRound = true;
        if (summary.mutatesOwn && this.changes(locality(handed, fn), mode, out, summary.mutatesOwn)) return true;
        if (
          summary.mutatesParams.size > 0 &&
          Node.isCallExpression(call) &&
          this.changes(locality(receiverOf(call), fn), mode, out, 'repeats')
        )
          return true;
      }
    }
    return false;
  }

  /** The names the project declares a get or set accessor of, read once per walker. */
  private accessorNamesIn(node: Node): ReadonlySet<string> {
    this.accessorNames ??= accessorNamesOf(node.getProject().getProgram().compilerObject.getSourceFiles());
    return this.accessorNames;
  }

  /**
   * The project's accessor a property access runs (`tickets.next` and `get next() { return ++this.#n; }`): the
   * checker is asked only of names the project declares an accessor of. A callee is a method's, not a getter's.
   */
  private accessorRun(node: Node, kind: 'get' | 'set'): { access: PropertyAccessExpression; declaration: FunctionLike } | undefined {
    if (!Node.isPropertyAccessExpression(node)) return undefined;
    if (!this.accessorNamesIn(node).has(node.getName())) return undefined;
    const parent = node.getParent();
    if (kind === 'get' && parent && Node.isCallExpression(parent) && parent.getExpression() === node) return undefined;
    const isKind = kind === 'get' ? Node.isGetAccessorDeclaration : Node.isSetAccessorDeclaration;
    const declaration = node
      .getNameNode()
      .getSymbol()
      ?.getDeclarations()
      .find(d => isKind(d));
    return declaration && isKind(declaration) && declaration.getBody() && isProjectFunction(declaration)
      ? { access: node, declaration }
      : undefined;
  }

  /** Whether a call does something outside the round, recording on `out` what it does to its function's own objects. */
  private callIsEffect(call: Run, cls: CallClass, fn: Scope, mode: Mode, out: WalkResult): boolean {
    if ('kind' in cls) {
      switch (cls.kind) {
        case 'effect':
          return true;
        case 'per-round':
          out.perRound = true;
          return false;
        case 'pure':
          return false;
        case 'mutates-receiver':
          return this.changes(locality(receiverOf(call), fn), mode, out, 'repeats');
        case 'sets-receiver': {
          const changed = receiverOf(call);
          return this.changes(locality(changed, fn), mode, out, setsFromItself(call, changed, this.isQuestion) ? 'repeats' : 'sets');
        }
        case 'mutates-first-argument':
        case 'sets-first-argument': {
          const changed = Node.isCallExpression(call) ? call.getArguments()[0] : undefined;
          const change = cls.kind === 'sets-first-argument' && !setsFromItself(call, changed, this.isQuestion) ? 'sets' : 'repeats';
          return changed !== undefined && this.changes(locality(changed, fn), mode, out, change);
        }
      }
    }
    if (!('summaries' in cls)) return false;
    const args = Node.isCallExpression(call) || Node.isNewExpression(call) ? (call.getArguments() as Node[]) : [];
    for (const summary of cls.summaries) {
      if (summary.effect) return true;
      if (summary.perRound) out.perRound = true;
      if (summary.mutatesOwn && this.changes(locality(receiverOf(call), fn), mode, out, summary.mutatesOwn)) return true;
      for (const [i, change] of summary.mutatesParams) {
        const arg = args[i];
        if (arg && this.changes(locality(arg, fn), mode, out, change)) return true;
      }
    }
    return false;
  }

  /**
   * Whether changing an object of this locality is an effect: one outliving the round changed again by a
   * second run. A summary records instead what it does to its own objects and its parameters'.
   */
  private changes(where: Locality, mode: Mode, out: WalkResult, change: Change): boolean {
    if (where === 'local') return false;
    if (where === 'persistent') return change === 'repeats';
    if (where === 'own') {
      if (mode === 'plan') return change === 'repeats';
      if (out.mutatesOwn !== 'repeats') out.mutatesOwn = change;
      return false;
    }
    if (mode === 'summary' && out.mutatesParams.get(where.param) !== 'repeats') out.mutatesParams.set(where.param, change);
    return false;
  }
}

/**
 * What an assignment, an update (`++`) or a `delete` changes, and whether doing it again changes it again
 * (`+=`, `++`, `x = f(x)`) or leaves it as the first time left it (`=`, `delete`). `isQuestion`: the invocations
 * that ask, whose answers a value made of them is (see readsThroughLocals).
 */
export function mutationOf(node: Node, isQuestion: (node: Node) => boolean = () => false): { target: Node; repeats: boolean } | undefined {
  if (Node.isBinaryExpression(node)) {
    const op = node.getOperatorToken().getKind();
    if (op < SyntaxKind.FirstAssignment || op > SyntaxKind.LastAssignment) return undefined;
    // `??=`, `||=`: done again, they find the value set. `x = x + 1` (`list = [...list, item]`) is `x += 1`.
    const repeats =
      op === SyntaxKind.EqualsToken
        ? readsItself(node.getLeft(), node.getRight(), isQuestion)
        : op !== SyntaxKind.QuestionQuestionEqualsToken && op !== SyntaxKind.BarBarEqualsToken;
    return { target: node.getLeft(), repeats };
  }
  if (Node.isPrefixUnaryExpression(node) || Node.isPostfixUnaryExpression(node)) {
    const op = node.getOperatorToken();
    return op === SyntaxKind.PlusPlusToken || op === SyntaxKind.MinusMinusToken ? { target: node.getOperand(), repeats: true } : undefined;
  }
  if (Node.isDeleteExpression(node)) return { target: node.getExpression(), repeats: false };
  return undefined;
}

/**
 * Whether an assignment depends on what it changes, so that done again it changes it again: its value reads what
 * it assigns (`stats.calls = stats.calls + 1`, `seen[k] = (seen[k] ?? 0) + 1`), itself or through a local made
 * from it (`const next = { ...this.stats, runs: this.stats.runs + 1 }; this.stats = next;`), or its index reads
 * the object it assigns an element of (`log[log.length] = entry`).
 */
function readsItself(target: Node, value: Node, isQuestion: (node: Node) => boolean): boolean {
  const written = unwrap(target);
  if (lazilySet(written.getText(), unwrap(value))) return false;
  if (readsThroughLocals(value, written.getText(), isQuestion)) return true;
  return (
    Node.isElementAccessExpression(written) && readsText(written.getArgumentExpressionOrThrow(), unwrap(written.getExpression()).getText())
  );
}

/** `x = x ?? make()` (`||`, or `x ? x : make()`): as `??=`, done again it finds the value set. */
function lazilySet(written: string, value: Node): boolean {
  if (Node.isBinaryExpression(value)) {
    const op = value.getOperatorToken().getKind();
    return (op === SyntaxKind.QuestionQuestionToken || op === SyntaxKind.BarBarToken) && unwrap(value.getLeft()).getText() === written;
  }
  return (
    Node.isConditionalExpression(value) &&
    unwrap(value.getCondition()).getText() === written &&
    unwrap(value.getWhenTrue()).getText() === written
  );
}

/**
 * Whether a call that sets an object sets it from what it holds, so that done again it changes it again
 * (`counts.set(k, (counts.get(k) ?? 0) + 1)`, `counts.set(k, countOf(counts, k) + 1)`,
 * `Object.assign(stats, { runs: stats.runs + 1 })`), as an assignment does (readsItself).
 */
function setsFromItself(call: Run, changed: Node | undefined, isQuestion: (node: Node) => boolean): boolean {
  if (!changed || !(Node.isCallExpression(call) || Node.isNewExpression(call))) return false;
  const text = unwrap(changed).getText();
  return (call.getArguments() as Node[]).some(arg => arg !== changed && readsThroughLocals(arg, text, isQuestion));
}

/** How many locals deep readsThroughLocals follows a value (`const a = f(x); const b = [a]; x = b`). */
const LOCAL_DEPTH = 3;

/**
 * Whether an expression reads `text` (as readsText does), or reads a local of a function whose initializer does;
 * not a local holding an answer (`const answer = await ask(...)`): a question asked with what is assigned
 * (`New limit (now ${quota.limit})?`) gets the same answer on each round.
 */
function readsThroughLocals(expr: Node, text: string, isQuestion: (node: Node) => boolean, depth = 0): boolean {
  if (readsText(expr, text)) return true;
  if (depth >= LOCAL_DEPTH) return false;
  const madeFromIt = (local: Node): boolean => {
    const decl = declarationOf(local);
    const init = decl && Node.isVariableDeclaration(decl) && enclosingFunctionOf(decl) !== undefined ? decl.getInitializer() : undefined;
    return (
      init !== undefined &&
      !init.containsRange(local.getPos(), local.getEnd()) &&
      !someOutsideFunctions(init, isQuestion) &&
      readsThroughLocals(init, text, isQuestion, depth + 1)
    );
  };
  return someOutsideFunctions(expr, n => Node.isIdentifier(n) && madeFromIt(n));
}

/** Whether an expression, or a node in it outside the functions written in it (which run later, if at all), passes `test`. */
function someOutsideFunctions(expr: Node, test: (node: Node) => boolean): boolean {
  const visit = (n: Node): boolean =>
    test(n) || n.forEachChild(child => (isFunctionLike(child) ? undefined : visit(child) || undefined)) === true;
  return visit(expr);
}

/** Whether an expression reads a name or member written as `text`, outside the functions written in it. */
function readsText(expr: Node, text: string): boolean {
  return someOutsideFunctions(
    expr,
    n => (Node.isIdentifier(n) || Node.isPropertyAccessExpression(n) || Node.isElementAccessExpression(n)) && n.getText() === text,
  );
}

/**
 * What a change or a read of an object outliving the round is rooted in: the declaration of its root (an
 * imported name's, in the module declaring it, so that a module's change and an importer's read meet), or
 * for `this`, the class.
 */
function rootKey(node: Node, where: Locality, depth = 0): Node | undefined {
  if (where === 'local' || typeof where === 'object') return undefined;
  const root = rootOf(node);
  if (Node.isThisExpression(root))
    return root.getFirstAncestor(a => Node.isClassDeclaration(a) || Node.isClassExpression(a)) ?? root.getSourceFile();
  const decl = Node.isIdentifier(root) ? declarationOf(root) : undefined;
  // A class's static member (`Order.count`) is the class's, not its instances' (`this`, keyed by the class): one
  // made anew changes it.
  if (decl && Node.isClassDeclaration(decl)) return decl.getNameNode() ?? decl;
  // A local naming a part of another object (`const list = seen`, as `locality` reads it): that object's root.
  const init = decl && Node.isVariableDeclaration(decl) && enclosingFunctionOf(decl) !== undefined ? decl.getInitializer() : undefined;
  if (init && depth < 4) {
    let e: Node = unwrap(init);
    if (Node.isAwaitExpression(e)) e = unwrap(e.getExpression());
    if (Node.isIdentifier(e) || Node.isPropertyAccessExpression(e) || Node.isElementAccessExpression(e) || elementRead(e))
      return rootKey(e, where, depth + 1) ?? decl;
  }
  return decl;
}

/** The declaration a name stands for, through imports (`import { currentTopic } from './state.js'`). */
function declarationOf(id: Node): Node | undefined {
  const symbol = id.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  return target?.getDeclarations()[0] ?? symbol?.getDeclarations()[0];
}

/** A read that is not a part of a longer one: not the object of a property read, not a callee, not an assignment's target. */
function wholeRead(node: Node): boolean {
  let value = node;
  for (
    let parent = value.getParent();
    parent && (Node.isParenthesizedExpression(parent) || Node.isNonNullExpression(parent));
    parent = value.getParent()
  )
    value = parent;
  const parent = value.getParent();
  if (!parent) return false;
  if ((Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) && parent.getExpression() === value) return false;
  if (Node.isCallExpression(parent) && parent.getExpression() === value) return false;
  if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === value) return false;
  if (mutationOf(parent)?.target === value) return false;
  return !Node.isTypeNode(parent) && !Node.isShorthandPropertyAssignment(parent);
}

/** An identifier that reads a `let` or `var` (a const's own value never changes; its properties are read through it). */
function readsVariable(id: Node): boolean {
  const decl = declarationOf(id);
  if (!decl || !Node.isVariableDeclaration(decl)) return false;
  const parent = id.getParent();
  if (
    parent &&
    (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isBindingElement(parent)) &&
    parent.getNameNode() === id
  )
    return false;
  return decl.getVariableStatement()?.getDeclarationKind() !== 'const';
}

/**
 * An identifier whose object's contents are read where it stands, as a value (`${seen}` in a template, `'x' +
 * seen`, `...seen`, `{ ...held }`): what it holds, not the object itself, so that journaling the read (a copy, on later
 * rounds) reads the same. Handed to a call, or assigned, the object itself is what is used.
 */
function readsContents(id: Node): boolean {
  const value = inParentheses(id);
  const parent = value.getParent();
  if (!parent) return false;
  if (Node.isTemplateSpan(parent) || Node.isSpreadElement(parent) || Node.isSpreadAssignment(parent)) return true;
  return Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.PlusToken;
}

/** The objects a call changes: what it is called on, or the arguments its function changes. */
function changedBy(call: Run, cls: CallClass): Node[] {
  const args = Node.isCallExpression(call) || Node.isNewExpression(call) ? (call.getArguments() as Node[]) : [];
  if ('kind' in cls) {
    if (cls.kind === 'sets-receiver' || cls.kind === 'mutates-receiver') return [receiverOf(call)];
    return (cls.kind === 'sets-first-argument' || cls.kind === 'mutates-first-argument') && args[0] ? [args[0]] : [];
  }
  if (!('summaries' in cls)) return [];
  const changed = new Set<Node>();
  for (const summary of cls.summaries) {
    if (summary.mutatesOwn) changed.add(receiverOf(call));
    for (const i of summary.mutatesParams.keys()) if (args[i]) changed.add(args[i]);
  }
  return [...changed];
}

/** The object a method is called on (`list` of `list.push(x)`), or a getter read of (`tickets` of `tickets.next`). */
function receiverOf(call: Run): Node {
  if (Node.isPropertyAccessExpression(call)) return call.getExpression();
  if (Node.isVariableDeclaration(call)) return call.getInitializerOrThrow();
  const callee = Node.isTaggedTemplateExpression(call) ? call.getTag() : call.getExpression();
  const e = unwrap(callee);
  return Node.isPropertyAccessExpression(e) || Node.isElementAccessExpression(e) ? e.getExpression() : e;
}

/** Whether a function expression is handed to a call (or `new`) as an argument, or called where it is written. */
function isHandedOver(fn: Node): boolean {
  const value = inParentheses(fn);
  const parent = value.getParent();
  if (!parent) return false;
  if ((Node.isCallExpression(parent) || Node.isNewExpression(parent)) && (parent.getArguments() as Node[]).includes(value)) return true;
  return Node.isCallExpression(parent) && parent.getExpression() === value;
}

/** Where the object an expression names lives: made in this run of `fn`, handed to it, `this`, or anything outliving it. */
export function locality(expr: Node, fn: Scope, depth = 0): Locality {
  const root = rootOf(expr);
  if (Node.isThisExpression(root)) return 'own';
  // A value written where it is read (`['a', 'b'].values()`, `new Map()`) is made anew on each run.
  if (Node.isArrayLiteralExpression(root) || Node.isObjectLiteralExpression(root) || Node.isNewExpression(root)) return 'local';
  if (!Node.isIdentifier(root) || depth > 4) return 'persistent';
  const decl = root.getSymbol()?.getDeclarations()[0];
  if (!decl) return 'persistent';
  if (!within(decl, fn))
    return enclosingFunctionOf(decl) !== undefined && decl.getSourceFile() === fn.getSourceFile() ? 'own' : 'persistent';
  if (Node.isParameterDeclaration(decl)) {
    const index = parametersOf(fn).indexOf(decl as ParameterDeclaration);
    return index >= 0 ? { param: index } : 'local';
  }
  if (Node.isBindingElement(decl)) {
    // `const { items } = this.store`: a part of what it is destructured from.
    const declaration = decl.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
    const init = declaration?.getInitializer();
    const param = decl.getFirstAncestorByKind(SyntaxKind.Parameter);
    if (param && param.getParent() === fn) return { param: parametersOf(fn).indexOf(param) };
    return init ? fromInitializer(init, fn, depth) : 'local';
  }
  if (Node.isVariableDeclaration(decl)) {
    const init = decl.getInitializer();
    return init ? fromInitializer(init, fn, depth) : 'local';
  }
  return 'local';
}

/** A local is what its initializer reads where that is a part of another object (`this.items`, `store.get(id)`); else its own. */
function fromInitializer(init: Expression, fn: Scope, depth: number): Locality {
  let e: Node = unwrap(init);
  if (Node.isAwaitExpression(e)) e = unwrap(e.getExpression());
  const reads = Node.isIdentifier(e) || Node.isPropertyAccessExpression(e) || Node.isElementAccessExpression(e) || elementRead(e);
  if (!reads) return 'local';
  const where = locality(e, fn, depth + 1);
  return where === 'local' ? 'local' : where;
}

function elementRead(e: Node, reads: ReadonlySet<string> = ELEMENT_READS): boolean {
  if (!Node.isCallExpression(e)) return false;
  const callee = unwrap(e.getExpression());
  return Node.isPropertyAccessExpression(callee) && reads.has(callee.getName());
}

/**
 * The name, `this` or other expression at the root of a chain of property reads, element reads and calls of
 * `reads` (the element-reading methods, by default).
 */
export function rootOf(expr: Node, reads: ReadonlySet<string> = ELEMENT_READS): Node {
  let e = unwrap(expr);
  for (let i = 0; i < 20; i++) {
    if (Node.isPropertyAccessExpression(e) || Node.isElementAccessExpression(e)) e = unwrap(e.getExpression());
    else if (Node.isNonNullExpression(e)) e = unwrap(e.getExpression());
    else if (elementRead(e, reads))
      e = unwrap(((e as import('ts-morph').CallExpression).getExpression() as import('ts-morph').PropertyAccessExpression).getExpression());
    else break;
  }
  return e;
}

/**
 * The work to journal for a call whose value is a list of promises handed to `Promise.all` (`items.map(save)`): the
 * combinator's call, whose settled value can travel in requestState where the promises cannot.
 */
function settledTogether(call: Node): Node {
  const value = inParentheses(call);
  const parent = value.getParent();
  return parent && isPromiseCombinator(parent) && parent.getArguments()[0] === value ? parent : call;
}

/** Whether what an expression evaluates to is read: not a statement of its own, `void`, or such a statement's `await`. */
export function valueIsUsed(node: Node): boolean {
  let value = node;
  for (;;) {
    const parent = value.getParent();
    if (!parent) return false;
    if (Node.isParenthesizedExpression(parent) || Node.isAwaitExpression(parent)) {
      value = parent;
      continue;
    }
    if (Node.isExpressionStatement(parent) || Node.isVoidExpression(parent)) return false;
    return true;
  }
}

/** An expression with the parentheses written around it (`(x)` of `x`): what its parent holds. */
export function inParentheses(node: Node): Node {
  let value = node;
  for (let parent = value.getParent(); parent && Node.isParenthesizedExpression(parent); parent = value.getParent()) value = parent;
  return value;
}

/** Whether a function is handed to a timer (`setTimeout(() => ..., ms)`), whose callback runs later. */
function handedToTimer(fn: Node): boolean {
  const value = inParentheses(fn);
  const call = value.getParent();
  return call !== undefined && Node.isCallExpression(call) && call.getArguments().includes(value as never) && TIMERS.has(calleeName(call));
}

/** The name a call calls (`setTimeout` of `setTimeout(...)` and of `timers.setTimeout(...)`). */
function calleeName(call: CallExpression): string {
  const callee = unwrap(call.getExpression());
  return Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
}

/** A name, or a member reached from one by property reads (`ids`, `this.queue`, `state.ids[k]`), with no call in it. */
function isReference(e: Node): boolean {
  if (Node.isIdentifier(e) || Node.isThisExpression(e)) return true;
  if (Node.isPropertyAccessExpression(e) || Node.isElementAccessExpression(e) || Node.isNonNullExpression(e))
    return isReference(unwrap(e.getExpression()));
  return false;
}

/** The function a declaration is made in (none at module level). */
function enclosingFunctionOf(decl: Node): Node | undefined {
  return decl.getFirstAncestor(a => isFunctionLike(a) || Node.isConstructorDeclaration(a) || Node.isClassStaticBlockDeclaration(a));
}

function within(node: Node, fn: Node): boolean {
  return node.getSourceFile() === fn.getSourceFile() && fn.getPos() <= node.getPos() && node.getEnd() <= fn.getEnd();
}
