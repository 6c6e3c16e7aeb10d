/**
 * Where a reported site is in the document the user is editing.
 *
 * The pipeline reports sites at positions in the text it analysed, which for SDK 1.x files is the
 * output of the official v1-to-v2 codemod (it re-indents handler bodies, renames `extra.sendRequest`
 * to `ctx.mcpReq.send`, rewrites imports). `upgradeV1` is deterministic, so running it once more on the
 * same text gives the analysed text; a line diff (ignoring indentation) and, on changed lines, a
 * character diff carry a position back to the document. The call at that position gives the range.
 */
import { diffArrays, diffChars } from 'diff';
import { ts } from 'ts-morph';

export interface Position {
  /** 0-based. */
  line: number;
  /** 0-based, UTF-16 code units. */
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

const splitLines = (text: string): string[] => text.split('\n').map(l => (l.endsWith('\r') ? l.slice(0, -1) : l));
const indentOf = (line: string): number => line.length - line.trimStart().length;

/** Maps positions in `analysed` back to `original`. */
export function positionMapper(original: string, analysed: string): (p: Position) => Position {
  if (original === analysed) return p => p;
  const from = splitLines(analysed);
  const to = splitLines(original);
  // For each analysed line: the original line it corresponds to, and whether the two are equal up to indentation.
  const lineOf: { line: number; same: boolean }[] = [];
  let fi = 0;
  let ti = 0;
  const changes = diffArrays(
    from.map(l => l.trim()),
    to.map(l => l.trim()),
  );
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (!c.added && !c.removed) {
      for (let k = 0; k < c.count!; k++) lineOf[fi + k] = { line: ti + k, same: true };
      fi += c.count!;
      ti += c.count!;
      continue;
    }
    // A hunk: lines only in `analysed` (removed) paired in order with lines only in `original` (added).
    let removed = 0;
    let added = 0;
    for (; i < changes.length && (changes[i]!.added || changes[i]!.removed); i++) {
      if (changes[i]!.removed) removed += changes[i]!.count!;
      else added += changes[i]!.count!;
    }
    i--;
    for (let k = 0; k < removed; k++) {
      const line = Math.min(ti + Math.min(k, Math.max(added - 1, 0)), Math.max(to.length - 1, 0));
      lineOf[fi + k] = { line, same: false };
    }
    fi += removed;
    ti += added;
  }
  return ({ line, character }) => {
    const target = lineOf[Math.min(line, lineOf.length - 1)] ?? { line: 0, same: false };
    const a = from[line] ?? '';
    const o = to[target.line] ?? '';
    if (target.same) {
      const shifted = character < indentOf(a) ? Math.min(character, indentOf(o)) : character - indentOf(a) + indentOf(o);
      return { line: target.line, character: Math.min(shifted, o.length) };
    }
    return { line: target.line, character: mapColumn(a, o, character) };
  };
}

/** A column in line `a` mapped to line `b` through a character diff. */
function mapColumn(a: string, b: string, column: number): number {
  let ai = 0;
  let bi = 0;
  for (const c of diffChars(a, b)) {
    const n = c.value.length;
    if (c.added) {
      bi += n;
      continue;
    }
    if (column < ai + n) return c.removed ? bi : bi + (column - ai);
    ai += n;
    if (!c.removed) bi += n;
  }
  return Math.min(bi, b.length);
}

/**
 * The calls, `new` expressions and property accesses of a document, by line, so a site's range can
 * be the callee it starts at (`server.server.elicitInput` in `await server.server.elicitInput({...})`),
 * or the reference itself when the site passes the method on (`sampleWith(extra.sendRequest)`).
 */
export class CallIndex {
  private readonly byLine = new Map<number, { start: number; end: number; call: boolean }[]>();
  private readonly sf: ts.SourceFile;

  constructor(fileName: string, text: string) {
    this.sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, scriptKind(fileName));
    const add = (start: number, end: number, call: boolean): void => {
      const { line } = this.sf.getLineAndCharacterOfPosition(start);
      const list = this.byLine.get(line) ?? [];
      list.push({ start, end, call });
      this.byLine.set(line, list);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) add(node.getStart(this.sf), node.expression.getEnd(), true);
      else if (ts.isPropertyAccessExpression(node)) add(node.getStart(this.sf), node.getEnd(), false);
      ts.forEachChild(node, visit);
    };
    visit(this.sf);
  }

  /**
   * At `p`: the callee of the innermost call starting there, else the outermost property access
   * starting there, else the callee of the call starting nearest on the line, else the rest of the line.
   */
  rangeAt(p: Position): Range {
    const offset = this.sf.getPositionOfLineAndCharacter(p.line, Math.min(p.character, this.lineLength(p.line)));
    const onLine = this.byLine.get(p.line) ?? [];
    const here = onLine.filter(c => c.start === offset);
    const pick = (list: typeof onLine, better: (a: (typeof onLine)[number], b: (typeof onLine)[number]) => boolean) =>
      list.reduce<(typeof onLine)[number] | undefined>((best, c) => (!best || better(c, best) ? c : best), undefined);
    const best =
      pick(here.filter(c => c.call), (a, b) => a.end < b.end) ??
      pick(here, (a, b) => a.end > b.end) ??
      pick(onLine.filter(c => c.call), (a, b) => Math.abs(a.start - offset) < Math.abs(b.start - offset) || (a.start === b.start && a.end < b.end));
    if (best) return { start: this.position(best.start), end: this.position(best.end) };
    const lineEnd = this.sf.getPositionOfLineAndCharacter(p.line, this.lineLength(p.line));
    return { start: this.position(offset), end: this.position(Math.max(lineEnd, offset)) };
  }

  private lineLength(line: number): number {
    const starts = this.sf.getLineStarts();
    if (line >= starts.length) return 0;
    const end = line + 1 < starts.length ? starts[line + 1]! : this.sf.text.length;
    return this.sf.text.slice(starts[line], end).replace(/\r?\n$/, '').length;
  }

  private position(offset: number): Position {
    const { line, character } = this.sf.getLineAndCharacterOfPosition(offset);
    return { line, character };
  }
}

function scriptKind(fileName: string): ts.ScriptKind {
  if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.[mc]?ts$/.test(fileName)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(fileName)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}
