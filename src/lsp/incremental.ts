/**
 * Re-analysis of what an edit touched. A top-level registration call (`server.tool(...)`,
 * `server.registerTool(...)`, ...) declares nothing another statement reads, so when its text is the same
 * as in the last analysis its diagnostics are the same, moved with it. Those registrations are blanked
 * (spaces, newlines kept, so every other position stays) before the document is analysed again, and
 * their diagnostics are carried over. A request site outside the registrations (in a helper, whose
 * verdict depends on its callers) makes the whole document analysed again.
 */
import { ts } from 'ts-morph';
import type { Diagnostic, Position } from 'vscode-languageserver';
import type { SiteData } from './siteData.js';

/** Methods registering a handler on a server (SDK 1.x and 2.x). */
const REGISTRATION = /^(tool|registerTool|prompt|registerPrompt|resource|registerResource|setRequestHandler)$/;
/** Diagnostics that are not request sites: each is found again wherever it is. */
const NOT_REQUESTS = new Set<SiteData['kind']>(['entry', 'capabilities', 'registration', 'connection', 'logging', 'list-change']);

interface Registration {
  text: string;
  start: number;
  end: number;
}

export interface PreviousAnalysis {
  text: string;
  diagnostics: Diagnostic[];
}

export interface Reuse {
  /** The document with the registrations whose diagnostics are carried over blanked. */
  analysed: string;
  /** Those diagnostics, placed in the new text. */
  kept: Diagnostic[];
}

/** What the last analysis still says of `text`; undefined when the document must be analysed whole. */
export function reuseUnchanged(previous: PreviousAnalysis, file: string, text: string): Reuse | undefined {
  const before = registrations(file, previous.text);
  const offsetIn = lineOffsets(previous.text);
  const byRegistration = new Map<Registration, Diagnostic[]>(before.map(r => [r, []]));
  for (const d of previous.diagnostics) {
    const at = offsetIn(d.range.start);
    const holder = before.find(r => r.start <= at && at < r.end);
    if (holder) byRegistration.get(holder)!.push(d);
    else if (!NOT_REQUESTS.has((d.data as SiteData | undefined)?.kind as SiteData['kind'])) return undefined;
  }
  const unused = new Map<string, Registration[]>();
  for (const r of before) unused.set(r.text, [...(unused.get(r.text) ?? []), r]);
  const positionIn = positions(text);
  const positionBefore = positions(previous.text);
  const kept: Diagnostic[] = [];
  let analysed = text;
  for (const now of registrations(file, text)) {
    const same = unused.get(now.text)?.shift();
    if (!same) continue;
    const from = positionBefore(same.start);
    const to = positionIn(now.start);
    kept.push(...byRegistration.get(same)!.map(d => moved(d, from, to)));
    analysed = analysed.slice(0, now.start) + now.text.replace(/[^\r\n]/g, ' ') + analysed.slice(now.end);
  }
  return kept.length > 0 || analysed !== text ? { analysed, kept } : undefined;
}

/** The last text's registrations: the next edit's re-analysis compares with that text. */
let last: { file: string; text: string; found: Registration[] } | undefined;

function registrations(file: string, text: string): Registration[] {
  if (last?.file === file && last.text === text) return last.found;
  const found = topLevelRegistrations(file, text);
  last = { file, text, found };
  return found;
}

function topLevelRegistrations(file: string, text: string): Registration[] {
  // Statements only: their JSDoc is not read (not parsing it saves a good part of a large file's parse).
  const sf = ts.createSourceFile(
    file,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
  );
  const found: Registration[] = [];
  for (const statement of sf.statements) {
    if (!ts.isExpressionStatement(statement)) continue;
    let call = statement.expression;
    if (ts.isAwaitExpression(call) || ts.isVoidExpression(call)) call = call.expression;
    if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression) || !REGISTRATION.test(call.expression.name.text))
      continue;
    const start = statement.getStart(sf);
    found.push({ text: text.slice(start, statement.end), start, end: statement.end });
  }
  return found;
}

/** A diagnostic of a registration that moved from `from` to `to` (its start). */
function moved(d: Diagnostic, from: Position, to: Position): Diagnostic {
  const shift = (p: Position): Position => ({
    line: p.line - from.line + to.line,
    character: p.line === from.line ? p.character - from.character + to.character : p.character,
  });
  const range = { start: shift(d.range.start), end: shift(d.range.end) };
  const data = d.data as SiteData | undefined;
  const site = data && shift({ line: data.line - 1, character: data.column - 1 });
  return { ...d, range, ...(data && site ? { data: { ...data, line: site.line + 1, column: site.character + 1 } } : {}) };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOffsets(text: string): (p: Position) => number {
  const starts = lineStarts(text);
  return p => (starts[p.line] ?? text.length) + p.character;
}

function positions(text: string): (offset: number) => Position {
  const starts = lineStarts(text);
  return offset => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo]! };
  };
}
