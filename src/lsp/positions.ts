/**
 * The range a diagnostic covers: the call (or reference) at a reported site's position, which
 * the pipeline gives in the document's own coordinates.
 */
import type { Position, Range } from '../positions.js';
import { ts } from 'ts-morph';

export class CallIndex {
  private readonly byLine = new Map<number, { start: number; end: number; call: boolean }[]>();
  private readonly sf: ts.SourceFile;

  constructor(fileName: string, text: string) {
    // Calls and property accesses only: JSDoc is not parsed (it would not be visited).
    this.sf = ts.createSourceFile(
      fileName,
      text,
      { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
      false,
      scriptKind(fileName),
    );
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
      pick(
        here.filter(c => c.call),
        (a, b) => a.end < b.end,
      ) ??
      pick(here, (a, b) => a.end > b.end) ??
      pick(
        onLine.filter(c => c.call),
        (a, b) => Math.abs(a.start - offset) < Math.abs(b.start - offset) || (a.start === b.start && a.end < b.end),
      );
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
