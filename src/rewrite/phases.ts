/**
 * The text of a handler's phases. A phase is a statement list that runs as written until a suspension,
 * which returns input_required. Besides the original statements it prints synthetic ones: lines of
 * code, a chain of `head { body }` segments (an if/else chain, a try, a loop, a labelled block), a
 * suspended statement resumed (its awaits replaced by the answers) and a switch split by case.
 */
import type { HandlerPlan, LoopPlan, Range, RequestPlan, SuspensionPlan, SwitchPlan } from '../plan.js';
import { boundCallMethods, stateExports } from '../stateModule.js';
import type { AnyNode, Edit, RewriteContext } from './context.js';
import { astOf, jumps, within } from './flow.js';
import { fieldName } from './steps.js';
import { columnIndent, leadingStart, MARKER_TEXT, propertyKey, reindent, trailingEnd } from './text.js';

export type PhaseStatement =
  /** A statement of the handler, printed as written (or split, when it holds a suspension). */
  | { kind: 'original'; node: AnyNode; remade?: boolean }
  /** Lines the rewrite writes, each at the list's indentation. */
  | { kind: 'lines'; lines: string[] }
  /** `head { body } head { body }...tail`, with edits of its own for the statements of its bodies. */
  | { kind: 'chain'; chain: Segment[]; tail?: string; edits?: Edit[] }
  /** A suspended statement, its awaits replaced by the round's answers. */
  | { kind: 'resumed'; node: AnyNode }
  /** A switch whose cases are split into phases. */
  | { kind: 'switch'; node: AnyNode };

/** One `head { body }` part of a printed chain; `finallyOf` marks a finally block, guarded when its try can suspend. */
export interface Segment {
  head: string;
  body: PhaseStatement[];
  finallyOf?: AnyNode;
}

export const originals = (nodes: AnyNode[]): PhaseStatement[] => nodes.map(node => ({ kind: 'original', node }));
export const lines = (...text: string[]): PhaseStatement => ({ kind: 'lines', lines: text });
export const chain = (...segments: Segment[]): PhaseStatement => ({ kind: 'chain', chain: segments });
/** A statement's own list: a block's statements, or the statement alone. */
export const listOf = (st: AnyNode): PhaseStatement[] => originals(st.type === 'BlockStatement' ? st.body : [st]);

/** The names a handler's phases are written with. */
export interface PhaseNames {
  /** The context parameter. */
  ctx: string;
  /** The arrow's parameter: the step the call resumed at. */
  resumed: string;
  /** The bound call (`resumeCall(...)`). */
  call: string;
  /** For each round whose requests are built before its state is sealed (`requestsFirst`), the const they are built in. */
  requests?: Map<SuspensionPlan, string>;
}

/** Where a round's requests go in its return: a placeholder that the shared builder or the request itself replaces later. */
export type RequestPlaceholder = (request: RequestPlan, indent: string) => string;

/** Prints a handler's statements into phases; one per handler, as its rewrite needs the handler's plan and names throughout. */
export class Phases {
  /** Each suspension by the start of its first statement: where a phase returns its round. */
  readonly groupByFirst = new Map<number, SuspensionPlan>();
  readonly guard: HandlerPlan['finallyGuard'];
  /** The line a suspending round inside a try with a finally sets its flag with, just before it returns. */
  readonly flagSet: RegExp | undefined;
  /** The declarations nothing reads any more, dropped whole, by start: left out of every phase. */
  private readonly dropped = new Set<number>();
  /** Handles made again on resume that nothing reads where they were first made, by start: there, only their effect. */
  private readonly unreadWhereMade = new Map<number, Range | undefined>();

  constructor(
    readonly cx: RewriteContext,
    readonly h: HandlerPlan,
    readonly body: AnyNode,
    readonly names: PhaseNames,
    /** Markers for sites left in the handler, and its capability reads: they travel with the statement text into every phase. */
    readonly markerEdits: Edit[],
    private readonly placeholder: RequestPlaceholder,
  ) {
    for (const s of h.suspensions) this.groupByFirst.set(s.statements[0]!.start, s);
    for (const d of h.dropped ?? []) if (d.whole) this.dropped.add(d.range.start);
    for (const u of h.unreadWhereMade ?? []) this.unreadWhereMade.set(u.range.start, u.keep);
    this.guard = h.finallyGuard;
    this.flagSet = this.guard ? new RegExp(`^\\s*${this.guard.flag} = true;$`, 'm') : undefined;
  }

  /** A statement list for a phase: runs as written until a suspension, which returns input_required. */
  gen(stmts: PhaseStatement[], indent: string, edits: Edit[] = []): string[] {
    const out: string[] = [];
    for (const [i, st] of stmts.entries()) {
      if (st.kind !== 'original') {
        out.push(...this.synthetic(st, indent, edits));
        continue;
      }
      const node = st.node;
      // A declaration nothing reads any more goes, with the comments that lead it.
      if (this.dropped.has(node.start)) continue;
      if (!st.remade && this.unreadWhereMade.has(node.start)) {
        const keep = this.unreadWhereMade.get(node.start);
        // First, so that a marker inserted at the statement's start stays before what is left of it.
        if (keep) out.push(this.stmtText(node, indent, [{ range: { start: node.start, end: keep.start }, text: '' }, ...edits.filter(e => within(e.range, node))]));
        continue;
      }
      const group = this.groupByFirst.get(node.start);
      if (group) {
        out.push(this.suspendReturn(group, indent));
        return out;
      }
      if (!this.containsSuspension(node)) {
        out.push(this.stmtText(node, indent, edits.filter(e => within(e.range, node))));
        continue;
      }
      out.push(...this.gen(this.structural(node), indent, edits));
      // A try whose block (and catch) end in this round's return, or a block (an inlined helper's
      // labelled one) that reaches it on every path: what follows cannot run here.
      const rest = stmts.slice(i + 1);
      const ends = node.type === 'TryStatement' ? this.exits(originals(node.block.body)) && (!node.handler || this.exits(originals(node.handler.body.body))) : this.reachesSuspension(node);
      if (ends && !rest.some(r => r.kind === 'original' && r.node.type === 'FunctionDeclaration')) return out;
    }
    return out;
  }

  private synthetic(st: Exclude<PhaseStatement, { kind: 'original' }>, indent: string, edits: Edit[]): string[] {
    switch (st.kind) {
      case 'lines':
        return st.lines.map(l => indent + l);
      case 'chain':
        return [this.chainText(st, indent, edits)];
      case 'resumed':
        return [this.stmtText(st.node, indent, edits.filter(e => within(e.range, st.node)))];
      case 'switch':
        return [this.switchText(st.node, indent, edits)];
    }
  }

  private chainText(st: Extract<PhaseStatement, { kind: 'chain' }>, indent: string, edits: Edit[]): string {
    const { guard, flagSet } = this;
    const all = [...edits, ...(st.edits ?? [])];
    const segments: string[] = [];
    for (const seg of st.chain) {
      // A finally runs as written unless a round can suspend in its try or catch.
      const suspends = seg.finallyOf !== undefined && flagSet !== undefined && segments.some(text => flagSet.test(text))
        && !(guard!.perPhase ?? []).some(r => r.start === seg.finallyOf.start && r.end === seg.finallyOf.end);
      const segBody = suspends ? [chain({ head: `if (!${guard!.flag})`, body: seg.body })] : seg.body;
      segments.push(`${segments.length === 0 ? indent : ' '}${seg.head === '' ? '' : `${seg.head} `}{\n${this.gen(segBody, indent + this.cx.unit, all).join('\n')}\n${indent}}`);
    }
    return segments.join('') + (st.tail ?? '');
  }

  private switchText(st: AnyNode, indent: string, edits: Edit[]): string {
    const text = [`${indent}switch (${this.src(st.discriminant)}) {`];
    for (const c of st.cases) {
      text.push(`${indent}${c.test ? `case ${this.src(c.test)}:` : 'default:'}`, ...this.gen(originals(c.consequent), indent + this.cx.unit, edits));
    }
    text.push(`${indent}}`);
    return text.join('\n');
  }

  /** A statement as written (with its leading and trailing comments), moved to `indent`, with edits inside it applied. */
  stmtText(node: AnyNode, indent: string, edits: Edit[] = []): string {
    const { source } = this.cx;
    const start = leadingStart(source, node);
    let text = source.slice(start, trailingEnd(source, node.end));
    for (const e of [...edits].sort((a, b) => b.range.start - a.range.start)) {
      text = text.slice(0, e.range.start - start) + e.text + text.slice(e.range.end - start);
    }
    return indent + reindent(text, columnIndent(source, start), indent);
  }

  /** The return of a round: its state sealed with the locals it carries, and its requests. */
  suspendReturn(s: SuspensionPlan, indent: string): string {
    const { cx, guard } = this;
    const { ctx, call } = this.names;
    const i1 = indent + cx.unit;
    const requests = s.requests.map(r => `${i1}${propertyKey(r.key)}: ${this.placeholder(r, i1)},`).join('\n');
    const carried = s.live.filter(l => !l.answered);
    const state = `{ step: ${cx.stringLiteral(s.step)}${carried.map(l => `, ${fieldName(l) === l.name ? l.name : `${fieldName(l)}: ${l.name}`}`).join('')} }`;
    const kinds = [...new Set(s.requests.map(r => (r.kind === 'elicitation-url' ? 'elicitation' : r.kind)))].map(k => cx.stringLiteral(k));
    // Inside a try with a finally, the flag is set once the round is built (what builds it may
    // still throw, and then the finally must run), right before the return it lets through.
    const flagged = s.guardsFinally && guard;
    // Requests whose arguments change a carried local are built first, as the await evaluated them before it
    // suspended: sealed after them, the state holds the locals as changed.
    const first = s.requestsFirst ? this.names.requests?.get(s) : undefined;
    const head = `${indent}${flagged ? `const ${guard.round} = await` : s.insideTry ? 'return await' : 'return'} ${call}.${boundCallMethods.suspend}(${state}, `;
    return [
      ...s.requests.filter(r => r.unwrapped).map(r => `${indent}// ${MARKER_TEXT} ${r.unwrapped!.note}`),
      ...(first ? [`${indent}const ${first} = {`, requests, `${indent}};`, ...this.besides(s, indent)] : []),
      // After the requests are built: the legacy await found the client's support missing once its arguments ran.
      ...(s.insideTry ? [`${indent}${cx.use('state', stateExports.requireSupport)}(${ctx}, [${kinds.join(', ')}]);`] : []),
      // Inside a try the round is awaited, so that its catch sees what sealing the state throws.
      ...(first ? [`${head}${first});`] : [`${head}{`, requests, `${indent}});`]),
      ...(flagged ? [`${indent}${guard.flag} = true;`, `${indent}return ${guard.round};`] : [])
    ].join('\n');
  }

  /**
   * The Promise.all's elements that are not requests, awaited as it awaited them, after the requests' arguments ran
   * (`const awaitedRecord = await loadRecord(id);`, several in a Promise.all of their own), their values carried.
   */
  private besides(s: SuspensionPlan, indent: string): string[] {
    const besides = s.besides ?? [];
    if (besides.length === 0) return [];
    const texts = besides.map(b => this.rangeText(b.range, indent));
    if (besides.length === 1) return [`${indent}const ${besides[0]!.name} = await ${texts[0]};`];
    return [`${indent}const [${besides.map(b => b.name).join(', ')}] = await Promise.all([${texts.join(', ')}]);`];
  }

  /** The source of an expression, the edits inside it applied, moved to `indent`. */
  private rangeText(r: Range, indent: string): string {
    const { source } = this.cx;
    let text = source.slice(r.start, r.end);
    for (const e of this.markerEdits.filter(e => within(e.range, r)).sort((a, b) => b.range.start - a.range.start)) {
      text = text.slice(0, e.range.start - r.start) + e.text + text.slice(e.range.end - r.start);
    }
    return reindent(text, columnIndent(source, r.start), indent);
  }

  /** A statement that contains a suspension, as synthetic statements whose bodies gen splits further. */
  structural(st: AnyNode): PhaseStatement[] {
    switch (st.type) {
      case 'IfStatement':
        return [chain(...this.ifChain(st))];
      case 'BlockStatement':
        return [chain({ head: '', body: originals(st.body) })];
      case 'TryStatement':
        return [chain({ head: 'try', body: originals(st.block.body) }, ...this.catchSegment(st), ...this.finallySegment(st))];
      case 'SwitchStatement':
        return [{ kind: 'switch', node: st }];
      case 'LabeledStatement':
        return [chain({ head: `${st.label.name}:`, body: listOf(st.body) })];
      case 'ForInStatement':
      case 'ForOfStatement':
        return this.enteredOnce(st) ? this.snapshotOnce(st) : this.snapshotLoop(st);
      case 'ForStatement':
      case 'WhileStatement':
        if (this.enteredOnce(st)) return this.loopOnce(st);
        return [chain({ head: this.cx.source.slice(st.start, st.body.start).trimEnd(), body: listOf(st.body) })];
      case 'DoWhileStatement':
        return [{ kind: 'chain', chain: [{ head: 'do', body: listOf(st.body) }], tail: ` while (${this.src(st.test)});` }];
      default:
        throw new Error(`cannot split a ${st.type} into phases`);
    }
  }

  private ifChain(st: AnyNode): Segment[] {
    const segments: Segment[] = [];
    let cur: AnyNode = st;
    for (;;) {
      segments.push({ head: `${segments.length === 0 ? '' : 'else '}if (${this.src(cur.test)})`, body: listOf(cur.consequent) });
      if (cur.alternate?.type === 'IfStatement') cur = cur.alternate;
      else {
        if (cur.alternate) segments.push({ head: 'else', body: listOf(cur.alternate) });
        return segments;
      }
    }
  }

  /** A for...in or for...of over a snapshot of its values, iterated by index, so that a phase can re-enter it at its position. */
  private snapshotLoop(st: AnyNode): PhaseStatement[] {
    const loop = this.loopOf(st)!;
    return [this.snapshot(st, loop), chain({ head: `for (let ${loop.index} = 0; ${loop.index} < ${loop.items}.length; ${loop.index}++)`, body: [this.forOfBinding(st, loop), ...listOf(st.body)] })];
  }

  /**
   * Whether a loop entered from its top always suspends in its first iteration: its body reaches the
   * round's suspension on every path, with nothing before it that can jump. Written as a loop, it
   * would be one whose body never iterates (ESLint's no-unreachable-loop): it is an `if` instead.
   * A loop with no test (`for (;;)`) is left as it is: the statements after it could not run.
   */
  private enteredOnce(st: AnyNode): boolean {
    return (st.type !== 'ForStatement' || Boolean(st.test)) && this.reachesSuspension(st.body);
  }

  /** A for or while loop that suspends in its first iteration: its init, then `if (test)`; a declared init keeps its block scope. */
  private loopOnce(st: AnyNode): PhaseStatement[] {
    const once = chain({ head: `if (${this.src(st.test)})`, body: listOf(st.body) });
    if (st.type !== 'ForStatement' || !st.init) return [once];
    const init = lines(`${this.src(st.init)};`);
    return st.init.type === 'VariableDeclaration' && st.init.kind !== 'var' ? [chain({ head: '', body: [init, once] })] : [init, once];
  }

  /** A for...in or for...of that suspends in its first iteration: over its snapshot's first value, if it has one. */
  private snapshotOnce(st: AnyNode): PhaseStatement[] {
    const loop = this.loopOf(st)!;
    const first = [lines(`const ${loop.index} = 0;`), this.forOfBinding(st, loop), ...listOf(st.body)];
    return [this.snapshot(st, loop), chain({ head: `if (${loop.items}.length > 0)`, body: first })];
  }

  private snapshot(st: AnyNode, loop: LoopPlan): PhaseStatement {
    if (st.type === 'ForOfStatement') return lines(`const ${loop.items} = [...${this.src(st.right)}];`);
    // The keys, listed once up front by the same for...in (so in its order, inherited enumerable keys included).
    const key = this.src(st.left.declarations[0].id);
    return lines(`const ${loop.items}${this.cx.isTs ? ': string[]' : ''} = [];`, `for (const ${key} in ${this.src(st.right)}) ${loop.items}.push(${key});`);
  }

  catchSegment(st: AnyNode): Segment[] {
    return st.handler ? [{ head: st.handler.param ? `catch (${this.src(st.handler.param)})` : 'catch', body: originals(st.handler.body.body) }] : [];
  }

  finallySegment(st: AnyNode): Segment[] {
    return st.finalizer ? [{ head: 'finally', body: originals(st.finalizer.body), finallyOf: st }] : [];
  }

  /** The loop variable, read from the snapshot (and awaited, for a for await...of). */
  forOfBinding(st: AnyNode, loop: Pick<LoopPlan, 'items' | 'index'>): PhaseStatement {
    return lines(`${st.left.kind} ${this.src(st.left.declarations[0].id)} = ${st.await ? 'await ' : ''}${loop.items}[${loop.index}];`);
  }

  /**
   * Whether every path through a block or labelled block ends in this round's suspension: one of
   * its statements suspends (or holds a block that does), and nothing before it can jump out. A try
   * with no catch whose block does, and whose finally cannot jump, ends there too (or throws).
   */
  reachesSuspension(st: AnyNode): boolean {
    if (st.type === 'TryStatement') return !st.handler && this.reachesSuspension(st.block) && !jumps(st.finalizer);
    const list = st.type === 'BlockStatement' ? st.body : st.type === 'LabeledStatement' && st.body.type === 'BlockStatement' ? st.body.body : undefined;
    if (!list) return typeof st.start === 'number' && this.groupByFirst.has(st.start);
    for (const inner of list as AnyNode[]) {
      if (this.reachesSuspension(inner)) return true;
      if (jumps(inner)) return false;
    }
    return false;
  }

  /** Whether the phase code for these statements always ends in a return or throw. */
  exits(stmts: PhaseStatement[]): boolean {
    if (stmts.some(st => st.kind === 'original' && typeof st.node.start === 'number' && this.groupByFirst.has(st.node.start))) return true;
    const node = astOf(stmts[stmts.length - 1]);
    return node !== undefined && (node.type === 'ReturnStatement' || node.type === 'ThrowStatement');
  }

  containsSuspension(node: AnyNode): boolean {
    return typeof node.start === 'number' && this.h.suspensions.some(s => s.statements[0]!.start >= node.start && s.statements[0]!.end <= node.end);
  }

  loopOf(n: AnyNode): LoopPlan | undefined {
    return this.h.loops.find(l => sameRange(l.range, n));
  }

  switchOf(n: AnyNode): SwitchPlan | undefined {
    return this.h.switches.find(l => sameRange(l.range, n));
  }

  src(n: AnyNode): string {
    return this.cx.source.slice(n.start, n.end);
  }
}

function sameRange(r: Range, n: AnyNode): boolean {
  return r.start === n.start && r.end === n.end;
}
