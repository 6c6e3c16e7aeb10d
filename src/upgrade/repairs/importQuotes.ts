/**
 * The official codemod writes the module specifiers of the imports it rewrites in double quotes
 * (`from "@modelcontextprotocol/server"`), whatever the file uses. A file written with single quotes
 * gets them back, so the upgrade's diff is the specifier's change and nothing else.
 */
import { Node, type SourceFile, type StringLiteral } from 'ts-morph';
import { codeStyle } from '../../rewrite/style.js';
import type { Repair } from '../repair.js';

const SDK_SPECIFIER = /^@modelcontextprotocol\//;

export const importQuotesRepair: Repair = {
  id: 'import-quotes',
  name: "the file's quotes in the SDK imports the codemod rewrites",
  apply: sf => {
    const specifiers = sdkSpecifiers(sf);
    const quote = fileQuote(sf, specifiers);
    let changesCount = 0;
    for (const literal of specifiers) {
      if (literal.getText()[0] === quote) continue;
      const value = literal.getLiteralValue();
      if (value.includes(quote) || value.includes('\\')) continue;
      literal.replaceWithText(`${quote}${value}${quote}`);
      changesCount++;
    }
    return { changesCount, diagnostics: [] };
  },
};

/** The specifiers of the file's SDK imports and re-exports. */
function sdkSpecifiers(sf: SourceFile): StringLiteral[] {
  const found: StringLiteral[] = [];
  for (const d of [...sf.getImportDeclarations(), ...sf.getExportDeclarations()]) {
    const literal = d.getModuleSpecifier();
    if (literal && Node.isStringLiteral(literal) && SDK_SPECIFIER.test(literal.getLiteralValue())) found.push(literal);
  }
  return found;
}

/** The quote the file writes strings with, counted without the specifiers the codemod wrote. */
function fileQuote(sf: SourceFile, specifiers: StringLiteral[]): "'" | '"' {
  let text = sf.getFullText();
  for (const literal of [...specifiers].reverse()) text = text.slice(0, literal.getStart()) + text.slice(literal.getEnd());
  return codeStyle(text).quote === 'single' ? "'" : '"';
}
