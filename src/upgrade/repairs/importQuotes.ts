/**
 * The official codemod writes the module specifiers of the imports it rewrites or adds in double
 * quotes (`from "@modelcontextprotocol/server"`, `import { z } from "zod"`), whatever the file uses.
 * A file written with single quotes gets them back in those imports (the ones not in its text as
 * written), so the upgrade's diff is the change and nothing else.
 */
import { Node, type SourceFile, type StringLiteral } from 'ts-morph';
import { codeStyle } from '../../rewrite/style.js';
import type { Repair } from '../repair.js';

export function importQuotesRepair(original: string): Repair {
  const quote = codeStyle(original).quote === 'single' ? "'" : '"';
  return {
    id: 'import-quotes',
    name: "the file's quotes in the imports the codemod rewrites or adds",
    apply: sf => {
      let changesCount = 0;
      for (const literal of changedSpecifiers(sf, original)) {
        const value = literal.getLiteralValue();
        if (literal.getText()[0] === quote || value.includes(quote) || value.includes('\\')) continue;
        literal.replaceWithText(`${quote}${value}${quote}`);
        changesCount++;
      }
      return { changesCount, diagnostics: [] };
    },
  };
}

/** The specifiers of the import and export declarations that are not in the file as written. */
function changedSpecifiers(sf: SourceFile, original: string): StringLiteral[] {
  const found: StringLiteral[] = [];
  for (const d of [...sf.getImportDeclarations(), ...sf.getExportDeclarations()]) {
    const literal = d.getModuleSpecifier();
    if (literal && Node.isStringLiteral(literal) && !original.includes(d.getText())) found.push(literal);
  }
  return found;
}
