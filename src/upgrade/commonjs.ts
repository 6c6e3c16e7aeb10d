/**
 * The official codemod reads import declarations only: a CommonJS file goes through it with its requires
 * turned into imports, and comes back with them turned into requires again.
 */
import { Node, ts, type SourceFile } from 'ts-morph';

/** A file the upgrade reads as CommonJS: it declares no import (its requires go through as imports, requiresToImports). */
export function declaresNoImport(sf: ts.SourceFile): boolean {
  return !sf.statements.some(ts.isImportDeclaration);
}

/** `const { a, b: c } = require('m')` → `import { a, b as c } from 'm'` at top level; whether any was. */
export function requiresToImports(sf: SourceFile): boolean {
  if (!declaresNoImport(sf.compilerNode)) return false;
  let changed = false;
  for (const statement of sf.getVariableStatements()) {
    const [decl, ...more] = statement.getDeclarations();
    const init = decl?.getInitializer();
    if (!decl || more.length > 0 || !init || !Node.isCallExpression(init) || init.getExpression().getText() !== 'require') continue;
    const [arg] = init.getArguments();
    if (!arg || !Node.isStringLiteral(arg)) continue;
    const name = decl.getNameNode();
    const from = JSON.stringify(arg.getLiteralValue());
    if (Node.isIdentifier(name)) statement.replaceWithText(`import * as ${name.getText()} from ${from};`);
    else if (
      Node.isObjectBindingPattern(name) &&
      name.getElements().every(e => !e.getDotDotDotToken() && !e.getInitializer() && Node.isIdentifier(e.getNameNode()))
    ) {
      const specifiers = name
        .getElements()
        .map(e => (e.getPropertyNameNode() ? `${e.getPropertyNameNode()!.getText()} as ${e.getName()}` : e.getName()));
      statement.replaceWithText(`import { ${specifiers.join(', ')} } from ${from};`);
    } else continue;
    changed = true;
  }
  return changed;
}

/** The way back: every import declaration becomes the require it stands for. */
export function importsToRequires(sf: SourceFile): void {
  for (const decl of sf.getImportDeclarations()) {
    // The specifier as written, in the file's quotes (withImportQuotes gave the rewritten ones back).
    const from = decl.getModuleSpecifier().getText();
    if (decl.isTypeOnly()) {
      decl.remove();
      continue;
    }
    const namespace = decl.getNamespaceImport();
    const named = decl.getNamedImports().filter(n => !n.isTypeOnly());
    const defaultImport = decl.getDefaultImport();
    const lines: string[] = [];
    if (namespace) lines.push(`const ${namespace.getText()} = require(${from});`);
    if (defaultImport) lines.push(`const ${defaultImport.getText()} = require(${from});`);
    if (named.length > 0)
      lines.push(
        `const { ${named.map(n => (n.getAliasNode() ? `${n.getName()}: ${n.getAliasNode()!.getText()}` : n.getName())).join(', ')} } = require(${from});`,
      );
    if (!namespace && !defaultImport && decl.getNamedImports().length === 0) lines.push(`require(${from});`);
    decl.replaceWithText(lines.join('\n'));
  }
}
