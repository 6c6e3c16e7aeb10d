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
  // For each analysed line: the original line it corresponds to, whether the two are equal up to
  // indentation, and for a changed line the hunk it is in.
  const lineOf: { line: number; same: boolean; hunk?: Hunk }[] = [];
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
    const hunk: Hunk = { from: fi, fromEnd: fi + removed, to: ti, toEnd: ti + added };
    const paired = pairHunk(from.slice(fi, fi + removed), to.slice(ti, ti + added));
    for (let k = 0; k < removed; k++) {
      const line = Math.min(ti + paired[k]!, Math.max(to.length - 1, 0));
      lineOf[fi + k] = { line, same: false, hunk };
    }
    fi += removed;
    ti += added;
  }
  const whole: Hunk = { from: 0, fromEnd: from.length, to: 0, toEnd: to.length };
  const texts = new WeakMap<Hunk, RegionTexts>();
  const map = ({ line, character }: Position, below = true): Position => {
    const target = lineOf[Math.min(line, lineOf.length - 1)] ?? { line: 0, same: false };
    const a = from[line] ?? '';
    const o = to[target.line] ?? '';
    if (target.same) {
      const shifted = character < indentOf(a) ? Math.min(character, indentOf(o)) : character - indentOf(a) + indentOf(o);
      return { line: target.line, character: Math.min(shifted, o.length) };
    }
    if (!target.hunk) return { line: target.line, character: mapColumn(a, o, character) };
    const p = { line, character };
    return (
      byText(from, to, target.hunk, p, texts) ??
      (below ? byLineBelow(p) : undefined) ??
      byText(from, to, whole, p, texts) ?? { line: target.line, character: mapColumn(a, o, character) }
    );
  };
  /**
   * A call whose arguments open at the end of its line (`elicitInput({`), found by the line below
   * (`message: ...`, which the rewrite keeps): at the callee that opens its arguments at the end of the line above that one.
   */
  const byLineBelow = ({ line, character }: Position): Position | undefined => {
    const a = from[line] ?? '';
    if (!/^[\w$.]+\(\s*[[{(]?\s*$/.test(a.slice(character)) || line + 1 >= from.length) return undefined;
    const next = from[line + 1]!;
    const q = map({ line: line + 1, character: indentOf(next) }, false);
    const above = to[q.line - 1];
    const open = above !== undefined && /\(\s*[[{(]?\s*$/.exec(above);
    if (!open) return undefined;
    const start = calleeBefore(above!, open.index);
    return start !== undefined && start < open.index ? { line: q.line - 1, character: start } : undefined;
  };
  return p => map(p);
}

/** Lines `from`..`fromEnd` of the analysed text that replace lines `to`..`toEnd` of the original. */
interface Hunk {
  from: number;
  fromEnd: number;
  to: number;
  toEnd: number;
}

/** A region's lines of both texts, joined. */
interface RegionTexts {
  here: string;
  there: string;
}

/** The longest text looked for, and the shortest accepted, by `byText`. */
const NEEDLE_MAX = 40;
const NEEDLE_MIN = 8;

/**
 * A position on a changed line, found by the text that starts there, in `region` (its hunk, else the
 * whole text: the rewrite moves a request awaited inside a statement above it). The upgrade joins lines
 * (a `server.tool(` call over six lines becomes one `registerTool(` line) and adds lines (a marker),
 * and the rewrite turns a request into an entry of `inputRequests`, so the line a whole-line pairing
 * picks may hold another call. The text is looked for at the same occurrence in the other text (the
 * second `confirmed(server, id)` of a hunk is the second one there); a call whose callee was respelled
 * (`extra.sendRequest(` → `ctx.mcpReq.send(`, `server.elicitInput(` → `inputRequired.elicit(`) by its
 * arguments, else by its method's name (`listRoots(`), the position then at the callee found before them.
 */
function byText(from: string[], to: string[], region: Hunk, p: Position, cache: WeakMap<Hunk, RegionTexts>): Position | undefined {
  const line = from[p.line] ?? '';
  // From the first character that is not blank: indentation differs between the texts.
  const start = p.character + (line.slice(p.character).length - line.slice(p.character).trimStart().length);
  const rest = line.slice(start);
  if (rest.trim().length < 4 || region.toEnd === region.to) return undefined;
  const { here, there } =
    cache.get(region) ??
    cache
      .set(region, { here: from.slice(region.from, region.fromEnd).join('\n'), there: to.slice(region.to, region.toEnd).join('\n') })
      .get(region)!;
  const offset = from.slice(region.from, p.line).reduce((n, l) => n + l.length + 1, 0) + start;
  const callee = /^[\w$.]*?([\w$]+)\(/.exec(rest) ?? undefined;
  const name = callee && callee[0].length - callee[1]!.length - 1;
  const found =
    // The call itself, its callee whole at least.
    sameOccurrence(here, there, offset, NEEDLE_MAX, callee ? callee[0].length : Math.min(NEEDLE_MIN, rest.trimEnd().length)) ??
    (callee && calleeBefore(there, sameOccurrence(here, there, offset + callee[0].length - 1, NEEDLE_MAX, NEEDLE_MIN))) ??
    (callee && calleeBefore(there, sameOccurrence(here, there, offset + name!, callee[1]!.length + 1, callee[1]!.length + 1)));
  if (found === undefined) return undefined;
  const before = there.slice(0, found).split('\n');
  return { line: region.to + before.length - 1, character: before.at(-1)!.length };
}

/** How many needle lengths `sameOccurrence` counts, from the longest found, before it gives up. */
const NEEDLE_TRIES = 8;

/**
 * The offset in `there` of the text at `offset` in `here`: the longest text from there (`max` to `min`
 * characters, on its line) that occurs as often in both, at the same occurrence.
 */
function sameOccurrence(here: string, there: string, offset: number, max: number, min: number): number | undefined {
  const rest = here.slice(offset, offset + max).split('\n', 1)[0]!;
  if (rest.length < min || !there.includes(rest.slice(0, min))) return undefined;
  // The longest text still found there (a longer text is found no more often).
  let longest = min;
  for (let hi = rest.length; longest < hi;) {
    const mid = Math.ceil((longest + hi) / 2);
    if (there.includes(rest.slice(0, mid))) longest = mid;
    else hi = mid - 1;
  }
  for (let length = longest; length >= Math.max(min, longest - NEEDLE_TRIES); length--) {
    const needle = rest.slice(0, length);
    const inHere = occurrences(here, needle);
    const inThere = occurrences(there, needle);
    if (inHere.length !== inThere.length) continue;
    const at = inThere[inHere.indexOf(offset)];
    if (at !== undefined) return at;
  }
  return undefined;
}

/** The start of the callee (`a.b.c`) just before offset `at` of `text`. */
function calleeBefore(text: string, at: number | undefined): number | undefined {
  if (at === undefined) return undefined;
  let start = at;
  while (start > 0 && /[\w$.]/.test(text[start - 1]!)) start--;
  return start;
}

/** Where `needle` starts in `text`, each occurrence. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
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

/**
 * How many characters two lines share, in order: their longest common subsequence, what a character diff
 * keeps. Counted in two rows of numbers, not by building the diff: a large hunk compares thousands of pairs.
 */
export function alike(a: string, b: string): number {
  if (a.length < b.length) [a, b] = [b, a];
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let i = 0; i < a.length; i++) {
    const ch = a.charCodeAt(i);
    for (let j = 0; j < b.length; j++) {
      current[j + 1] = ch === b.charCodeAt(j) ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
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

/** A note about a line of a file: `src/server.ts:21: tools/call greet carries ...`. */
const NOTE_AT_LINE = /^([^\s:][^:\n]*):(\d+): /;

/**
 * A note that names a line of a file, with that line moved by the file's mapper (a note about another
 * file, or about no line, as it is).
 */
export function movedNote(note: string, mapperOf: (file: string) => ((p: Position) => Position) | undefined): string {
  const m = NOTE_AT_LINE.exec(note);
  const map = m && mapperOf(m[1]!);
  if (!m || !map) return note;
  return `${m[1]}:${map({ line: Number(m[2]) - 1, character: 0 }).line + 1}: ${note.slice(m[0].length)}`;
}

/**
 * The calls, `new` expressions and property accesses of a document, by line, so a site's range can
 * be the callee it starts at (`server.server.elicitInput` in `await server.server.elicitInput({...})`),
 * or the reference itself when the site passes the method on (`sampleWith(extra.sendRequest)`).
 */
