/**
 * Control flow, read conservatively from the AST: whether a statement can complete normally, jump out
 * of its list or fall into the next case. The phases use it to leave out code a phase cannot reach.
 */
import type { Range } from '../plan.js';
import type { AnyNode } from './context.js';
import type { PhaseStatement } from './phases.js';

export function within(r: Range, node: AnyNode): boolean {
  return r.start >= node.start && r.end <= node.end;
}

/** The AST statement a phase statement prints (as written, or with its awaits answered); none for a synthetic one. */
export function astOf(st: PhaseStatement | undefined): AnyNode | undefined {
  return st?.kind === 'original' || st?.kind === 'resumed' ? st.node : undefined;
}

/** Whether a case clause can run on into the next one (conservative: true when unsure). */
export function fallsThrough(clause: AnyNode): boolean {
  let last = clause.consequent[clause.consequent.length - 1];
  while (last?.type === 'BlockStatement') last = last.body[last.body.length - 1];
  return !last || (!['BreakStatement', 'ReturnStatement', 'ThrowStatement', 'ContinueStatement'].includes(last.type) && completesNormally(last));
}

/** Whether a list of statements to print (plain or resumed) ends in a statement that cannot complete normally. */
export function endsAbruptly(stmts: PhaseStatement[]): boolean {
  const node = astOf(stmts[stmts.length - 1]);
  return node !== undefined && typeof node.type === 'string' && !completesNormally(node);
}

/** Whether control can reach the end of a statement (conservative: true when unsure). */
export function completesNormally(st: AnyNode): boolean {
  switch (st.type) {
    case 'ReturnStatement':
    case 'ThrowStatement':
      return false;
    case 'BlockStatement':
      return st.body.every(completesNormally);
    case 'IfStatement':
      return !st.alternate || completesNormally(st.consequent) || completesNormally(st.alternate);
    case 'TryStatement':
      if (st.finalizer && !completesNormally(st.finalizer)) return false;
      return completesNormally(st.block) || (st.handler !== null && st.handler !== undefined && completesNormally(st.handler.body));
    case 'SwitchStatement': {
      // A case that completes normally falls into the next one: with a default and no break out
      // of the switch, only the last case decides.
      const last = st.cases[st.cases.length - 1];
      if (!st.cases.some((c: AnyNode) => !c.test) || st.cases.some((c: AnyNode) => c.consequent.some(breaksOut))) return true;
      return last.consequent.every(completesNormally);
    }
    default:
      return true;
  }
}

/** Whether some node below `node` (functions and classes not entered) is one `found` accepts, unless `stop` ends the walk there first. */
function somewhereIn(node: AnyNode, found: (n: AnyNode) => boolean | undefined): boolean {
  if (!node || typeof node !== 'object') return false;
  const here = found(node);
  if (here !== undefined) return here;
  return Object.entries(node).some(
    ([k, v]) => k !== 'loc' && k !== 'comments' && (Array.isArray(v) ? v.some(c => somewhereIn(c, found)) : typeof v === 'object' && v !== null && typeof (v as AnyNode).type === 'string' && somewhereIn(v, found)),
  );
}

/** Whether a statement can leave its list other than at its end: a break, continue, return or throw anywhere in it. */
export function jumps(node: AnyNode): boolean {
  return somewhereIn(node, n => {
    if (/^(Break|Continue|Return|Throw)Statement$/.test(n.type ?? '')) return true;
    if (/Function|ClassBody/.test(n.type ?? '')) return false;
    return undefined;
  });
}

/** Whether a statement holds an unlabelled break that leaves the switch it sits in (not an inner loop or switch). */
export function breaksOut(node: AnyNode): boolean {
  return somewhereIn(node, n => {
    if (n.type === 'BreakStatement') return !n.label;
    if (/^(For|ForIn|ForOf|While|DoWhile|Switch)Statement$|Function|ClassBody/.test(n.type ?? '')) return false;
    return undefined;
  });
}

/** Whether a statement awaits outside any function of its own (a top-level await, or a for await). */
export function awaitsAtTopLevel(node: AnyNode): boolean {
  return somewhereIn(node, n => {
    if (n.type === 'AwaitExpression' || (n.type === 'ForOfStatement' && n.await)) return true;
    if (/Function|ClassBody/.test(n.type ?? '')) return false;
    return undefined;
  });
}

/** Braces are only needed where the spliced statements declare block-scoped names. */
export function needsBlock(stmts: PhaseStatement[]): boolean {
  return stmts.some(st => {
    if (st.kind === 'lines') return st.lines.some(l => /^(const|let|class|function)\b/.test(l));
    const s = astOf(st);
    return s !== undefined && ((s.type === 'VariableDeclaration' && s.kind !== 'var') || s.type === 'ClassDeclaration' || s.type === 'FunctionDeclaration');
  });
}
