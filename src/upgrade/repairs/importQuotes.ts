/**
 * The official codemod writes the module specifiers of the imports it rewrites or adds in double
 * quotes (`from "@modelcontextprotocol/server"`, `import { z } from "zod"`), whatever the file uses.
 * A file written with single quotes gets them back in those imports (the ones not in its text as
 * written), so the upgrade's diff is the change and nothing else.
 *
 * Done on the text, after the findings are located: a quote for a quote keeps every offset and line, and
 * one new text for the file costs one parse where an edit per specifier cost one each.
 */
import { ts, type SourceFile } from 'ts-morph';
import { codeStyle } from '../../rewrite/style.js';

/** `sf`'s text with the file's own quotes around the specifiers of the import and export declarations `original` does not have. */
export function withImportQuotes(sf: SourceFile, original: string): string {
  const text = sf.getFullText();
  const quote = codeStyle(original).quote === 'single' ? "'" : '"';
  let out = text;
  for (const literal of changedSpecifiers(sf.compilerNode, original)) {
    const value = literal.text;
    const start = literal.getStart(sf.compilerNode);
    // Written with an escape, it is left: only a quote for a quote, so that no offset moves.
    if (text[start] === quote || value.includes(quote) || text.slice(start + 1, literal.end - 1) !== value) continue;
    out = `${out.slice(0, start)}${quote}${value}${quote}${out.slice(literal.end)}`;
  }
  return out;
}

/** The specifiers of the import and export declarations that are not in the file as written. */
function changedSpecifiers(file: ts.SourceFile, original: string): ts.StringLiteral[] {
  const found: ts.StringLiteral[] = [];
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) && !ts.isExportDeclaration(st)) continue;
    const literal = st.moduleSpecifier;
    if (literal && ts.isStringLiteral(literal) && !original.includes(st.getText(file))) found.push(literal);
  }
  return found;
}
