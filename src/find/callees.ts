/**
 * The functions of the project a call may run: through a name (imports, re-exports, default exports, a
 * binding of `import()`), through a property (a method and the overrides a subclass may run instead, a
 * member of one object, every entry of a table the property dispatches to), or none when the callee is
 * a package's or the standard library's.
 */
import {
  Node,
  SyntaxKind,
  VariableDeclarationKind,
  type BinaryExpression,
  type MethodDeclaration,
  type PropertyAccessExpression,
  type PropertyDeclaration,
  type VariableDeclaration,
} from 'ts-morph';
import { entriesOf, namedEntry } from '../analysis/dispatch.js';
import { dynamicLoadOf } from '../analysis/dynamicImports.js';
import { unwrap } from '../analysis/mcpSymbols.js';
import { overridesOf, receiverClass } from '../analysis/methods.js';
import { projectMayDeclareMember } from '../analysis/projectNames.js';
import type { FunctionLike } from '../analysis/functions.js';
import { resolveThroughPaths } from '../analysis/tsconfigPaths.js';
import { isStateModuleFile } from '../stateModule.js';

export function isFunctionLike(node: Node | undefined): node is FunctionLike {
  return (
    node !== undefined &&
    (Node.isFunctionDeclaration(node) || Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isMethodDeclaration(node))
  );
}

/** Whether a function is the project's own: not a declaration, a package, or the requestState module the tool writes. */
export function isProjectFunction(fn: Node): boolean {
  const file = fn.getSourceFile();
  return !file.isDeclarationFile() && !file.isInNodeModules() && !isStateModuleFile(file.getFilePath());
}

/** The project functions a call with this callee may run (empty for a package's function, or one not known). */
export function calleesOf(callee: Node): FunctionLike[] {
  const e = unwrap(callee);
  const found = Node.isPropertyAccessExpression(e) ? membersCalled(e) : Node.isIdentifier(e) ? namedFunction(e) : [];
  return found.filter(fn => fn.getBody() !== undefined && isProjectFunction(fn));
}

/** The function an identifier names, through imports, re-exports, default exports and `import()` bindings. */
function namedFunction(id: Node): FunctionLike[] {
  const loaded = dynamicLoadOf(id);
  if (loaded) return [loaded.fn];
  let decl = resolved(id);
  for (let i = 0; i < 4 && decl && Node.isExportAssignment(decl); i++) {
    const x = unwrap(decl.getExpression());
    if (isFunctionLike(x)) return [x];
    decl = Node.isIdentifier(x) ? resolved(x) : undefined;
  }
  const fn =
    decl && Node.isVariableDeclaration(decl)
      ? decl.getInitializer() && unwrap(decl.getInitializer()!)
      : decl && (exportedValue(decl) ?? decl);
  return isFunctionLike(fn) ? [fn] : [];
}

/**
 * The value a CommonJS module exports, where a required name leads to its export: `module.exports = value` (the
 * assignment), `exports.name = value` (its target).
 */
function exportedValue(decl: Node): Node | undefined {
  const parent = decl.getParent();
  const assignment = Node.isBinaryExpression(decl)
    ? decl
    : parent && Node.isBinaryExpression(parent) && parent.getLeft() === decl
      ? parent
      : undefined;
  return assignment && isModuleExportsAssignment(assignment) ? unwrap(assignment.getRight()) : undefined;
}

/** `module.exports = value`, `module.exports.name = value` or `exports.name = value`: what a CommonJS module exports. */
export function isModuleExportsAssignment(node: Node): node is BinaryExpression {
  return (
    Node.isBinaryExpression(node) &&
    node.getOperatorToken().getKind() === SyntaxKind.EqualsToken &&
    /^(?:module\.exports|(?:module\.)?exports\.[\w$]+)$/.test(node.getLeft().getText())
  );
}

/**
 * A method or a function-valued member a call reaches through `this.ask`, `obj.ask` or `ns.ask`: through a
 * table's property (`t.invoke`), every entry the call may run; through a method, its overrides too.
 */
function membersCalled(access: PropertyAccessExpression): FunctionLike[] {
  if (!projectMayDeclareMember(access, access.getName()) || libraryObject(access.getExpression())) return [];
  // (exactly that class's: `new C()` is no subclass of C)
  const made = madeMethod(access);
  if (made) return [made];
  const entries = entriesOf(access);
  if (entries) return entries;
  const decl = namedEntry(access) ?? resolved(access.getNameNode());
  if (!decl) return [];
  const value =
    Node.isPropertyAssignment(decl) || Node.isPropertyDeclaration(decl) || Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
  const fn = value && unwrap(value);
  if (!isFunctionLike(fn)) return [];
  return Node.isMethodDeclaration(fn) ? [fn, ...overridesOf(fn, receiverClass(access.getExpression()))] : [fn];
}

/**
 * The method a call runs on an object whose class is known where it is made: a `const` (or a `readonly` field)
 * holding `new C(...)` of a project class, however its type is written (`const auth: Step = new AuthCheck()`
 * calls AuthCheck's execute(), not every implementation of Step's).
 */
function madeMethod(access: PropertyAccessExpression): MethodDeclaration | undefined {
  const receiver = unwrap(access.getExpression());
  const nameNode = Node.isIdentifier(receiver)
    ? receiver
    : Node.isPropertyAccessExpression(receiver) && Node.isThisExpression(unwrap(receiver.getExpression()))
      ? receiver.getNameNode()
      : undefined;
  const decl = nameNode?.getSymbol()?.getDeclarations()[0];
  const fixed =
    decl &&
    ((Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const) ||
      (Node.isPropertyDeclaration(decl) && decl.isReadonly()));
  const initializer = fixed ? (decl as VariableDeclaration | PropertyDeclaration).getInitializer() : undefined;
  const made = initializer && unwrap(initializer);
  if (!made || !Node.isNewExpression(made)) return undefined;
  const declared = made.getExpression().getSymbol();
  let cls = (declared?.isAlias() ? declared.getAliasedSymbol() : declared)?.getDeclarations().find(Node.isClassDeclaration);
  for (let depth = 0; cls && depth < 5; depth++, cls = cls.getBaseClass()) {
    const method = cls.getInstanceMethod(access.getName());
    if (method) return method.getBody() ? method : undefined;
  }
  return undefined;
}

/**
 * `z.object(...)`, `JSON.stringify(...)`, `path.join(...)`: a member of an object a package or the
 * standard library declares (a global, or a name imported from a package), never a function of the
 * project. Said from the name's declaration alone, without the object's type.
 */
export function libraryObject(receiver: Node): boolean {
  const e = unwrap(receiver);
  if (!Node.isIdentifier(e)) return false;
  const symbol = e.getSymbol();
  const declarations = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
  return (
    declarations.length > 0 && declarations.every(d => d.getSourceFile().isInNodeModules() || d.getSourceFile().isFromExternalLibrary())
  );
}

/**
 * What a name declares, through imports; through a tsconfig.json `paths` alias too, which the analysis
 * does not resolve (the module is read from disk when it is not one of the run's files).
 */
export function resolved(id: Node): Node | undefined {
  const symbol = id.getSymbol();
  if (!symbol?.isAlias()) return symbol?.getDeclarations()[0];
  const target = symbol.getAliasedSymbol()?.getDeclarations()[0];
  if (target) return target;
  const alias = symbol.getDeclarations()[0];
  const importDecl = alias?.getFirstAncestorByKind(SyntaxKind.ImportDeclaration);
  if (!alias || !importDecl || !(Node.isImportSpecifier(alias) || Node.isImportClause(alias))) return undefined;
  const file = resolveThroughPaths(id.getSourceFile().getFilePath(), importDecl.getModuleSpecifierValue());
  const project = id.getProject();
  const module = file ? (project.getSourceFile(file) ?? project.addSourceFileAtPathIfExists(file)) : undefined;
  return module?.getExportedDeclarations().get(Node.isImportSpecifier(alias) ? alias.getName() : 'default')?.[0];
}
