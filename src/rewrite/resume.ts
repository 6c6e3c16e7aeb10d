/**
 * The code that runs when a handler is re-entered after a suspension: the round's statements with each
 * await replaced by its answer, then what follows them, level by level outwards. Locals are restored in
 * the block that declared them, so names keep their scopes.
 */
import type { ASTPath } from 'jscodeshift';
import type { CarriedLocal, Range, RequestPlan, SuspensionPlan } from '../plan.js';
import type { AnyNode, Edit } from './context.js';
import { endsAbruptly, fallsThrough, needsBlock, within } from './flow.js';
import { chain, lines, listOf, originals, type PhaseStatement, type Phases } from './phases.js';
import { fieldName } from './steps.js';
import { MARKER_TEXT } from './text.js';

/** The phase resuming after `s`: its statements (to tell whether it exits) and its lines. */
export function resumePhase(p: Phases, s: SuspensionPlan, indent: string, schemaNames: Map<RequestPlan, string>): { stmts: PhaseStatement[]; lines: string[] } {
  const { cx } = p;
  const edits: Edit[] = s.promiseAll
    ? [{ range: awaitRange(cx.at(s.promiseAll, 'Promise.all')), text: `[${[...s.requests.map(r => readerText(p, r, schemaNames)), ...(s.besides ?? []).map(b => b.name)].join(', ')}]` }]
    : s.requests.map(r => ({ range: r.replace, text: readerText(p, r, schemaNames) }));
  const last = cx.at(s.statements[s.statements.length - 1]!, 'suspended statement');
  const firstNode = cx.at(s.statements[0]!, 'suspended statement').node as AnyNode;
  const placed = new Set<Range>();
  const suspended = new Set(s.statements.map(r => r.start));
  let stmtPath: ASTPath<AnyNode> = last;
  const firstList = siblingsOf(last);
  let inner: PhaseStatement[] = firstList.slice(firstList.indexOf(firstNode)).map(node => (suspended.has(node.start) ? { kind: 'resumed', node } : { kind: 'original', node }));
  for (;;) {
    const parentPath = stmtPath.parent as ASTPath<AnyNode>;
    const parentNode = parentPath.node as AnyNode;
    if (parentNode.type === 'BlockStatement' || parentNode.type === 'SwitchCase') {
      inner = [...restoreLines(p, s.live, parentNode).map(line => lines(line)), ...recomputed(p, s, parentNode, placed), ...inner];
      if (parentNode === p.body) return { stmts: inner, lines: p.gen(inner, indent, [...edits, ...p.markerEdits]) };
    }
    const level = continuation(p, s, stmtPath, inner);
    let enclosing = level.enclosing;
    while ((enclosing.parent.node as AnyNode).type === 'IfStatement') enclosing = enclosing.parent; // else-if chains
    const outerList = siblingsOf(enclosing);
    // The rest of an if's branch (or a bare block) that ends in a return or throw never reaches
    // what follows the if: leave it out of this phase rather than print code that cannot run.
    const after = outerList.slice(outerList.indexOf(enclosing.node) + 1);
    const ends = (level.owner.type === 'IfStatement' || enclosing === parentPath) && endsAbruptly(inner) && !after.some((r: AnyNode) => r.type === 'FunctionDeclaration');
    inner = [...level.wrapped, ...(ends ? [] : originals(after))];
    stmtPath = enclosing;
  }
}

/** The declarations made again on resume in this block (once each), with a note for those that cannot travel. */
function recomputed(p: Phases, s: SuspensionPlan, block: AnyNode, placed: Set<Range>): PhaseStatement[] {
  return s.recompute
    .filter(r => !placed.has(r) && within(r, block))
    .flatMap(r => {
      placed.add(r);
      const local = s.recomputedLocals?.find(l => l.range.start === r.start);
      const note = local ? [lines(`// ${MARKER_TEXT} made again on resume: ${local.what} cannot travel in requestState (review that making it twice is safe)`)] : [];
      return [...note, { kind: 'original' as const, node: p.cx.at(r, 'declaration made again on resume').node, remade: true }];
    });
}

/** The construct one level of the resumed statements belongs to, and the continuation re-entering it. */
function continuation(p: Phases, s: SuspensionPlan, stmtPath: ASTPath<AnyNode>, inner: PhaseStatement[]): { enclosing: ASTPath<AnyNode>; wrapped: PhaseStatement[]; owner: AnyNode } {
  const parentPath = stmtPath.parent as ASTPath<AnyNode>;
  const parentNode = parentPath.node as AnyNode;
  const ownerPath = parentNode.type === 'BlockStatement' ? (parentPath.parent as ASTPath<AnyNode>) : parentPath;
  const owner = ownerPath.node as AnyNode;
  const blockIfNeeded = (stmts: PhaseStatement[]): PhaseStatement[] => (needsBlock(stmts) ? [chain({ head: '', body: stmts })] : stmts);
  if (parentNode.type === 'SwitchCase') {
    const sw = parentPath.parent.node as AnyNode;
    const plan = p.switchOf(sw)!;
    const later = fallsThrough(parentNode) ? sw.cases.slice(sw.cases.indexOf(parentNode) + 1).flatMap((c: AnyNode) => c.consequent) : [];
    const wrapped: PhaseStatement = { kind: 'chain', chain: [{ head: `${plan.label}:`, body: [...inner, ...originals(later)] }], edits: plan.breaks.map(r => ({ range: r, text: `break ${plan.label};` })) };
    return { enclosing: parentPath.parent, wrapped: [wrapped], owner };
  }
  if (owner.type === 'TryStatement' && owner.block === parentNode) {
    return { enclosing: ownerPath, wrapped: [chain({ head: 'try', body: inner }, ...p.catchSegment(owner), ...p.finallySegment(owner))], owner };
  }
  if (owner.type === 'LabeledStatement') return { enclosing: ownerPath, wrapped: [chain({ head: `${owner.label.name}:`, body: inner })], owner };
  if (owner.type === 'CatchClause') {
    // The rest of the catch; its try's finally still follows it.
    const tryNode = ownerPath.parent.node as AnyNode;
    const wrapped = tryNode.finalizer ? [chain({ head: 'try', body: inner }, ...p.finallySegment(tryNode))] : blockIfNeeded(inner);
    return { enclosing: ownerPath.parent, wrapped, owner };
  }
  if (p.loopOf(owner) && (owner.body === parentNode || owner.body === stmtPath.node)) return { enclosing: ownerPath, wrapped: [loopResume(p, owner, inner, s.live)], owner };
  if (owner.type === 'IfStatement') return { enclosing: ownerPath, wrapped: blockIfNeeded(inner), owner };
  return { enclosing: parentPath, wrapped: blockIfNeeded(inner), owner }; // a bare block inside a block
}

/** Re-enters a loop mid-iteration: the suspended iteration's rest first, then the loop as written. */
function loopResume(p: Phases, loop: AnyNode, rest: PhaseStatement[], live: CarriedLocal[]): PhaseStatement {
  const { isTs } = p.cx;
  const plan = p.loopOf(loop)!;
  const F = plan.first;
  const branches = chain({ head: `if (${F})`, body: rest }, { head: 'else', body: listOf(loop.body) });
  const loopScoped = live
    .filter(l => l.scope.start === loop.start && l.scope.end === loop.end)
    .map(l => `${l.name}${isTs && l.typeText && l.answered ? `: ${l.typeText}` : ''}${l.answered ? '' : ` = ${p.names.resumed}.${fieldName(l)}`}`);
  if (loop.type === 'ForOfStatement' || loop.type === 'ForInStatement') {
    const head = `for (let ${[...loopScoped, `${F} = true`].join(', ')}; ${plan.index} < ${plan.items}.length; ${plan.index}++, ${F} = false)`;
    return chain({ head, body: [p.forOfBinding(loop, plan), branches] });
  }
  const test = loop.test ? ` || (${p.src(loop.test)})` : ' || true';
  const update = loop.type === 'ForStatement' && loop.update ? `, ${p.src(loop.update)}` : '';
  return chain({ head: `for (let ${[...loopScoped, `${F} = true`].join(', ')}; ${F}${test}; ${F} = false${update})`, body: [branches] });
}

/** The locals declared in `scope` restored from the step (or declared for the round's answer). */
function restoreLines(p: Phases, live: CarriedLocal[], scope: AnyNode): string[] {
  const { isTs } = p.cx;
  return live
    .filter(l => l.scope.start === scope.start && l.scope.end === scope.end)
    .map(l => {
      const value = l.answered ? '' : ` = ${p.names.resumed}.${fieldName(l)}`;
      if (l.declare === 'assign') return `${l.name}${value};`;
      // A restored local has its step's type; one the round's answer is assigned to keeps its own.
      const annotation = isTs && l.typeText && l.answered ? `: ${l.typeText}` : '';
      const jsDoc = !isTs && l.typeText ? `/** @type {${l.typeText}} */ ` : '';
      return `${jsDoc}${l.declare} ${l.name}${annotation}${value};`;
    });
}

/** What an await of a request is replaced by when its round resumes: the reader of its answer. */
function readerText(p: Phases, r: RequestPlan, schemaNames: Map<RequestPlan, string>): string {
  const named = schemaNames.get(r) ?? r.schemaText;
  const schema = named ? `, ${named}` : '';
  return `${p.cx.use('state', r.reader)}(${p.names.ctx}, ${p.cx.stringLiteral(r.key)}${schema})`;
}

function awaitRange(p: ASTPath<AnyNode>): Range {
  const node = (p.parent.node as AnyNode).type === 'AwaitExpression' ? p.parent.node : p.node;
  return { start: (node as AnyNode).start, end: (node as AnyNode).end };
}

function siblingsOf(p: ASTPath<AnyNode>): AnyNode[] {
  const parent = p.parent.node as AnyNode;
  if (parent.type === 'BlockStatement') return parent.body;
  if (parent.type === 'SwitchCase') return parent.consequent;
  return [p.node];
}
