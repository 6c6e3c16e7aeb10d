/**
 * What a name is bound to, as plain data that compares across edits and type-checker programs, so
 * that code moved from one place to another (an inlined helper) can be checked, by symbol, to mean
 * what it meant: the declaration the name resolves to (file and position), else for an import whose
 * module does not resolve (node's built-ins or the SDK in a project that has not installed them) the
 * module and the name it exports, else for a name nothing declares the global of that name. Anything
 * else gets a binding of its own, equal to no other: an unresolved name is never taken for another.
 */
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { Node, ts, type Project } from 'ts-morph';
import { resolveThroughPaths } from './tsconfigPaths.js';

/** Where a declaration is, as text: its file and position (in the text before an edit, for an edited file). */
export type DeclarationPlace = (decl: ts.Node) => string;

export const placeAsIs: DeclarationPlace = decl => `${decl.getSourceFile().fileName}:${decl.getStart()}`;

let unknowns = 0;
const unknown = (name: string) => `?${name}#${++unknowns}`;

/** The binding of an identifier (of the value, for a shorthand property `{ name }`). */
export function bindingOf(id: Node, place: DeclarationPlace): string {
  const parent = id.getParent();
  const symbol = parent && Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
  return bindingOfSymbol(symbol?.compilerSymbol, id.getText(), id.getProject(), place);
}

/** The binding a name has at a place, as the type checker resolves it there. */
export function bindingAt(name: string, at: Node, place: DeclarationPlace): string {
  const checker = at.getProject().getTypeChecker().compilerObject as unknown as {
    resolveName(n: string, l: ts.Node, m: number, g: boolean): ts.Symbol | undefined;
  };
  return bindingOfSymbol(
    checker.resolveName(
      name,
      at.compilerNode,
      ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace | ts.SymbolFlags.Alias,
      false,
    ),
    name,
    at.getProject(),
    place,
  );
}

export function bindingOfSymbol(symbol: ts.Symbol | undefined, name: string, project: Project, place: DeclarationPlace): string {
  if (!symbol) return `global ${name}`;
  if (symbol.flags & ts.SymbolFlags.Alias) {
    const target = project.getTypeChecker().compilerObject.getAliasedSymbol(symbol);
    const decl = target.declarations?.[0];
    if (decl) return place(decl);
    return unresolvedImport(symbol, project, place) ?? unknown(name);
  }
  const decl = symbol.declarations?.[0];
  return decl ? place(decl) : `global ${name}`;
}

/**
 * An import whose target the checker does not know: of a module that does not resolve (by its module
 * and exported name), or of a declaration a project module has but does not export yet (that declaration).
 */
function unresolvedImport(symbol: ts.Symbol, project: Project, place: DeclarationPlace): string | undefined {
  const decl = symbol.declarations?.[0];
  if (!decl) return undefined;
  let exported: string;
  let statement: ts.Node | undefined;
  if (ts.isImportSpecifier(decl)) {
    exported = (decl.propertyName ?? decl.name).text;
    statement = decl.parent.parent.parent;
  } else if (ts.isImportClause(decl)) {
    exported = 'default';
    statement = decl.parent;
  } else if (ts.isNamespaceImport(decl)) {
    exported = '*';
    statement = decl.parent.parent.parent;
  } else return undefined;
  if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return undefined;
  const specifier = statement.moduleSpecifier.text;
  const file = decl.getSourceFile().fileName;
  // Through a tsconfig.json paths alias: the module file it maps to.
  const aliased = specifier.startsWith('.') ? undefined : resolveThroughPaths(file, specifier);
  if (!specifier.startsWith('.') && !aliased)
    return `import ${isBuiltin(specifier) ? specifier.replace(/^node:/, '') : specifier} ${exported}`;
  const base = (aliased ?? path.resolve(path.dirname(file), specifier)).replace(/\.[cm]?[jt]sx?$/, '');
  const module = MODULE_SUFFIXES.map(s => project.getSourceFile(base + s)).find(f => f !== undefined);
  const local =
    exported === '*'
      ? undefined
      : (module?.getExportedDeclarations().get(exported)?.[0] ??
        (exported === 'default' ? undefined : module?.getLocal(exported)?.getDeclarations()[0]));
  return local ? place(local.compilerNode) : `import ${base} ${exported}`;
}

const MODULE_SUFFIXES = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js'];

/** A name that is not a reference to a binding: a member, a property key, a label. */
export function notAReference(id: Node): boolean {
  const parent = id.getParent();
  if (!parent) return true;
  if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) return true;
  if (Node.isQualifiedName(parent) && parent.getRight() === id) return true;
  if (
    (Node.isPropertyAssignment(parent) ||
      Node.isPropertySignature(parent) ||
      Node.isMethodSignature(parent) ||
      Node.isMethodDeclaration(parent) ||
      Node.isPropertyDeclaration(parent) ||
      Node.isEnumMember(parent)) &&
    parent.getNameNode() === id
  )
    return true;
  if (Node.isBindingElement(parent) && parent.getPropertyNameNode() === id) return true;
  if (Node.isLabeledStatement(parent) || Node.isBreakStatement(parent) || Node.isContinueStatement(parent)) return true;
  if (Node.isJsxAttribute(parent)) return true;
  return false;
}

/** The name a declaration declares (`const x`, `function f`, a parameter, `{ a }` in a pattern), not a use of one. */
export function declaresName(id: Node): boolean {
  const parent = id.getParent();
  if (!parent || Node.isShorthandPropertyAssignment(parent)) return false;
  const named = parent as Node & { getNameNode?(): Node | undefined };
  return typeof named.getNameNode === 'function' && named.getNameNode() === id;
}

/** The references (uses of bindings) among the identifiers of a node, itself included. */
export function referencesIn(node: Node): Node[] {
  return [node, ...node.getDescendants()].filter(n => Node.isIdentifier(n) && !notAReference(n) && !declaresName(n));
}
