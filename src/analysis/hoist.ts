/**
 * Awaits of server-initiated requests that sit inside expressions, hoisted into statements of their
 * own before the analysis, which splits `const x = await request(...)` statements into phases.
 *
 *   const text = `${(await server.server.listRoots()).roots.length} ${(await server.server.createMessage(m)).model}`;
 * becomes
 *   const mcpAwait1 = await server.server.listRoots();
 *   const mcpAwait2 = await server.server.createMessage(m);
 *   const text = `${mcpAwait1.roots.length} ${mcpAwait2.model}`;
 *
 * and an await that runs only on one side of `?:`, `&&`, `||` or `??` moves under an `if`, so the
 * request is sent exactly when the original would have sent it:
 *
 *   const note = approve ? (await server.server.elicitInput(p)).action : 'skipped';
 * becomes
 *   let note: string;
 *   if (approve) {
 *     note = (await server.server.elicitInput(p)).action;
 *   } else {
 *     note = 'skipped';
 *   }
 *
 * Evaluation order is kept: whatever the statement evaluates before an await and could give
 * another value after it (a call, a property read, a variable that is reassigned) is read into a
 * constant first, in order. Only statements the analysis would refuse are touched (two requests in
 * one statement, a request evaluated conditionally or after an effect), only in the handlers it
 * migrates; a statement whose shape is not understood here (an await in a loop header, inside an
 * optional call's arguments, a nested assignment...) is left byte-identical for the analysis to mark.
 *
 * Awaited calls of helpers the inliner takes only as statements of their own are hoisted by the same
 * rules (hoistAwaitedCalls, from src/analysis/inline.ts), until each is one:
 *   if (!(await confirm(server, msg))) return kept;
 * becomes
 *   const confirmResult = await confirm(server, msg);
 *   if (!confirmResult) return kept;
 */
import { Node, SyntaxKind, type AwaitExpression, type SourceFile, type Statement } from 'ts-morph';
import { positionMapper, type Position } from '../positions.js';
import { printableType } from './flow.js';
import { identifierTexts, nameAllocator } from './names.js';
import { enclosingFunction, findSites, registrationOf, type FunctionLike, type Site } from './sites.js';
import { setText } from './project.js';

/** Where this pass gives up on a statement: it is left as written. */
class NoHoist extends Error {}

/** Statement text, and where hoisted request calls start in it (`at`), with where each was in the file before (`from`). */
interface Code {
  text: string;
  marks: { at: number; from: number }[];
}

interface Edit extends Code {
  start: number;
  end: number;
}

export interface Hoisting {
  /** The file's text before and after. */
  before: string;
  text: string;
  /** Offsets, in the new text, of the request calls that were hoisted. */
  sites: Set<number>;
  /** A position in the new text, in the text before: exact for the hoisted calls, through a line diff elsewhere. */
  toBefore(p: Position): Position;
}

/**
 * Hoists the awaits of requests inside expressions in the handlers of `sf` (only in the handler
 * containing `onlyAt`, an offset, when given) and replaces the file's text; undefined when there
 * is nothing to hoist.
 */
export function hoistAwaits(sf: SourceFile, onlyAt?: number): Hoisting | undefined {
  const byHandler = new Map<FunctionLike, Site[]>();
  for (const site of findSites(sf)) {
    const fn = site.fn;
    if (!fn || !registrationOf(fn)) continue;
    if (onlyAt !== undefined && !(fn.getStart() <= onlyAt && onlyAt <= fn.getEnd())) continue;
    byHandler.set(fn, [...(byHandler.get(fn) ?? []), site]);
  }
  const taken = identifierTexts(sf);
  const handlers = [...byHandler].map(([fn, sites]) => {
    const targets: Target[] = [];
    const others: Node[] = [];
    for (const site of sites) {
      const parent = site.passedOn || site.urlError || site.unsupported ? undefined : skipParensUp(site.node).getParent();
      if (parent && Node.isAwaitExpression(parent)) targets.push({ await: parent, name: RESULT_NAMES[site.kind] ?? 'response' });
      else others.push(site.node);
    }
    return new HandlerHoister(fn, targets, others, nameAllocator(taken));
  });
  const applied = applyHoisting(sf, hoistEdits(handlers));
  return applied && (({ before, text, sites, toBefore }) => ({ before, text, sites, toBefore }))(applied);
}

/** Awaited calls of helpers hoisted into statements of their own (hoistAwaitedCalls), and where things went. */
export interface CallHoisting {
  /** Offsets, in the new text, of the calls that were hoisted. */
  sites: Set<number>;
  /** Where an offset of the text before is in the new one: undefined inside a rewritten statement, but for a hoisted call. */
  forward(at: number): number | undefined;
  /** Where an offset of the new text was in the text before: exact for the hoisted calls, the rewritten statement's start elsewhere in it. */
  back(at: number): number;
}

/**
 * Hoists awaited `calls` (of helpers the inliner would inline) out of expressions, by the rules
 * requests are hoisted with (evaluation order kept, conditional ones moved under an `if`), until
 * each is a statement of its own that `settled` accepts (`const x = await f(...)`,
 * `x = await f(...)`...); replaces the file's text; undefined when nothing could be hoisted.
 */
export function hoistAwaitedCalls(sf: SourceFile, calls: Node[], settled: (awaited: AwaitExpression) => boolean, nameOf: (call: Node) => string): CallHoisting | undefined {
  const byFunction = new Map<FunctionLike, Target[]>();
  for (const call of calls) {
    const awaited = skipParensUp(call).getParent();
    const fn = enclosingFunction(call);
    if (!awaited || !Node.isAwaitExpression(awaited) || !fn) continue;
    byFunction.set(fn, [...(byFunction.get(fn) ?? []), { await: awaited, name: nameOf(call) }]);
  }
  const taken = identifierTexts(sf);
  const handlers = [...byFunction].map(([fn, targets]) => new HandlerHoister(fn, targets, [], nameAllocator(taken), settled));
  const applied = applyHoisting(sf, hoistEdits(handlers));
  return applied && { sites: applied.sites, forward: applied.forward, back: applied.back };
}

/** The edits of each handler's statements that need hoisting; a statement this pass gives up on has none. */
function hoistEdits(handlers: HandlerHoister[]): Edit[] {
  const edits: Edit[] = [];
  for (const handler of handlers) {
    if (!handler.hoistable()) continue;
    for (const statement of handler.statements()) {
      try {
        edits.push(...handler.hoist(statement));
      } catch (error) {
        if (!(error instanceof NoHoist)) throw error;
      }
    }
  }
  return edits;
}

/** Puts the edits in the file, and maps positions between its text before and after. */
function applyHoisting(sf: SourceFile, edits: Edit[]): (Hoisting & Omit<CallHoisting, 'sites'>) | undefined {
  if (edits.length === 0) return undefined;
  const before = sf.getFullText();
  let text = before;
  const sorted = edits.sort((a, b) => a.start - b.start);
  const moved = new Map<number, number>();
  let delta = 0;
  for (const e of sorted) {
    for (const m of e.marks) moved.set(e.start + delta + m.at, m.from);
    delta += e.text.length - (e.end - e.start);
  }
  for (const e of [...sorted].reverse()) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  setText(sf, text);
  const byLines = positionMapper(before, text);
  const lineStarts = (t: string) => [0, ...[...t.matchAll(/\n/g)].map(m => m.index! + 1)];
  const afterLines = lineStarts(text);
  const beforeLines = lineStarts(before);
  const toBefore = (p: Position): Position => {
    const from = moved.get((afterLines[p.line] ?? 0) + p.character);
    if (from === undefined) return byLines(p);
    let line = 0;
    while (line + 1 < beforeLines.length && beforeLines[line + 1]! <= from) line++;
    return { line, character: from - beforeLines[line]! };
  };
  return { before, text, sites: new Set(moved.keys()), toBefore, ...offsetMaps(sorted, moved) };
}

/** Offsets through sorted, non-overlapping edits, both ways; `moved` maps the hoisted calls (new offset to old). */
function offsetMaps(sorted: Edit[], moved: Map<number, number>): Omit<CallHoisting, 'sites'> {
  const movedTo = new Map([...moved].map(([to, from]) => [from, to]));
  const forward = (at: number): number | undefined => {
    let delta = 0;
    for (const e of sorted) {
      if (at < e.start || (at === e.start && e.start === e.end)) return at + delta + (e.start === e.end && at === e.start ? e.text.length : 0);
      if (at < e.end) return movedTo.get(at);
      delta += e.text.length - (e.end - e.start);
    }
    return at + delta;
  };
  const back = (at: number): number => {
    const from = moved.get(at);
    if (from !== undefined) return from;
    let delta = 0;
    for (const e of sorted) {
      const start = e.start + delta;
      if (at < start) return at - delta;
      if (at < start + e.text.length) return e.start;
      delta += e.text.length - (e.end - e.start);
    }
    return at - delta;
  };
  return { forward, back };
}

/** An await to hoist, and the base of the name of the constant its value goes into. */
interface Target {
  await: AwaitExpression;
  name: string;
}

/** Where the value of a branch goes: into a variable, nowhere (a statement), or out (`return`). */
type Sink = { kind: 'into'; name: string } | { kind: 'discard' } | { kind: 'return' };

interface Lifted {
  /** Statements to run first, in order. */
  pre: Code[];
  /** The expression's text once they ran. */
  text: string;
  /** Reading `text` later gives the same value: a hoisted constant, or a property of one. */
  stable: boolean;
}

const code = (text: string, marks: Code['marks'] = []): Code => ({ text, marks });

function cat(...parts: (string | Code)[]): Code {
  let text = '';
  const marks: Code['marks'] = [];
  for (const p of parts) {
    if (typeof p === 'string') text += p;
    else {
      marks.push(...p.marks.map(m => ({ at: m.at + text.length, from: m.from })));
      text += p.text;
    }
  }
  return { text, marks };
}

/** Statements one per line at `indent` (the first line is not indented: it goes where the first statement was). */
function lines(codes: Code[], indent: string): Code {
  const parts: (string | Code)[] = [];
  codes.forEach((c, i) => parts.push(...(i > 0 ? [`\n${indent}`, c] : [c])));
  return cat(...parts);
}

function block(head: string | Code, codes: Code[], indent: string): Code {
  const inner = `${indent}  `;
  return cat(head, ' {\n', inner, lines(codes, inner), `\n${indent}}`);
}

function skipParens(n: Node): Node {
  let cur = n;
  while (Node.isParenthesizedExpression(cur)) cur = cur.getExpression();
  return cur;
}

function isShortCircuit(n: Node): n is import('ts-morph').BinaryExpression {
  if (!Node.isBinaryExpression(n)) return false;
  const k = n.getOperatorToken().getKind();
  return k === SyntaxKind.AmpersandAmpersandToken || k === SyntaxKind.BarBarToken || k === SyntaxKind.QuestionQuestionToken;
}

/** `x = ...`, `x += ...` and the other assignment operators. */
export function isAssignment(n: Node): boolean {
  if (!Node.isBinaryExpression(n)) return false;
  const k = n.getOperatorToken().getKind();
  return k >= SyntaxKind.FirstAssignment && k <= SyntaxKind.LastAssignment;
}

/** Calls, `new`, awaits, assignments...: what flow.ts counts as an effect before an await. */
function isEffect(n: Node): boolean {
  if (Node.isCallExpression(n) || Node.isNewExpression(n) || Node.isAwaitExpression(n) || Node.isYieldExpression(n) || Node.isTaggedTemplateExpression(n) || Node.isDeleteExpression(n)) return true;
  if (Node.isPrefixUnaryExpression(n) || Node.isPostfixUnaryExpression(n)) {
    const op = n.getOperatorToken();
    return op === SyntaxKind.PlusPlusToken || op === SyntaxKind.MinusMinusToken;
  }
  return isAssignment(n);
}

function insideFunction(n: Node, stop: Node): boolean {
  for (let p = n.getParent(); p && p !== stop; p = p.getParent()) if (Node.isArrowFunction(p) || Node.isFunctionExpression(p)) return true;
  return false;
}

function indentOf(n: Node): string {
  return /^[ \t]*/.exec(n.getSourceFile().getFullText().slice(n.getStartLinePos()))![0];
}

class HandlerHoister {
  private readonly targets: AwaitExpression[];
  private readonly nameOf = new Map<AwaitExpression, string>();
  private readonly js: boolean;
  private awaitCount = 0;
  private readonly constants = new Map<Node, boolean>();

  /**
   * `settled`, when given, is what an await must be left as: a statement of its own it accepts (an
   * awaited helper call, which the inliner takes only so). Without it, an await evaluated
   * unconditionally and after nothing with an effect is left where it is, which the analysis splits.
   */
  constructor(
    private readonly fn: FunctionLike,
    targets: Target[],
    private readonly others: Node[],
    private readonly fresh: (base: string) => string,
    private readonly settled?: (awaited: AwaitExpression) => boolean
  ) {
    this.js = /\.[cm]?jsx?$/.test(fn.getSourceFile().getFilePath());
    this.targets = targets.map(t => t.await);
    for (const t of targets) this.nameOf.set(t.await, t.name);
  }

  /** An async function with a block body: hoisted statements have a place to go and may await. */
  hoistable(): boolean {
    const body = this.fn.getBody();
    return body !== undefined && Node.isBlock(body) && (this.fn as unknown as { isAsync(): boolean }).isAsync();
  }

  /** The statements that hold an await this pass should hoist, outermost first. */
  statements(): Statement[] {
    const found = new Set<Statement>();
    for (const t of this.targets) {
      const st = t.getFirstAncestor(a => Node.isStatement(a) && !Node.isBlock(a)) as Statement | undefined;
      if (st) found.add(st);
    }
    return [...found].filter(st => this.needsHoisting(st)).sort((a, b) => a.getStart() - b.getStart());
  }

  /** Targets directly in this statement (not in statements nested in it). */
  private targetsOf(st: Statement): AwaitExpression[] {
    return this.targets.filter(t => t.getFirstAncestor(a => Node.isStatement(a) && !Node.isBlock(a)) === st);
  }

  private contains(n: Node): boolean {
    return this.targets.some(t => t.getStart() >= n.getStart() && t.getEnd() <= n.getEnd() && t.getFirstAncestor(a => a === n) !== undefined) || this.targets.includes(n as AwaitExpression);
  }

  private isTarget(n: Node): n is AwaitExpression {
    return this.targets.includes(n as AwaitExpression);
  }

  /** What the analysis refuses and this pass can do something about. */
  private needsHoisting(st: Statement): boolean {
    const targets = this.targetsOf(st);
    if (targets.length === 0) return false;
    if (this.others.some(o => o.getFirstAncestor(a => Node.isStatement(a) && !Node.isBlock(a)) === st)) return false;
    const parent = st.getParent();
    if (!parent || !(inStatementList(st) || braceable(st))) return false;
    if (Node.isVariableStatement(st) && st.getDeclarations().length !== 1) return false;
    if (this.settled) return targets.length > 1 || !this.settled(targets[0]!);
    return targets.length > 1 || !this.simple(targets[0]!, st);
  }

  /** One await that the analysis splits as it is: not conditional inside `within`, nothing with an effect evaluated before it. */
  private simple(target: AwaitExpression, within: Node): boolean {
    if (this.settled) return skipParens(within) === target;
    for (let n: Node | undefined = target.getParent(); n && n !== within; n = n.getParent()) {
      if (Node.isConditionalExpression(n)) return false;
      if (isShortCircuit(n) && n.getRight().getStart() <= target.getStart()) return false;
    }
    return !within.getDescendants().some(d => d.getEnd() <= target.getStart() && isEffect(d) && !insideFunction(d, within));
  }

  hoist(st: Statement): Edit[] {
    // `if (c) return f(await a, await b);` gets braces to hold the hoisted statements.
    const wrap = !inStatementList(st);
    if (wrap && (Node.isIfStatement(st) || Node.isSwitchStatement(st) || multilineTemplateIn(st))) throw new NoHoist();
    const indent = wrap ? `${indentOf(st)}  ` : indentOf(st);
    const whole = (codes: Code[]): Edit[] => [
      { start: st.getStart(), end: st.getEnd(), ...(wrap ? cat('{\n', indent, lines(codes, indent), `\n${indentOf(st)}}`) : lines(codes, indent)) }
    ];
    const withPre = (pre: Code[], residual: string): Edit[] => whole([...pre, code(wrap ? residual.replace(/\n/g, '\n  ') : residual)]);
    const replaced = (node: Node, text: string) => st.getText().slice(0, node.getStart() - st.getStart()) + text + st.getText().slice(node.getEnd() - st.getStart());

    if (Node.isVariableStatement(st)) {
      const decl = st.getDeclarations()[0]!;
      const init = decl.getInitializer();
      if (!init) throw new NoHoist();
      const inner = skipParens(init);
      const name = decl.getNameNode();
      if (Node.isIdentifier(name) && this.branchesAwait(inner) && !inner.getDescendantsOfKind(SyntaxKind.Identifier).some(i => i.getText() === name.getText())) {
        const declared = decl.getTypeNode()?.getText() ?? (this.js ? undefined : printableType(decl, this.fn));
        return whole(this.declareInto(name.getText(), declared, inner, indent, st.getDeclarationKind() === 'var' ? 'var' : 'let'));
      }
      const lifted = this.lift(init, indent);
      return withPre(lifted.pre, replaced(init, lifted.text));
    }
    if (Node.isExpressionStatement(st)) {
      const e = skipParens(st.getExpression());
      if (this.branchesAwait(e)) return whole(this.liftTo(e, { kind: 'discard' }, indent));
      if (Node.isBinaryExpression(e) && isAssignment(e)) {
        const left = e.getLeft();
        if (this.contains(left) || !this.assignable(left)) throw new NoHoist();
        const right = skipParens(e.getRight());
        if (e.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) throw new NoHoist();
        if (Node.isIdentifier(left) && this.branchesAwait(right)) return whole(this.liftTo(right, { kind: 'into', name: left.getText() }, indent));
        const lifted = this.lift(e.getRight(), indent);
        return withPre(lifted.pre, replaced(e.getRight(), lifted.text));
      }
      const lifted = this.lift(st.getExpression(), indent);
      return withPre(lifted.pre, replaced(st.getExpression(), lifted.text));
    }
    if (Node.isReturnStatement(st) || Node.isThrowStatement(st)) {
      const e = st.getExpression();
      if (!e) throw new NoHoist();
      if (Node.isReturnStatement(st) && this.branchesAwait(skipParens(e))) return whole(this.liftTo(skipParens(e), { kind: 'return' }, indent));
      const lifted = this.lift(e, indent);
      return withPre(lifted.pre, replaced(e, lifted.text));
    }
    if (Node.isIfStatement(st) || Node.isSwitchStatement(st)) {
      // Only the head is evaluated before the statement: the rest keeps its text (and its own edits).
      const head = st.getExpression();
      const lifted = this.lift(head, indent);
      const pre = lines(lifted.pre, indent);
      return [
        { start: st.getStart(), end: st.getStart(), text: `${pre.text}\n${indent}`, marks: pre.marks },
        { start: head.getStart(), end: head.getEnd(), text: lifted.text, marks: [] }
      ];
    }
    throw new NoHoist();
  }

  /** A conditional or short-circuit whose branch (not its test) awaits a request. */
  private branchesAwait(e: Node): boolean {
    if (Node.isConditionalExpression(e)) return this.contains(e.getWhenTrue()) || this.contains(e.getWhenFalse());
    return isShortCircuit(e) && this.contains(e.getRight());
  }

  /** The left side of an assignment that is the same place after the awaits: a name, or a property of a constant. */
  private assignable(left: Node): boolean {
    if (Node.isIdentifier(left)) return true;
    if (Node.isPropertyAccessExpression(left) && !left.hasQuestionDotToken()) return this.constant(left.getExpression());
    return false;
  }

  /**
   * `let name!: type;`, then the statements that assign the value of `e` to it (`!`: the phase that
   * suspends before the assignment carries the variable unassigned, which the checker cannot see through).
   */
  private declareInto(name: string, type: string | undefined, e: Node, indent: string, keyword: 'let' | 'var'): Code[] {
    return [code(`${keyword} ${name}${type ? `!: ${type}` : ''};`), ...this.liftTo(e, { kind: 'into', name }, indent)];
  }

  /** A fresh variable holding the value of a conditional `e`. */
  private temporary(e: Node, indent: string): Lifted {
    const name = this.awaitName();
    const type = this.js ? undefined : printableType(e, this.fn);
    return { pre: this.declareInto(name, type, e, indent, 'let'), text: name, stable: true };
  }

  private awaitName(): string {
    return this.fresh(`mcpAwait${++this.awaitCount}`);
  }

  /**
   * The statements that evaluate `e` and hand its value to `sink`, each await of a request under
   * the condition that sends it (that branch first).
   */
  private liftTo(e: Node, sink: Sink, indent: string): Code[] {
    const put = (value: Code, pure: boolean): Code[] =>
      sink.kind === 'into' ? [cat(`${sink.name} = `, value, ';')] : sink.kind === 'return' ? [cat('return ', value, ';')] : pure ? [] : [cat(value, ';')];
    const inner = `${indent}  `;
    if (!this.contains(e)) return put(this.moved(e, indent), this.constant(e));
    // The analysis splits `x = <e>;` as it is.
    if (this.isTarget(e) || (!this.branchesAwait(e) && this.simpleValue(e))) return put(this.moved(e, indent), false);
    if (Node.isConditionalExpression(e) && this.branchesAwait(e)) {
      const test = this.lift(e.getCondition(), indent);
      const whenTrue = this.liftTo(skipParens(e.getWhenTrue()), sink, inner);
      const whenFalse = this.liftTo(skipParens(e.getWhenFalse()), sink, inner);
      const ifTrue = block(`if (${test.text})`, whenTrue, indent);
      return [...test.pre, whenFalse.length > 0 ? block(cat(ifTrue, ' else'), whenFalse, indent) : ifTrue];
    }
    if (isShortCircuit(e) && this.branchesAwait(e)) {
      const op = e.getOperatorToken().getKind();
      const left = this.lift(e.getLeft(), indent);
      const pre = [...left.pre];
      let value = left.text;
      // The left value is tested, then (when it short-circuits) is the result: read it once.
      if (sink.kind !== 'discard' && !left.stable) {
        const name = this.fresh(valueName(e.getLeft()));
        pre.push(cat(`const ${name} = `, left.pre.length > 0 ? code(value) : this.moved(e.getLeft(), indent), ';'));
        value = name;
      }
      const grouped = /^[\w$.?]+$/.test(value) ? value : `(${value})`;
      const test = op === SyntaxKind.AmpersandAmpersandToken ? value : op === SyntaxKind.BarBarToken ? `!${grouped}` : `${grouped} == null`;
      const sends = this.liftTo(skipParens(e.getRight()), sink, inner);
      const otherwise = put(code(value), true);
      const ifSends = block(`if (${test})`, sends, indent);
      return [...pre, otherwise.length > 0 ? block(cat(ifSends, ' else'), otherwise, indent) : ifSends];
    }
    const lifted = this.lift(e, indent);
    return [...lifted.pre, ...put(code(lifted.text), lifted.stable)];
  }

  /** `e` holds one await of a request, evaluated unconditionally and after nothing with an effect. */
  private simpleValue(e: Node): boolean {
    const inside = this.targets.filter(t => t.getFirstAncestor(a => a === e));
    return inside.length === 1 && this.simple(inside[0]!, e);
  }

  /**
   * Statements that evaluate what `e` evaluates up to its last await of a request, in order, and
   * the text that gives its value after them.
   */
  private lift(e: Node, indent: string): Lifted {
    if (!this.contains(e)) return { pre: [], text: e.getText(), stable: this.constant(e) };
    if (this.isTarget(e)) {
      const call = skipParens(e.getExpression());
      if (this.contains(call)) throw new NoHoist(); // a request in another's arguments
      const name = this.fresh(this.nameOf.get(e)!);
      const moved = this.moved(e, indent);
      return { pre: [cat(`const ${name} = `, moved, ';')], text: name, stable: true };
    }
    if (Node.isParenthesizedExpression(e)) {
      const inner = this.lift(e.getExpression(), indent);
      return /^[\w$]+$/.test(inner.text) ? inner : { ...inner, text: `(${inner.text})` };
    }
    if (Node.isConditionalExpression(e) || isShortCircuit(e)) {
      if (this.branchesAwait(e)) return this.temporary(e, indent);
      return this.sequence(e, [Node.isConditionalExpression(e) ? e.getCondition() : e.getLeft()], indent);
    }
    if (Node.isAsExpression(e) || Node.isNonNullExpression(e) || Node.isSatisfiesExpression(e) || Node.isTypeAssertion(e)) {
      const inner = this.lift(e.getExpression(), indent);
      return { pre: inner.pre, text: this.replace(e, [[e.getExpression(), inner.text]]), stable: inner.stable };
    }
    if (Node.isPropertyAccessExpression(e)) {
      const object = this.lift(e.getExpression(), indent);
      return { pre: object.pre, text: this.replace(e, [[e.getExpression(), object.text]]), stable: object.stable };
    }
    if (Node.isCallExpression(e) || Node.isNewExpression(e)) {
      const args = e.getArguments();
      if (Node.isCallExpression(e) && isOptionalChain(e) && args.some(a => this.contains(a))) throw new NoHoist();
      const callee = e.getExpression();
      // A method keeps its receiver: the object is evaluated in order, the method read with the call.
      const head = Node.isPropertyAccessExpression(callee) && !this.contains(callee.getNameNode()) ? [callee.getExpression()] : Node.isElementAccessExpression(callee) ? [callee.getExpression(), callee.getArgumentExpression()!] : [callee];
      if (Node.isSuperExpression(callee) || callee.getKind() === SyntaxKind.ImportKeyword) throw new NoHoist();
      return this.sequence(e, [...head, ...args], indent);
    }
    if (Node.isElementAccessExpression(e)) {
      if (isOptionalChain(e) && this.contains(e.getArgumentExpression()!)) throw new NoHoist();
      return this.sequence(e, [e.getExpression(), e.getArgumentExpression()!], indent);
    }
    if (Node.isBinaryExpression(e)) {
      if (isAssignment(e)) throw new NoHoist();
      return this.sequence(e, [e.getLeft(), e.getRight()], indent);
    }
    if (Node.isPrefixUnaryExpression(e)) {
      const op = e.getOperatorToken();
      if (op === SyntaxKind.PlusPlusToken || op === SyntaxKind.MinusMinusToken) throw new NoHoist();
      return this.sequence(e, [e.getOperand()], indent);
    }
    if (Node.isTypeOfExpression(e) || Node.isVoidExpression(e) || Node.isAwaitExpression(e) || Node.isSpreadElement(e)) return this.sequence(e, [e.getExpression()], indent);
    if (Node.isTemplateExpression(e)) return this.sequence(e, e.getTemplateSpans().map(s => s.getExpression()), indent);
    if (Node.isArrayLiteralExpression(e)) return this.sequence(e, e.getElements().filter(x => !Node.isOmittedExpression(x)), indent);
    if (Node.isObjectLiteralExpression(e)) {
      const parts: Node[] = [];
      for (const p of e.getProperties()) {
        if (Node.isPropertyAssignment(p)) {
          const name = p.getNameNode();
          if (Node.isComputedPropertyName(name)) parts.push(name.getExpression());
          parts.push(p.getInitializerOrThrow());
        } else if (Node.isShorthandPropertyAssignment(p)) parts.push(p.getNameNode());
        else if (Node.isSpreadAssignment(p)) parts.push(p.getExpression());
        else if (this.contains(p)) throw new NoHoist();
      }
      return this.sequence(e, parts, indent);
    }
    throw new NoHoist();
  }

  /**
   * `e` evaluates `parts` in this order: up to the last one holding an await of a request, each is
   * lifted, and read into a constant when its value could differ once the later awaits ran; the
   * ones after it are evaluated where they are.
   */
  private sequence(e: Node, parts: Node[], indent: string): Lifted {
    const last = parts.map(p => this.contains(p)).lastIndexOf(true);
    const pre: Code[] = [];
    const replacements: [Node, string][] = [];
    parts.forEach((part, i) => {
      if (i > last) return;
      const lifted = this.lift(part, indent);
      pre.push(...lifted.pre);
      let text = lifted.text;
      if (i < last && !lifted.stable) {
        const name = this.fresh(valueName(part));
        pre.push(cat(`const ${name} = `, lifted.pre.length > 0 ? code(text) : this.moved(part, indent), ';'));
        text = name;
      }
      if (text !== part.getText()) {
        const shorthand = Node.isShorthandPropertyAssignment(part.getParent()) && Node.isIdentifier(part);
        replacements.push([part, shorthand ? `${part.getText()}: ${text}` : text]);
      }
    });
    return { pre, text: this.replace(e, replacements), stable: false };
  }

  private replace(e: Node, replacements: [Node, string][]): string {
    let text = e.getText();
    for (const [node, value] of [...replacements].sort((a, b) => b[0].getStart() - a[0].getStart())) {
      text = text.slice(0, node.getStart() - e.getStart()) + value + text.slice(node.getEnd() - e.getStart());
    }
    return text;
  }

  /**
   * Evaluating `e` later gives the same value and has no effect: literals, names that are never
   * reassigned (constants, imports, functions, parameters, globals), functions, and compositions.
   */
  private constant(e: Node): boolean {
    const known = this.constants.get(e);
    if (known !== undefined) return known;
    const value = this.computeConstant(e);
    this.constants.set(e, value);
    return value;
  }

  private computeConstant(e: Node): boolean {
    if (
      Node.isStringLiteral(e) ||
      Node.isNumericLiteral(e) ||
      Node.isNoSubstitutionTemplateLiteral(e) ||
      Node.isTrueLiteral(e) ||
      Node.isFalseLiteral(e) ||
      Node.isNullLiteral(e) ||
      Node.isBigIntLiteral(e) ||
      Node.isArrowFunction(e) ||
      Node.isFunctionExpression(e) ||
      e.getKind() === SyntaxKind.ThisKeyword
    ) {
      return true;
    }
    if (Node.isIdentifier(e)) return this.unchangingName(e);
    if (Node.isParenthesizedExpression(e) || Node.isAsExpression(e) || Node.isNonNullExpression(e) || Node.isSatisfiesExpression(e) || Node.isTypeOfExpression(e)) return this.constant(e.getExpression());
    if (Node.isPrefixUnaryExpression(e)) return [SyntaxKind.ExclamationToken, SyntaxKind.MinusToken, SyntaxKind.PlusToken, SyntaxKind.TildeToken].includes(e.getOperatorToken()) && this.constant(e.getOperand());
    if (Node.isTemplateExpression(e)) return e.getTemplateSpans().every(s => this.constant(s.getExpression()) && primitive(s.getExpression()));
    if (Node.isBinaryExpression(e)) return !isAssignment(e) && this.constant(e.getLeft()) && this.constant(e.getRight()) && primitive(e.getLeft()) && primitive(e.getRight());
    if (Node.isConditionalExpression(e)) return this.constant(e.getCondition()) && this.constant(e.getWhenTrue()) && this.constant(e.getWhenFalse());
    if (Node.isArrayLiteralExpression(e)) return e.getElements().every(x => !Node.isSpreadElement(x) && this.constant(x));
    if (Node.isObjectLiteralExpression(e)) {
      return e.getProperties().every(p =>
        Node.isPropertyAssignment(p) ? !Node.isComputedPropertyName(p.getNameNode()) && this.constant(p.getInitializerOrThrow()) : Node.isShorthandPropertyAssignment(p) ? this.constant(p.getNameNode()) : false
      );
    }
    return false;
  }

  private unchangingName(id: import('ts-morph').Identifier): boolean {
    if (id.getText() === 'undefined') return true;
    const decls = id.getSymbol()?.getDeclarations() ?? [];
    if (decls.length === 0) return false;
    return decls.every(d => {
      if (d.getSourceFile().isDeclarationFile()) return true;
      if (Node.isImportSpecifier(d) || Node.isImportClause(d) || Node.isNamespaceImport(d) || Node.isImportEqualsDeclaration(d)) return true;
      if (Node.isFunctionDeclaration(d) || Node.isClassDeclaration(d) || Node.isEnumDeclaration(d)) return !reassigned(id, d);
      const list = d.getFirstAncestorByKind(SyntaxKind.VariableDeclarationList);
      if ((Node.isVariableDeclaration(d) || Node.isBindingElement(d)) && list) return list.getDeclarationKind() === 'const' || !reassigned(id, d);
      if (Node.isParameterDeclaration(d) || (Node.isBindingElement(d) && d.getFirstAncestorByKind(SyntaxKind.Parameter))) return !reassigned(id, d);
      return false;
    });
  }

  /** The text of `n`, its continuation lines re-indented for a statement at `indent` (template literals are left as they are). */
  private moved(n: Node, indent: string): Code {
    const text = n.getText();
    const marks = this.targets
      .filter(t => t === n || t.getFirstAncestor(a => a === n))
      .map(t => skipParens(t.getExpression()).getStart())
      .map(from => ({ at: from - n.getStart(), from }));
    const rows = text.split('\n');
    const multilineTemplate = n.getDescendants().some(d => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n'));
    if (rows.length === 1 || multilineTemplate) return { text, marks };
    const rest = rows.slice(1).filter(r => r.trim() !== '');
    const least = Math.min(...rest.map(r => /^[ \t]*/.exec(r)![0].length));
    const closes = /^\s*[\])}]/.test(rows[rows.length - 1]!);
    const shift = indent.length + (closes ? 0 : 2) - least;
    // Each row's start before and after, to carry the marks along.
    const starts: { before: number; after: number; shift: number }[] = [];
    let before = 0;
    let after = 0;
    const shifted = rows.map((r, i) => {
      const by = i === 0 || r.trim() === '' ? 0 : shift >= 0 ? shift : -Math.min(-shift, /^[ \t]*/.exec(r)![0].length);
      starts.push({ before, after, shift: by });
      before += r.length + 1;
      after += r.length + by + 1;
      return by >= 0 ? ' '.repeat(by) + r : r.slice(-by);
    });
    const carried = marks.map(m => {
      const row = [...starts].reverse().find(x => x.before <= m.at)!;
      return { at: row.after + row.shift + (m.at - row.before), from: m.from };
    });
    return { text: shifted.join('\n'), marks: carried };
  }
}

/** What a hoisted request's result is called (`answer`, then `answer2`...). */
const RESULT_NAMES: Partial<Record<Site['kind'], string>> = { elicitation: 'answer', 'elicitation-url': 'answer', sampling: 'sample', roots: 'rootList' };

/** A statement of a block or a `case`: hoisted statements go before it. */
function inStatementList(st: Statement): boolean {
  const parent = st.getParent();
  return parent !== undefined && (Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent));
}

/** The body of an `if`/`else` or a loop, written on the same line: it can be given braces. */
function braceable(st: Statement): boolean {
  const parent = st.getParent();
  const body = parent && (Node.isIfStatement(parent) || Node.isIterationStatement(parent));
  return body === true && !st.getSourceFile().getFullText().slice(st.getPos(), st.getStart()).includes('\n');
}

function multilineTemplateIn(n: Node): boolean {
  return n.getDescendants().some(d => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n'));
}

function skipParensUp(n: Node): Node {
  let cur = n;
  while (cur.getParent() && Node.isParenthesizedExpression(cur.getParent()!)) cur = cur.getParent()!;
  return cur;
}

function isOptionalChain(n: Node): boolean {
  for (let cur: Node | undefined = n; cur; ) {
    if ((Node.isPropertyAccessExpression(cur) || Node.isElementAccessExpression(cur) || Node.isCallExpression(cur)) && cur.hasQuestionDotToken()) return true;
    cur = Node.isPropertyAccessExpression(cur) || Node.isElementAccessExpression(cur) || Node.isCallExpression(cur) || Node.isNonNullExpression(cur) ? cur.getExpression() : undefined;
  }
  return false;
}

/** Whether a value of this expression's type converts to a string or number without running code. */
function primitive(e: Node): boolean {
  const t = e.getType();
  const parts = t.isUnion() ? t.getUnionTypes() : [t];
  return parts.every(p => p.isString() || p.isNumber() || p.isBoolean() || p.isLiteral() || p.isNull() || p.isUndefined() || p.isStringLiteral() || p.isNumberLiteral() || p.isBooleanLiteral() || p.isTemplateLiteral() || p.isEnumLiteral());
}

/** A readable name for a value read before an await: the property read, the function called. */
function valueName(part: Node): string {
  const e = skipParens(part);
  if (Node.isPropertyAccessExpression(e)) return e.getName();
  if (Node.isCallExpression(e)) {
    const callee = e.getExpression();
    const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : Node.isIdentifier(callee) ? callee.getText() : undefined;
    if (name) return `${name}Result`;
  }
  if (Node.isIdentifier(e)) return `${e.getText()}Before`;
  return 'mcpValue';
}

/** The name is assigned somewhere in its file (so its value can change between two reads). */
function reassigned(id: Node, decl: Node): boolean {
  const name = id.getText();
  return id.getSourceFile().getDescendantsOfKind(SyntaxKind.Identifier).some(ref => {
    if (ref.getText() !== name) return false;
    const p = ref.getParent();
    const writes =
      (Node.isBinaryExpression(p) && p.getLeft() === ref && isAssignment(p)) ||
      ((Node.isPrefixUnaryExpression(p) || Node.isPostfixUnaryExpression(p)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(p.getOperatorToken())) ||
      // a destructuring assignment target: `[x] = ...`, `({ x } = ...)`
      ((Node.isArrayLiteralExpression(p) || Node.isShorthandPropertyAssignment(p)) && ref.getFirstAncestor(a => Node.isBinaryExpression(a) && isAssignment(a) && a.getLeft().getStart() <= ref.getStart() && ref.getEnd() <= a.getLeft().getEnd()) !== undefined);
    return writes && ref.getSymbol()?.getDeclarations()[0] === decl;
  });
}
