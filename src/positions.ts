/**
 * Positions in the text the pipeline analysed, carried back to the file as the user wrote it.
 *
 * For SDK 1.x files the analysed text is the official v1-to-v2 codemod's output (it re-indents
 * handler bodies, renames `extra.sendRequest` to `ctx.mcpReq.send`, rewrites imports), and a
 * shebang is taken off before any stage: a line diff (ignoring indentation) and, on changed
 * lines, a character diff carry a position back to the original.
 */
import { diffArrays, diffChars } from 'diff';

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
    const paired = pairHunk(from.slice(fi, fi + removed), to.slice(ti, ti + added));
    for (let k = 0; k < removed; k++) {
      const line = Math.min(ti + paired[k]!, Math.max(to.length - 1, 0));
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

/**
 * For each line of a hunk in `analysed`, the index of the line of `original` it came from: the most alike
 * one at or after the previous pick (the upgrade joins and splits lines: `server.tool(` and its arguments
 * become one `registerTool(` line, `await sendRequest(` becomes `await ctx.mcpReq.send(`). Large hunks are
 * paired in order.
 */
function pairHunk(analysed: string[], original: string[]): number[] {
  const last = Math.max(original.length - 1, 0);
  if (original.length === 0 || analysed.length * original.length > 2_500) return analysed.map((_, k) => Math.min(k, last));
  let from = 0;
  return analysed.map(a => {
    let best = from;
    let bestScore = -1;
    for (let j = from; j < original.length; j++) {
      const score = alike(a.trim(), original[j]!.trim());
      if (score > bestScore) [best, bestScore] = [j, score];
    }
    from = best;
    return best;
  });
}

/** How many characters two lines share, in order. */
function alike(a: string, b: string): number {
  return diffChars(a, b).reduce((n, c) => (c.added || c.removed ? n : n + c.value.length), 0);
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
