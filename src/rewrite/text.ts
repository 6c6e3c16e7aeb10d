/**
 * Source text helpers of the rewrite: where a statement's text starts and ends with its comments, and
 * moving a slice of code from one indentation to another without touching the text of its template literals.
 */
import { ts } from 'ts-morph';

/** What starts every comment the rewrite writes (src/analysis/index.ts MARKER_PREFIX). */
export const MARKER_TEXT = 'mcp-migrate:';

/** A key as an object literal or a type writes it: a name as it is, anything else quoted. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** Where a statement's text ends, with the comment that trails it on its line (`x(); // why`). */
export function trailingEnd(source: string, end: number): number {
  const trailing = /^[ \t]*(?:\/\/[^\n]*|\/\*(?:(?!\*\/)[^\n])*\*\/(?=[ \t]*(?:\r?\n|$)))/.exec(source.slice(end, end + 2000));
  return trailing ? end + trailing[0].length : end;
}

/** Whether code comes before `offset` on its line. */
export function afterCode(source: string, offset: number): boolean {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return !/^[ \t]*$/.test(source.slice(lineStart, offset));
}

/** A comment as the parser attaches it to a node. */
interface AttachedComment {
  start: number;
  end: number;
  leading?: boolean;
}

/** Where a statement's text starts, with the comments that lead it on lines of their own. */
export function leadingStart(source: string, node: { start: number; comments?: AttachedComment[]; leadingComments?: AttachedComment[] }): number {
  // A comment after code on its line trails that code (see trailingEnd), it does not lead this node.
  const comments = (node.comments ?? node.leadingComments ?? []).filter(c => c.leading !== false && c.end <= node.start && !afterCode(source, c.start));
  return comments.length > 0 ? Math.min(...comments.map(c => c.start)) : node.start;
}

/** The leading whitespace of the line an offset is on. */
export function columnIndent(source: string, offset: number): string {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart))![0];
}

/**
 * Moves a multi-line slice from its original indentation to a new one, but for the lines that start
 * inside a template literal's text: their leading spaces are part of the string.
 */
export function reindent(text: string, from: string, to: string): string {
  if (!text.includes('\n')) return text;
  const strings = templateTexts(text);
  let offset = 0;
  return text
    .split('\n')
    .map((line, i) => {
      const at = offset;
      offset += line.length + 1;
      if (i === 0 || strings.some(([start, end]) => at > start && at < end)) return line;
      return line.startsWith(from) ? to + line.slice(from.length) : line;
    })
    .join('\n');
}

/** Where the text parts of template literals are in a slice of code (for a `${...}`, the code inside is not). */
export function templateTexts(code: string): [number, number][] {
  if (!code.includes('`')) return [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, code);
  const found: [number, number][] = [];
  // The brace depth each open `${` started at: its `}` resumes the template.
  const substitutions: number[] = [];
  let depth = 0;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.CloseBraceToken && substitutions.at(-1) === depth) kind = scanner.reScanTemplateToken(false);
    switch (kind) {
      case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      case ts.SyntaxKind.TemplateMiddle:
        found.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
        break;
      case ts.SyntaxKind.TemplateHead:
        found.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
        substitutions.push(depth);
        break;
      case ts.SyntaxKind.TemplateTail:
        found.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
        substitutions.pop();
        break;
      case ts.SyntaxKind.OpenBraceToken:
        depth++;
        break;
      case ts.SyntaxKind.CloseBraceToken:
        depth--;
        break;
      default:
        break;
    }
  }
  return found;
}
