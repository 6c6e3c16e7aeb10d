/**
 * Helpers a handler loads when it runs: `const { ask } = await import('./ask.js')`, then
 * `await ask(server, topic)`. Inlining pastes the helper's body into the handler; the module stays
 * lazy only if that body reads nothing of its own module at run time (its imports and module-level
 * values; a type is erased). Such a helper is inlined like any other, and the `import()` goes once
 * its last use is inlined. One that reads its module stays followed but not inlined.
 */
import { Node, SyntaxKind, type BindingElement, type CallExpression, type SourceFile, type VariableStatement } from 'ts-morph';
import { declaresName, notAReference } from './bindings.js';
import { unwrap } from './mcpSymbols.js';
import type { FunctionLike } from './functions.js';
import { descendantsOfKind } from './descendants.js';

/** Where a dynamically imported helper comes from: the binding of the `import()` and its statement. */
export interface DynamicLoad {
  element: BindingElement;
  statement: VariableStatement | undefined;
  /** The argument of `import()`, as written. */
  specifier: string;
}

/** The function a name bound by `const { name } = await import(...)` is, with where it is loaded; undefined otherwise. */
export function dynamicLoadOf(id: Node): { fn: FunctionLike; load: DynamicLoad } | undefined {
  const element = id.getSymbol()?.getDeclarations()[0];
  if (!element || !Node.isBindingElement(element)) return undefined;
  const declaration = element.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
  const init = declaration?.getInitializer();
  const awaited = init && unwrap(init);
  const loading = awaited && unwrap(Node.isAwaitExpression(awaited) ? awaited.getExpression() : awaited);
  if (!loading || !Node.isCallExpression(loading) || loading.getExpression().getKind() !== SyntaxKind.ImportKeyword) return undefined;
  const fn = id.getType().getSymbol()?.getDeclarations()[0];
  if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
  if (fn.getSourceFile().isInNodeModules() || fn.getSourceFile().isDeclarationFile()) return undefined;
  const direct = element.getParent().getParent() === declaration;
  const load = {
    element,
    statement: direct ? declaration!.getVariableStatement() : undefined,
    specifier: loading.getArguments()[0]?.getText() ?? '',
  };
  return { fn, load };
}

/**
 * The first name the helper's body reads at run time from its own module (an import of that module,
 * or one of its module-level declarations), if any: inlining would import it up front.
 */
export function moduleValueRead(fn: FunctionLike): string | undefined {
  const file = fn.getSourceFile();
  for (const id of descendantsOfKind(fn, SyntaxKind.Identifier)) {
    if (notAReference(id) || declaresName(id) || inTypePosition(id, fn)) continue;
    const parent = id.getParent();
    const symbol = parent && Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
    const decl = symbol?.getDeclarations()[0];
    if (!decl || decl.getSourceFile() !== file || isWithin(decl, fn) || erased(decl)) continue;
    return id.getText();
  }
  return undefined;
}

/**
 * The edit that removes the helper's `import()` once every use of its binding is an inlined call:
 * the binding alone when the pattern has others, else the statement (kept as a bare `await import()`
 * when the module does more at load than declare).
 */
export function unusedLoadEdit(
  load: DynamicLoad,
  inlinedCalls: ReadonlySet<CallExpression | undefined>,
): { start: number; end: number; text: string } | undefined {
  const nameNode = load.element.getNameNode();
  if (!Node.isIdentifier(nameNode)) return undefined;
  // The binding's own uses (its references also reach the function it names, in its module).
  const local = nameNode.getSymbol();
  const uses = nameNode
    .findReferencesAsNodes()
    .filter(r => r !== nameNode && r.getSourceFile() === nameNode.getSourceFile() && r.getSymbol() === local);
  if (uses.some(r => !inlinedCalls.has(r.getParentIfKind(SyntaxKind.CallExpression)))) return undefined;
  const pattern = load.element.getParentIfKind(SyntaxKind.ObjectBindingPattern);
  const elements = pattern?.getElements() ?? [];
  const i = elements.indexOf(load.element);
  if (i >= 0 && elements.length > 1) {
    return i < elements.length - 1
      ? { start: load.element.getStart(), end: elements[i + 1]!.getStart(), text: '' }
      : { start: elements[i - 1]!.getEnd(), end: load.element.getEnd(), text: '' };
  }
  const statement = load.statement;
  if (!statement || statement.getDeclarations().length !== 1) return undefined;
  const module = loadedModule(statement);
  if (module && onlyDeclares(module)) return { ...lineOf(statement), text: '' };
  return { start: statement.getStart(), end: statement.getEnd(), text: `await import(${load.specifier});` };
}

/** A type annotation, a type argument, `as T`, `satisfies T`: erased, so not read at run time. */
function inTypePosition(id: Node, fn: FunctionLike): boolean {
  for (let node: Node | undefined = id.getParent(); node && node !== fn; node = node.getParent()) {
    if (Node.isTypeNode(node) && !Node.isExpressionWithTypeArguments(node)) return true;
  }
  return false;
}

function isWithin(node: Node, container: Node): boolean {
  return (
    node.getStart() >= container.getStart() && node.getEnd() <= container.getEnd() && node.getSourceFile() === container.getSourceFile()
  );
}

/** A declaration with no run-time value: an interface, a type alias, a type-only import. */
function erased(decl: Node): boolean {
  if (Node.isInterfaceDeclaration(decl) || Node.isTypeAliasDeclaration(decl) || Node.isTypeParameterDeclaration(decl)) return true;
  if (Node.isImportSpecifier(decl)) return decl.isTypeOnly() || decl.getImportDeclaration().isTypeOnly();
  if (Node.isImportClause(decl) || Node.isNamespaceImport(decl))
    return decl.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)?.isTypeOnly() ?? false;
  return false;
}

function loadedModule(statement: VariableStatement): SourceFile | undefined {
  const init = statement.getDeclarations()[0]?.getInitializer();
  const awaited = init && unwrap(init);
  const call = awaited && unwrap(Node.isAwaitExpression(awaited) ? awaited.getExpression() : awaited);
  const arg = call && Node.isCallExpression(call) ? call.getArguments()[0] : undefined;
  const symbol = arg?.getSymbol() ?? arg?.getType().getSymbol();
  const file = symbol?.getDeclarations()[0];
  return file && Node.isSourceFile(file) ? file : undefined;
}

/** A module whose loading only declares (functions, types, imports, constants of literals and functions). */
function onlyDeclares(module: SourceFile): boolean {
  return module.getStatements().every(s => {
    if (Node.isImportDeclaration(s) || Node.isFunctionDeclaration(s) || Node.isInterfaceDeclaration(s) || Node.isTypeAliasDeclaration(s))
      return true;
    if (!Node.isVariableStatement(s)) return false;
    return s.getDeclarations().every(d => {
      const init = d.getInitializer();
      return (
        !init ||
        Node.isLiteralExpression(init) ||
        Node.isArrowFunction(init) ||
        Node.isFunctionExpression(init) ||
        Node.isNoSubstitutionTemplateLiteral(init)
      );
    });
  });
}

/** The statement's whole line, when nothing else is on it. */
function lineOf(statement: Node): { start: number; end: number } {
  const full = statement.getSourceFile().getFullText();
  const lineStart = full.lastIndexOf('\n', statement.getStart() - 1) + 1;
  const start = /^[ \t]*$/.test(full.slice(lineStart, statement.getStart())) ? lineStart : statement.getStart();
  const after = full.slice(statement.getEnd()).match(/^[ \t]*\n/)?.[0].length ?? 0;
  return { start, end: statement.getEnd() + after };
}
