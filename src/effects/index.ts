/**
 * What replay must not do twice. A migrated handler runs from the top on each round of a 2026-07-28
 * call, so everything it does before its last question may run again. Each such expression is one of:
 *
 * - pure: it computes from the handler's own values (its arguments, its locals, constants, what its
 *   pure helpers compute): run again, as it is;
 * - per round: a log line, a notification, a read of the server's own files, loading a module: done on
 *   each round, as a request's own; a timer is set again too, with a note where what it runs later does
 *   something outside the round (it then runs once per round);
 * - an effect: an API call, a write, a counter, `Date.now()`, `Math.random()`, a change to an object
 *   outliving the round: journaled, done on the round that first reaches it, its result replayed on the
 *   later ones (`journaled(() => api.createTrip(city))`);
 * - a handle that cannot travel in requestState (a connection): made again on each round, with a note;
 * - an effect whose result cannot travel and is read after: journaled all the same (it is never done
 *   twice), and marked, since a later round cannot read its result back.
 *
 * A read of something the function changes before a later question, itself or through a function it calls,
 * is journaled (or, where its value cannot travel, read again with a note).
 *
 * A handler registered as such runs once after its last question (on the last round): only what comes
 * before a question, or in a loop holding one, runs again; so does a helper every call of which is the last
 * thing such a function does (LastRunning). Any other helper that asks may be called before other questions:
 * all of it may run again.
 */
import { Node, SyntaxKind, TypeFlags, type ClassDeclaration, type Type, type VariableDeclaration } from 'ts-morph';
import type { AskingFunction, Reach, Reacher } from '../find/reach.js';
import { calleesOf, isFunctionLike } from '../find/callees.js';
import { enclosingFunction, type FunctionLike } from '../analysis/functions.js';
import { HANDLE_MAKERS } from './builtins.js';
import { isPromiseCombinator, projectClassMade, type Summary } from './calls.js';
import { inParentheses, valueIsUsed, Walker, type EffectPoint, type WalkResult } from './walk.js';
import { unwrap } from '../analysis/mcpSymbols.js';
import { callbackRunners, HandedCallbacks } from './handed.js';
import { changedAfterAQuestion, changedCopyReason } from './changedCopies.js';
import { ROUND_LIMIT_CAUSE, type FoundCause } from '../tables/causes.js';
import type { JournalPlan } from '../plan.js';
import { article } from '../values.js';
import { descendantsOfKind } from '../analysis/descendants.js';

export interface JournalWork {
  node: Node;
  /** The work awaits inside itself: an async arrow. */
  async: boolean;
  /**
   * Its value is not used and may not travel in requestState (an instance, a whole Map): the work is journaled with
   * nothing as its result (`value`), or its promise awaited and nothing kept of what it settles to (`settled`).
   */
  discarded?: Discarded;
}

type Discarded = NonNullable<JournalPlan['discarded']>;

export interface EffectRefusal {
  node: Node;
  reason: string;
  cause: FoundCause;
  handler?: string;
}

export interface EffectNote {
  node: Node;
  text: string;
}

export interface JournalPlanning {
  work: JournalWork[];
  /** The catch and finally blocks of a try around a question, which start by rethrowing while the call is suspended. */
  guards: Node[];
  refused: EffectRefusal[];
  notes: EffectNote[];
}

/** The journaled work of every function a handler may run that asks; `asks` are the requests asked through the requestState module. */
export function planJournal(handlers: AskingFunction[], asks: ReadonlySet<Node>, reacher: Reacher): JournalPlanning {
  const planning: JournalPlanning = { work: [], guards: [], refused: [], notes: [] };
  const wrappers = callbackRunners(handlers, asks);
  const askingFns = new Set<Node>([...handlers, ...wrappers.runners].map(a => a.fn));
  const handed = new HandedCallbacks(askingFns, asks);
  // A call the reach followed a question through is one, whether or not its callee resolves here (a required
  // module's single export, an entry of a table read by a computed key): the work before it is journaled.
  const followed = (node: Node) => {
    const called = Node.isCallExpression(node) ? reacher.functionCalledAt(node) : undefined;
    return called !== undefined && askingFns.has(called);
  };
  const isQuestion = (node: Node) =>
    asks.has(node) || wrappers.calls.has(node) || asksThrough(node, askingFns, asks) || handed.asksThroughParameter(node) || followed(node);
  const asking = [...handlers, ...wrappers.runners.map(runner => ({ fn: runner.fn, reach: runnerReach(runner, handlers, isQuestion) }))];
  const walker = new Walker(askingFns, isQuestion);
  const last = new LastRunning(reacher, isQuestion);
  for (const { fn, reach } of asking) {
    const label = reach.handlers[0]?.label ?? 'the handler';
    const questions = questionsIn(fn, isQuestion);
    const again = (node: Node) => !(reach.root || last.runsOnceAfterItsLastQuestion(fn)) || runsBeforeAQuestion(node, fn, questions);
    const walked = walker.plan(fn);
    const points = walked.effects.filter(p => again(p.node));
    for (const point of points) {
      const journaled = planPoint(point, label, isQuestion, planning, walker);
      const change = journaled ? changedAfterAQuestion(point.node, fn, questions) : undefined;
      if (change) planning.refused.push({ node: change, ...changedCopyReason(point.node, change, label), handler: label });
    }
    for (const read of outermost(readsChangedBefore(walked, questions, fn).map(r => r.node))) {
      if (again(read) && !points.some(p => within(read, p.node))) planRead(read, label, planning);
    }
    for (const timer of walked.timers) {
      if (again(timer))
        planning.notes.push({
          node: timer,
          text: `${label} sets a timer (${oneLine(timer.getText())}) again on each round of a 2026-07-28 call, so what it runs later runs once per round: review that running it again is safe`,
        });
    }
    planning.guards.push(...guardedBlocks(fn, questions));
    for (const { loop, iterations } of loopsAskingPastTheLimit(fn, questions)) {
      const rounds = `each iteration that asks is a round of a 2026-07-28 call, and a client gives up after its round limit (${CLIENT_ROUND_LIMIT} in the SDK's client; a 2025-era client is asked directly, with no limit)`;
      if (iterations === undefined) {
        planning.notes.push({
          node: loop,
          text: `${label} asks in a loop (${loopHead(loop)}): ${rounds}. Where the loop may ask more often, ask for the items together (one question listing them, or Promise.all)`,
        });
        continue;
      }
      const reason = `${label} may ask ${iterations} times in a loop (${loopHead(loop)}): ${rounds}, so a 2026-07-28 client fails the call once the loop asks for the ${ordinal(CLIENT_ROUND_LIMIT + 1)} time. Ask for the items together (one question with a field per item), then run again`;
      planning.refused.push({ node: loop, reason, cause: ROUND_LIMIT_CAUSE, handler: label });
    }
  }
  return planning;
}

/**
 * Which functions run once after their last question, on a call's last round: what they do after it is never
 * done again, so it needs no journal. A handler registered as such, nothing else calling it (reach.root), is
 * one; so is a function every call of which (Reacher.callsOf) stands in such a function with no question after
 * it there, or runs where no handler runs it (outside a request, there are no rounds). A helper called before
 * another question, in a loop that asks, or handed on where its calls cannot be seen, may run again whole.
 */
class LastRunning {
  private readonly memo = new Map<FunctionLike, boolean>();

  constructor(
    private readonly reacher: Reacher,
    private readonly isQuestion: (node: Node) => boolean,
  ) {}

  runsOnceAfterItsLastQuestion(fn: FunctionLike): boolean {
    const known = this.memo.get(fn);
    if (known !== undefined) return known;
    // Until it is settled, a call back into it (recursion) says no.
    this.memo.set(fn, false);
    const once = this.decide(fn);
    this.memo.set(fn, once);
    return once;
  }

  private decide(fn: FunctionLike): boolean {
    if (this.reacher.of(fn).root) return true;
    const calls = this.reacher.callsOf(fn);
    if (!calls || calls.length === 0) return false;
    return calls.every(call => {
      const caller = enclosingFunction(call);
      if (!caller) return false;
      if (this.reacher.of(caller).handlers.length === 0) return true;
      return this.runsOnceAfterItsLastQuestion(caller) && !runsBeforeAQuestion(call, caller, questionsIn(caller, this.isQuestion));
    });
  }
}

/** The rounds an SDK 2.x client answers before it gives up on a call (its default). */
const CLIENT_ROUND_LIMIT = 10;

/**
 * The loops of a function holding a question, unless what they iterate is written out and short enough to
 * stay under the client's round limit (`for (let i = 0; i < 3; i++)`, `for (const x of ['a', 'b'])`), with
 * how often they run where that is written out (a literal array, a const one, a counted `for`).
 */
function loopsAskingPastTheLimit(fn: FunctionLike, questions: Node[]): { loop: Node; iterations?: number }[] {
  const loops = new Map<Node, number | undefined>();
  for (const q of questions) {
    const loop = q.getFirstAncestor(a => a === fn || Node.isIterationStatement(a));
    if (!loop || loop === fn || loops.has(loop)) continue;
    const iterations = knownIterations(loop);
    if (iterations === undefined || iterations >= CLIENT_ROUND_LIMIT) loops.set(loop, iterations);
  }
  return [...loops].map(([loop, iterations]) => (iterations === undefined ? { loop } : { loop, iterations }));
}

/** How many times a loop runs, where it is written out; undefined where that is not known. */
function knownIterations(loop: Node): number | undefined {
  if (Node.isForOfStatement(loop)) return writtenOutLength(unwrap(loop.getExpression()));
  if (!Node.isForStatement(loop)) return undefined;
  // `for (let i = <n>; i < <m>; i++)`: counted one by one from a literal to a literal.
  const declared = loop.getInitializer();
  const counter =
    declared && Node.isVariableDeclarationList(declared) && declared.getDeclarations().length === 1
      ? declared.getDeclarations()[0]!
      : undefined;
  const first = counter?.getInitializer();
  const test = loop.getCondition();
  const step = loop.getIncrementor()?.getText().replace(/\s+/g, '');
  if (!counter || !first || !Node.isNumericLiteral(first) || !test || !Node.isBinaryExpression(test)) return undefined;
  const name = counter.getName();
  const bound = unwrap(test.getRight());
  const operator = test.getOperatorToken().getText();
  if (
    test.getLeft().getText() !== name ||
    !/^<=?$/.test(operator) ||
    !Node.isNumericLiteral(bound) ||
    ![`${name}++`, `++${name}`, `${name}+=1`].includes(step ?? '')
  )
    return undefined;
  return Math.max(0, Number(bound.getLiteralValue()) - Number(first.getLiteralValue()) + (operator === '<=' ? 1 : 0));
}

/** `['a', 'b']`, or a const declared as such a literal and never changed in its file: its length. */
function writtenOutLength(items: Node): number | undefined {
  const literal = Node.isIdentifier(items) ? constArrayLiteral(items) : items;
  if (!literal || !Node.isArrayLiteralExpression(literal)) return undefined;
  const elements = literal.getElements();
  return elements.some(e => Node.isSpreadElement(e)) ? undefined : elements.length;
}

const ARRAY_MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'fill', 'copyWithin']);

function constArrayLiteral(name: Node): Node | undefined {
  const declarations = name.getSymbol()?.getDeclarations() ?? [];
  const decl = declarations.length === 1 ? declarations[0] : undefined;
  if (!decl || !Node.isVariableDeclaration(decl) || decl.getVariableStatement()?.getDeclarationKind() !== 'const') return undefined;
  const text = name.getText();
  const changed = descendantsOfKind(decl.getSourceFile(), SyntaxKind.Identifier).some(id => {
    if (id.getText() !== text) return false;
    const access = id.getParent();
    if (!Node.isPropertyAccessExpression(access) || access.getExpression() !== id) return false;
    const assigned = access.getParent();
    return (
      ARRAY_MUTATORS.has(access.getName()) ||
      (access.getName() === 'length' && Node.isBinaryExpression(assigned) && assigned.getLeft() === access)
    );
  });
  return changed ? undefined : unwrap(decl.getInitializer() ?? decl);
}

function ordinal(n: number): string {
  return `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
}

/** `for (const item of items)`: a loop as its first line reads, without its body. */
export function loopHead(loop: Node): string {
  const body = (loop as Node & { getStatement?: () => Node }).getStatement?.();
  const head = body ? loop.getSourceFile().getFullText().slice(loop.getStart(), body.getStart()) : loop.getText();
  return oneLine(head.trim().replace(/\{$/, '').trim());
}

/**
 * What may run a wrapper handed an asking callback: as a handler's last question (only its work before the
 * callback asks runs again) where the handler calls it last (`return tracer.span(...)`); all of it again
 * where another question follows its call. A closure a wrapper returns to be registered is the handler.
 */
function runnerReach(
  runner: AskingFunction & { via: Node },
  handlers: readonly AskingFunction[],
  isQuestion: (node: Node) => boolean,
): Reach {
  const caller = enclosingFunction(runner.via);
  const callerReach = handlers.find(h => h.fn === caller)?.reach;
  if (!caller || !callerReach) return runner.reach;
  return { ...runner.reach, root: callerReach.root === true && !runsBeforeAQuestion(runner.via, caller, questionsIn(caller, isQuestion)) };
}

/**
 * A read of what the function changes before a later question: journaled, so that a later round reads what
 * the first read. A value that cannot travel in requestState (a function, a class instance) is read again
 * instead, with a note: journaling it would fail the later round outright.
 */
function planRead(node: Node, label: string, planning: JournalPlanning): void {
  const what = unreplayable(node);
  if (what === undefined) return void planning.work.push({ node, async: false });
  planning.notes.push({
    node,
    text: `${label} reads ${oneLine(node.getText())} before it (or a function it calls) changes it, ahead of a later question; its value, ${what}, cannot travel in requestState, so a later round of a 2026-07-28 call reads it as the earlier round left it: review`,
  });
}

/**
 * The reads of an object the function changes before a later question, itself (`held.has(seat)` before
 * `held.add(seat)`) or through a function it calls (`askTopic(currentTopic)`, askTopic advancing the topic
 * before it asks): on a later round the read would see the change its own earlier round made, so what it read
 * the first time is journaled. A call's arguments are read before the call changes anything.
 */
function readsChangedBefore(walked: WalkResult, questions: Node[], fn: FunctionLike) {
  return walked.reads.filter(read =>
    walked.changes.some(change => {
      if (change.key !== read.key) return false;
      const before = read.node.getEnd() <= change.node.getStart() || inArguments(read.node, change.node);
      if (!before && within(read.node, change.node)) return false;
      if (before && questions.some(q => change.node.getEnd() <= q.getEnd())) return true;
      // Both in a loop that asks: the change of one iteration comes before the read of the next.
      const loop = read.node.getFirstAncestor(a => Node.isIterationStatement(a) && a.getStart() >= fn.getStart());
      return loop !== undefined && within(change.node, loop) && questions.some(q => within(q, loop));
    }),
  );
}

/**
 * The nodes once each, without those inside another (a call read for what its function reads may hold a read of its
 * own: `stockOf(seen.get(k))`): the outer one is journaled, and what it holds with it.
 */
function outermost(nodes: readonly Node[]): Node[] {
  const unique = [...new Set(nodes)];
  return unique.filter(node => !unique.some(other => other !== node && within(node, other)));
}

/** Whether a read is in the arguments of a call making a change: evaluated before the call changes anything. */
function inArguments(read: Node, change: Node): boolean {
  if (!Node.isCallExpression(change) && !Node.isNewExpression(change)) return false;
  return (change.getArguments() as Node[]).some(arg => within(read, arg));
}

/**
 * The catch and finally blocks of the function's try statements around a question: on a suspended round they
 * must neither take the suspension for an error nor run before the call ends. A finally that only lets go of
 * handles made in the round (`client.release()`) runs on every round, as the handles are made on every round.
 */
function guardedBlocks(fn: FunctionLike, questions: Node[]): Node[] {
  const blocks: Node[] = [];
  for (const statement of descendantsOfKind(fn, SyntaxKind.TryStatement)) {
    if (enclosingFunction(statement) !== fn) continue;
    const tried = statement.getTryBlock();
    if (!questions.some(q => within(q, tried))) continue;
    const caught = statement.getCatchClause()?.getBlock();
    if (caught) blocks.push(caught);
    const last = statement.getFinallyBlock();
    if (last && !onlyLetsGo(last)) blocks.push(last);
  }
  return blocks;
}

/** Calls that let go of a handle (`release()`, `close()`), the only statements of a finally that runs on every round. */
const LETTING_GO = /^(release|close|end|destroy|disconnect|dispose|unlock|abort|quit|cleanup|unref)$/;

/** `this.locked = false`, `busy = null`: a flag set back, to the same value on each round. */
function resetsToConstant(e: Node): boolean {
  if (!Node.isBinaryExpression(e) || e.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) return false;
  const value = unwrap(e.getRight());
  return (
    [SyntaxKind.FalseKeyword, SyntaxKind.NullKeyword].includes(value.getKind()) ||
    (Node.isIdentifier(value) && value.getText() === 'undefined')
  );
}

/** Clearing a timer the round set (a deadline's): the timer is set again on the next round. */
const CLEARING_TIMERS: ReadonlySet<string> = new Set(['clearTimeout', 'clearInterval', 'clearImmediate']);

function onlyLetsGo(block: import('ts-morph').Block): boolean {
  const statements = block.getStatements();
  return (
    statements.length > 0 &&
    statements.every(st => {
      if (!Node.isExpressionStatement(st)) return false;
      let e = unwrap(st.getExpression());
      if (Node.isAwaitExpression(e)) e = unwrap(e.getExpression());
      if (resetsToConstant(e)) return true;
      if (!Node.isCallExpression(e)) return false;
      const callee = unwrap(e.getExpression());
      // `release()` of `const release = await mutex.acquire()`: skipped on a suspended round, the lock would be held for good.
      if (Node.isIdentifier(callee)) return CLEARING_TIMERS.has(callee.getText()) || LETTING_GO.test(callee.getText());
      return Node.isPropertyAccessExpression(callee) && LETTING_GO.test(callee.getName());
    })
  );
}

function within(node: Node, outer: Node): boolean {
  return outer.getStart() <= node.getStart() && node.getEnd() <= outer.getEnd();
}

/** One effect that may run again: journaled, made again, or refused. Whether it was journaled. */
function planPoint(
  point: EffectPoint,
  label: string,
  isQuestion: (node: Node) => boolean,
  planning: JournalPlanning,
  walker: Walker,
): boolean {
  const node = point.node;
  if (point.form) {
    planning.refused.push({ node, ...notAnExpression(point, label), handler: label });
    return false;
  }
  const asksInside = node.getDescendants().find(d => isQuestion(d));
  if (asksInside) {
    const reason = `${label} does ${oneLine(node.getText())} after asking ${oneLine(asksInside.getText())}, and asks again after it: on a 2026-07-28 client this would run again on a later round; do it in a statement of its own after the question, or migrate by hand`;
    planning.refused.push({
      node,
      reason,
      cause: { id: 'effect-between-questions', text: 'an effect made with the answer to a question, before another question' },
      handler: label,
    });
    return false;
  }
  if (node.getDescendants().some(d => Node.isYieldExpression(d))) {
    planning.refused.push({
      node,
      reason: `${label} does ${oneLine(node.getText())} in a generator's yield, which cannot be journaled; migrate by hand`,
      cause: { id: 'effect-around-yield', text: 'an effect around a yield' },
      handler: label,
    });
    return false;
  }
  const handle = handleSetUp(node);
  if (handle) {
    const reason = `${label} sets up ${handle}, which it makes again on each round of a 2026-07-28 call, with ${oneLine(node.getText())}, which also does something outside it: journaled, a later round's ${handle} would not be set up; run again, what it does outside is done once per round. It is left to run again: split the set-up from the outside work, or migrate by hand`;
    planning.refused.push({
      node,
      reason,
      cause: { id: 'handle-set-up-with-effect', text: 'a handle made on each round set up by work that also reaches outside it' },
      handler: label,
    });
    return false;
  }
  const used = valueIsUsed(node);
  const what = used ? unreplayable(node) : undefined;
  if (what !== undefined && !journalsUnreplayable(node, what, label, planning, walker)) return false;
  const discarded = used ? undefined : discardedResult(node);
  planning.work.push({ node, async: awaitsInside(node), ...(discarded ? { discarded } : {}) });
  return true;
}

/** Why work done by a destructuring or a `for...of`, not by an expression of its own, is left to run again. */
function notAnExpression(point: EffectPoint, label: string): Pick<EffectRefusal, 'reason' | 'cause'> {
  const cause: FoundCause = {
    id: 'effect-outside-an-expression',
    text: 'work that reaches outside the round done by a destructuring or a for...of, which replay cannot journal',
  };
  const node = point.node;
  const [did, fix] = !Node.isVariableDeclaration(node)
    ? iterated(node, 'a for...of')
    : point.getters?.length
      ? destructured(node, point.getters)
      : iterated(node.getInitializerOrThrow(), declared(node));
  return {
    reason: `${label} ${did}: replay journals expressions, not a pattern or a loop's iteration, so on a 2026-07-28 client this runs again on each round. It is left as it is: ${fix}, then run again; or migrate by hand`,
    cause,
  };
}

/** What a destructuring does (`runs book's getter next`), and the expression replay would journal instead. */
function destructured(decl: VariableDeclaration, getters: string[]): [string, string] {
  const from = oneLine(decl.getInitializerOrThrow().getText());
  const kind = keywordOf(decl);
  const getter = getters.length === 1 ? `getter ${getters[0]}` : `getters ${getters.join(', ')}`;
  const reads = getters.map(name => `${kind} ${name} = ${from}.${name}`).join('; ');
  return [
    `runs ${from}'s ${getter}, which does something outside the round, in ${declared(decl)}`,
    `read it in an expression of its own (${reads}), which replay journals`,
  ];
}

/** A declaration as written, with its keyword (`const [first] = ids`). */
function declared(decl: VariableDeclaration): string {
  return `${keywordOf(decl)} ${oneLine(decl.getText())}`;
}

function keywordOf(decl: VariableDeclaration): string {
  return decl.getVariableStatement()?.getDeclarationKind() ?? 'const';
}

/** What iterating an iterator outliving the round does (`advances ids ... in a for...of`), and the expression replay would journal instead. */
function iterated(iterator: Node, where: string): [string, string] {
  return [
    `advances ${oneLine(iterator.getText())}, an iterator that outlives the round, in ${where}`,
    `take its items with ${oneLine(iterator.getText())}.next() (each call journaled), or iterate something made in the handler`,
  ];
}

/**
 * An effect whose value, read after, cannot travel in requestState: made again on each round where it is a handle
 * (with a note; marked where making it changes something outside the instance), else journaled and marked, since
 * a later round cannot read it back. Whether it is journaled.
 */
function journalsUnreplayable(node: Node, what: string, label: string, planning: JournalPlanning, walker: Walker): boolean {
  const made = madeAgain(node);
  const own = made ? projectConstruction(node) : undefined;
  if (own && changesOutsideTheInstance(walker.construction(own), own)) {
    // Made again, its construction changes again what outlives the round (a counter, a list): a duplicate.
    const reason = `${label} makes ${oneLine(node.getText())} again on each round of a 2026-07-28 call (${what} cannot travel in requestState), and making it also changes something outside it (in ${own.getName() ?? 'its class'}'s fields or constructor): journaled, a later round could not read it back; made again, that change is made once per round. It is left to run again: make that change in a call of its own before making it (replay journals it), or migrate by hand`;
    planning.refused.push({
      node,
      reason,
      cause: {
        id: 'construction-with-effect',
        text: 'an instance made again on each round whose construction also changes something outside it (a counter, a list)',
      },
      handler: label,
    });
    return false;
  }
  if (made) {
    planning.notes.push({
      node,
      text: `${label} makes ${oneLine(node.getText())} again on each round of a 2026-07-28 call (${what} cannot travel in requestState): review that making it again is safe`,
    });
    return false;
  }
  const reason = `${label} journals ${oneLine(node.getText())} (done once), but its result, ${what}, cannot travel in requestState, so a later round of a 2026-07-28 call cannot read it back and fails: return plain data from it (or make it again after the question), then run again`;
  planning.refused.push({
    node,
    reason,
    cause: {
      id: 'journaled-result-not-serialisable',
      text: 'an effect whose result cannot travel in requestState, read after a question',
    },
    handler: label,
  });
  return true;
}

/** A call of a function that asks, or one handed a callback that asks (`Promise.all(items.map(async i => ask...))`). */
function asksThrough(node: Node, asking: ReadonlySet<Node>, asks: ReadonlySet<Node>): boolean {
  if (!Node.isCallExpression(node) && !Node.isNewExpression(node)) return false;
  if (Node.isCallExpression(node) && calleesOf(node.getExpression()).some(fn => asking.has(fn))) return true;
  const callee = Node.isCallExpression(node) ? unwrap(node.getExpression()) : undefined;
  if (callee && asking.has(callee)) return true;
  // A function that asks, or a request channel (`ask(ctx.mcpReq).send`), handed to the call.
  return (node.getArguments() as Node[]).some(arg => asking.has(unwrap(arg)) || asks.has(unwrap(arg)));
}

/** The questions a function asks in its own body (not in the functions written in it, unless it runs them). */
function questionsIn(fn: FunctionLike, isQuestion: (node: Node) => boolean): Node[] {
  const found: Node[] = [];
  const visit = (node: Node): void => {
    if (isQuestion(node)) found.push(node);
    node.forEachChild(child => {
      if (!isFunctionLike(child)) visit(child);
    });
  };
  const body = fn.getBody();
  if (body) visit(body);
  return found;
}

/**
 * Whether an expression of a handler may run before one of its questions: it ends before a question ends
 * without holding it (a question's arguments run before it asks), or it sits in a loop that asks.
 */
function runsBeforeAQuestion(node: Node, fn: FunctionLike, questions: Node[]): boolean {
  for (const q of questions) {
    const holds = node.getStart() <= q.getStart() && q.getEnd() <= node.getEnd();
    if (node.getEnd() <= q.getEnd() && !holds) return true;
    if (!holds && startedBeside(node, q)) return true;
  }
  for (let n = node.getParent(); n && n !== fn; n = n.getParent()) {
    if (Node.isIterationStatement(n) && questions.some(q => n!.getStart() <= q.getStart() && q.getEnd() <= n!.getEnd())) return true;
  }
  return false;
}

/**
 * The local a call sets up (`session.login('alice')` on a `const session = new Session()` of the same
 * function, login() assigning a field of its `this`): the handle is made again on each round, so its set-up
 * must run again too.
 */
function handleSetUp(node: Node): string | undefined {
  let call = unwrap(node);
  if (Node.isAwaitExpression(call)) call = unwrap(call.getExpression());
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const receiver = unwrap(callee.getExpression());
  const decl = Node.isIdentifier(receiver) ? receiver.getSymbol()?.getDeclarations()[0] : undefined;
  if (!decl || !Node.isVariableDeclaration(decl) || enclosingFunction(decl) !== enclosingFunction(call)) return undefined;
  return calleesOf(callee).some(assignsOwnField) ? receiver.getText() : undefined;
}

/** Whether a method assigns a field of its own object (`this.user = user`). */
function assignsOwnField(fn: FunctionLike): boolean {
  return descendantsOfKind(fn, SyntaxKind.BinaryExpression).some(b => {
    if (!/^(=|\+=|-=|\|\|=|&&=|\?\?=)$/.test(b.getOperatorToken().getText())) return false;
    const left = unwrap(b.getLeft());
    return Node.isPropertyAccessExpression(left) && unwrap(left.getExpression()).getKind() === SyntaxKind.ThisKeyword;
  });
}

/**
 * Whether the node is an element (or in one) of the list a `Promise.all([...])` is handed, beside the question:
 * each element starts before the round can end, whichever is written first.
 */
function startedBeside(node: Node, question: Node): boolean {
  const list = node.getFirstAncestor(a => Node.isArrayLiteralExpression(a) && within(question, a));
  const call = list?.getParent();
  return list !== undefined && call !== undefined && isPromiseCombinator(call) && call.getArguments().includes(list);
}

function awaitsInside(node: Node): boolean {
  let found = false;
  const visit = (n: Node): void => {
    if (found) return;
    if (Node.isAwaitExpression(n) || (Node.isForOfStatement(n) && n.isAwaited())) {
      found = true;
      return;
    }
    n.forEachChild(child => {
      if (!isFunctionLike(child)) visit(child);
    });
  };
  visit(node);
  return found;
}

/** The expression an effect makes its value with, past an `await` (`pool.connect()` of `await pool.connect()`). */
function making(node: Node): Node {
  return Node.isAwaitExpression(node) ? unwrap(node.getExpression()) : node;
}

/** The project's class a construction makes (`Order` of `new Order(item)`), if it is one. */
function projectConstruction(node: Node): ClassDeclaration | undefined {
  const e = making(node);
  return Node.isNewExpression(e) ? projectClassMade(e) : undefined;
}

/**
 * Whether making an instance changes an object outliving the round other than the instance (a module's counter or
 * list): what its class and its bases change through `this` is keyed by the class, and is the new instance's own.
 */
function changesOutsideTheInstance(construction: Summary, cls: ClassDeclaration): boolean {
  const own = new Set<Node>();
  for (let c: ClassDeclaration | undefined = cls; c && !own.has(c); c = c.getBaseClass()) own.add(c);
  return [...construction.changed].some(key => !own.has(key));
}

/** A handle made by a call whose name says it connects or opens something (`pool.connect()`). */
function madeAgain(node: Node): boolean {
  const e = making(node);
  if (Node.isNewExpression(e)) return true;
  if (!Node.isCallExpression(e)) return false;
  const callee = unwrap(e.getExpression());
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  return HANDLE_MAKERS.test(name);
}

/** What of an expression's value cannot travel in requestState (`an instance of class Order`), if anything. */
function unreplayable(node: Node): string | undefined {
  let type: Type;
  try {
    type = node.getType();
  } catch {
    return undefined;
  }
  return unreplayableType(awaited(type), 0);
}

/**
 * What of an unused result is left out of the journal: all but a primitive (a count `push` returns, a settled
 * `void`), which costs nothing to keep. A driver's result object or the Map `set` returns would fail a later round
 * (an instance cannot be read back) or carry the whole map in requestState.
 */
function discardedResult(node: Node): Discarded | undefined {
  // Awaited where it stands, it is awaited in the work too, whatever its type says (`any` of untyped code).
  const awaitedHere = awaitedWhereItStands(node);
  let type: Type;
  try {
    type = node.getType();
  } catch {
    return awaitedHere ? 'settled' : 'value';
  }
  const settled = awaited(type);
  if (primitive(settled)) return undefined;
  return awaitedHere || settled !== type || isThenableType(type) ? 'settled' : 'value';
}

function awaitedWhereItStands(node: Node): boolean {
  const parent = inParentheses(node).getParent();
  return parent !== undefined && Node.isAwaitExpression(parent);
}

/** A number, a string, a boolean, a bigint, an enum's member, null, undefined or void (or a union of them). */
function primitive(type: Type): boolean {
  if (type.isUnion()) return type.getUnionTypes().every(primitive);
  return (
    type.isString() ||
    type.isNumber() ||
    type.isBoolean() ||
    type.isLiteral() ||
    type.isNull() ||
    type.isUndefined() ||
    type.isVoid() ||
    type.isBooleanLiteral() ||
    type.isEnum() ||
    type.isEnumLiteral() ||
    (type.getFlags() & TypeFlags.BigIntLike) !== 0
  );
}

function isThenableType(type: Type): boolean {
  return type.getProperty('then') !== undefined;
}

function awaited(type: Type): Type {
  const symbol = type.getSymbol()?.getName();
  if ((symbol === 'Promise' || symbol === 'PromiseLike') && type.getTypeArguments().length === 1)
    return awaited(type.getTypeArguments()[0]!);
  return type;
}

/** The types the journal carries as they are though they are not plain data. */
const CARRIED = new Set([
  'Date',
  'Map',
  'Set',
  'ReadonlyMap',
  'ReadonlySet',
  'Uint8Array',
  'Buffer',
  'Error',
  'Response',
  'Array',
  'ReadonlyArray',
]);

function unreplayableType(type: Type, depth: number): string | undefined {
  if (depth > 3 || type.isAny() || type.isUnknown() || type.isNever()) return undefined;
  if (type.isUnion()) {
    for (const member of type.getUnionTypes()) {
      const found = unreplayableType(member, depth);
      if (found) return found;
    }
    return undefined;
  }
  if (primitive(type)) return undefined;
  if (type.getCallSignatures().length > 0) return 'a function';
  if (type.isArray() || type.isTuple()) {
    for (const element of type.isArray() ? [type.getArrayElementTypeOrThrow()] : type.getTupleElements()) {
      const found = unreplayableType(element, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const symbol = type.getSymbol() ?? type.getAliasSymbol();
  const name = symbol?.getName();
  if (name && CARRIED.has(name)) return undefined;
  const declaration = symbol?.getDeclarations()[0];
  if (declaration && Node.isClassDeclaration(declaration)) return `an instance of class ${name}`;
  if (!type.isObject()) return undefined;
  for (const property of type.getProperties().slice(0, 50)) {
    const decl = property.getValueDeclaration() ?? property.getDeclarations()[0];
    if (decl && (Node.isMethodSignature(decl) || Node.isMethodDeclaration(decl)))
      return name && name !== '__type' && name !== '__object'
        ? `${article(name)} ${name} (an object with methods)`
        : 'an object with methods';
  }
  return undefined;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 70 ? `${flat.slice(0, 67)}...` : flat;
}
