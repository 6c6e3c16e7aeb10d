import type { SourceFile } from 'ts-morph';

/** Type imports from `@modelcontextprotocol/server`, added to the file's import of it (or a new one). */
export function importServerTypes(sf: SourceFile, needed: Set<string>): void {
  if (needed.size === 0) return;
  const imports = sf
    .getImportDeclarations()
    .filter(d => d.getModuleSpecifierValue() === '@modelcontextprotocol/server' && !d.getNamespaceImport() && !d.getDefaultImport());
  const server = imports.find(d => d.isTypeOnly()) ?? imports[0];
  const missing = [...needed].filter(n => !server?.getNamedImports().some(i => i.getName() === n && !i.getAliasNode()));
  if (missing.length === 0) return;
  if (server) server.addNamedImports(missing.map(name => ({ name, isTypeOnly: !server.isTypeOnly() })));
  else sf.addImportDeclaration({ moduleSpecifier: '@modelcontextprotocol/server', isTypeOnly: true, namedImports: missing });
}
