/**
 * The requestState module in the project's style. It is written in this repository's (four spaces, single
 * quotes, semicolons); a project that indents with tabs or two spaces, quotes with double quotes or ends no
 * statement with a semicolon gets it in its own, so that it reads as the project's code in review.
 * Syntax only, from the parsed text: a string is quoted again only where written without escapes or quotes,
 * a line inside a multi-line template keeps its text, and a semicolon goes only at the end of a line whose
 * next line of code cannot continue the statement (it does not begin with `(`, `[`, a template, `+`, `-` or `/`).
 */
import { ts } from 'ts-morph';
import type { CodeStyle } from './rewrite/style.js';

/** The indentation of the module as the build emits it. */
const OWN_UNIT = '    ';

type Style = Pick<CodeStyle, 'unit' | 'quote' | 'semicolons'>;

interface Edit {
  start: number;
  end: number;
  text: string;
}

export function restyled(text: string, style: Style, fileName = 'module.ts'): string {
  if (style.unit === OWN_UNIT && style.quote === 'single' && style.semicolons) return text;
  const sf = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('js') ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );
  const edits: Edit[] = [];
  const keepLines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node)) edits.push(...requoted(node, sf, style));
    if (ts.isTemplateLiteral(node)) for (let l = lineOf(sf, node.getStart(sf)) + 1; l <= lineOf(sf, node.end); l++) keepLines.add(l);
    if (!style.semicolons) edits.push(...semicolonAtLineEnd(node, sf));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  let out = text;
  // (an if and the return it holds end at the same semicolon: one edit for it)
  const unique = [...new Map(edits.map(e => [e.start, e])).values()];
  for (const e of unique.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return reindented(out, style.unit, keepLines);
}

const lineOf = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line;

/** A string literal in the other quote, when it is written without an escape or a quote of either kind (its text is its value). */
function requoted(node: ts.StringLiteral, sf: ts.SourceFile, style: Style): Edit[] {
  const start = node.getStart(sf);
  const quote = style.quote === 'single' ? "'" : '"';
  const raw = sf.text.slice(start + 1, node.end - 1);
  if (sf.text[start] === quote || /['"\\]/.test(raw)) return [];
  return [{ start, end: node.end, text: `${quote}${raw}${quote}` }];
}

/** Nodes whose text ends with the semicolon that ends their statement. */
function endsAStatement(node: ts.Node): boolean {
  return ts.isStatement(node) || ts.isPropertyDeclaration(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node);
}

/** The semicolon ending `node`'s statement, where it ends a line and the next line cannot carry the statement on. */
function semicolonAtLineEnd(node: ts.Node, sf: ts.SourceFile): Edit[] {
  if (!endsAStatement(node) || sf.text[node.end - 1] !== ';') return [];
  const rest = sf.text.slice(node.end);
  const lineEnd = /^[ \t]*(?:\/\/[^\n]*)?\r?\n/.exec(rest);
  if (!lineEnd) return [];
  // The first character of code after it (comments are no continuation).
  const next = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*(.)/.exec(rest.slice(lineEnd[0].length))?.[1];
  if (next !== undefined && '([`+-/'.includes(next)) return [];
  return [{ start: node.end - 1, end: node.end, text: '' }];
}

/** Each line's leading run of four-space units as `unit`s (a JSDoc line's extra space kept), but inside templates. */
function reindented(text: string, unit: string, keepLines: ReadonlySet<number>): string {
  if (unit === OWN_UNIT) return text;
  return text
    .split('\n')
    .map((line, i) => {
      if (keepLines.has(i)) return line;
      const lead = /^ */.exec(line)![0].length;
      return unit.repeat(Math.floor(lead / OWN_UNIT.length)) + line.slice(lead - (lead % OWN_UNIT.length));
    })
    .join('\n');
}
