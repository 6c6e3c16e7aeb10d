/**
 * The server a helper's request is made on, where no type says what it is: a parameter typed by an
 * interface of the project, `any`, or untyped JavaScript. The helper's callers say it: what they hand it
 * (`confirm(mcp.server, q)`), a property of an object they hand it (`consent({ server: mcp.server })`
 * destructured or read as `opts.server`), or a field of the object they hand it (`askUser(this, q)`, whose
 * class assigns `this.mcp = new McpServer(...)`), followed through helpers that hand it on.
 */
import { Node, SyntaxKind, type CallExpression, type Identifier, type ParameterDeclaration, type SourceFile } from 'ts-morph';
import { serverKindOf, unwrap, type ServerKind } from '../analysis/mcpSymbols.js';
import type { FunctionLike } from '../analysis/functions.js';
import { declaresMember } from '../analysis/dispatch.js';
import { descendantsOfKind } from '../analysis/descendants.js';
import { isModuleExportsAssignment } from './callees.js';

/** How many hand-overs (an argument, a property, a field) are followed. */
const MAX_DEPTH = 6;

/** The kind of server `target` holds, as its helper's callers hand it. */
export function handedServerKind(target: Node): ServerKind | undefined {
  return kindOf(unwrap(target), new Set(), 0);
}

function kindOf(e: Node, seen: Set<Node>, depth: number): ServerKind | undefined {
  const direct = serverKindOf(e);
  if (direct) return direct;
  if (depth > MAX_DEPTH) return undefined;
  // `server.server` of an McpServer: the low-level Server.
  if (Node.isPropertyAccessExpression(e) && e.getName() === 'server' && kindOf(unwrap(e.getExpression()), seen, depth + 1) === 'McpServer')
    return 'Server';
  for (const value of valuesOf(e, seen, depth)) {
    const kind = kindOf(unwrap(value), seen, depth + 1);
    if (kind) return kind;
  }
  return undefined;
}

/** What `e` may hold, as the code that runs before it says: what callers hand a parameter, a member's value. */
function valuesOf(e: Node, seen: Set<Node>, depth: number): Node[] {
  if (Node.isPropertyAccessExpression(e)) {
    const name = e.getName();
    const holder = unwrap(e.getExpression());
    return [holder, ...valuesOf(holder, seen, depth + 1)].flatMap(h => memberValues(unwrap(h), name));
  }
  if (!Node.isIdentifier(e)) return [];
  const declaration = e.getSymbol()?.getDeclarations()[0];
  if (!declaration || seen.has(declaration)) return [];
  seen.add(declaration);
  if (Node.isParameterDeclaration(declaration)) return argumentsFor(declaration);
  if (Node.isVariableDeclaration(declaration)) {
    const init = declaration.getInitializer();
    return init ? [init] : [];
  }
  // `{ server }` destructured from a parameter: that property of what callers hand it.
  if (Node.isBindingElement(declaration)) {
    const pattern = declaration.getParent();
    const param = pattern?.getParent();
    if (!pattern || !Node.isObjectBindingPattern(pattern) || !param || !Node.isParameterDeclaration(param)) return [];
    const key = declaration.getPropertyNameNode()?.getText() ?? declaration.getName();
    return argumentsFor(param).flatMap(arg => memberValues(unwrap(arg), key));
  }
  return [];
}

/** The values of member `name` of `holder`: an object literal's property, or a field of the class `this` is. */
function memberValues(holder: Node, name: string): Node[] {
  if (Node.isObjectLiteralExpression(holder)) {
    const property = holder.getProperty(name);
    if (property && Node.isPropertyAssignment(property)) return [property.getInitializerOrThrow()];
    if (property && Node.isShorthandPropertyAssignment(property)) return [property.getNameNode()];
    return [];
  }
  if (holder.getKind() !== SyntaxKind.ThisKeyword) return [];
  const owner = holder.getFirstAncestor(a => Node.isClassDeclaration(a) || Node.isClassExpression(a));
  if (!owner || !(Node.isClassDeclaration(owner) || Node.isClassExpression(owner))) return [];
  const values: Node[] = [];
  const field = owner.getProperty(name)?.getInitializer();
  if (field) values.push(field);
  // `this.name = value` in the class's own code (its constructor, usually).
  for (const assignment of descendantsOfKind(owner, SyntaxKind.BinaryExpression)) {
    const left = unwrap(assignment.getLeft());
    if (assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || !Node.isPropertyAccessExpression(left)) continue;
    if (left.getName() === name && left.getExpression().getKind() === SyntaxKind.ThisKeyword) values.push(assignment.getRight());
  }
  return values;
}

/** Per parameter, what its function's calls hand it: finding references is the costly part. */
const handed = new WeakMap<ParameterDeclaration, Node[]>();

/** What the calls of a parameter's function hand it. */
function argumentsFor(param: ParameterDeclaration): Node[] {
  const known = handed.get(param);
  if (known) return known;
  const args = callArguments(param);
  handed.set(param, args);
  return args;
}

function callArguments(param: ParameterDeclaration): Node[] {
  const fn = param.getParent() as FunctionLike;
  const index = fn.getParameters().indexOf(param);
  if (param.isRestParameter()) return [];
  const name = nameOf(fn);
  const uses = name ? usesOf(name) : usesOfModuleExport(fn);
  return uses.map(use => callOf(use)?.getArguments()[index]).filter((arg): arg is Node => arg !== undefined);
}

/**
 * The calls, in the modules that require or import it, of a function its module exports without a name of its own
 * (`module.exports = function (server) {...}`, `exports.register = (server) => ...`, `export default (server) => ...`,
 * `export default function (server) {...}`):
 * a callee whose symbol leads back to the assignment, its target or the default export.
 */
function usesOfModuleExport(fn: FunctionLike): Node[] {
  const parent = fn.getParent();
  if (Node.isFunctionDeclaration(fn) && fn.isDefaultExport()) return modulesUses(fn.getSourceFile(), [fn]);
  if (parent && Node.isExportAssignment(parent)) return modulesUses(parent.getSourceFile(), [parent]);
  if (!parent || !isModuleExportsAssignment(parent) || parent.getRight() !== (fn as Node)) return [];
  return modulesUses(parent.getSourceFile(), [parent, parent.getLeft()]);
}

/** The callees in other modules of the project whose (aliased) symbol is declared by one of `declarations`. */
function modulesUses(sf: SourceFile, declarations: Node[]): Node[] {
  const uses: Node[] = [];
  for (const other of sf.getProject().getSourceFiles()) {
    if (other === sf || other.isDeclarationFile() || !/\b(?:require\s*\(|import\b)/.test(other.getFullText())) continue;
    for (const id of descendantsOfKind(other, SyntaxKind.Identifier)) {
      if (!callOf(id)) continue;
      const symbol = id.getSymbol();
      const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
      if (target?.getDeclarations().some(d => declarations.includes(d))) uses.push(id);
    }
  }
  return uses;
}

/** The name a function is declared or assigned by, whose references are its uses. */
function nameOf(fn: FunctionLike): Node | undefined {
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return fn.getNameNode();
  const parent = fn.getParent();
  if (
    parent &&
    (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent)) &&
    (parent.getInitializer() as Node | undefined) === fn
  ) {
    const name = parent.getNameNode();
    return Node.isIdentifier(name) ? name : undefined;
  }
  return undefined;
}

/** The uses of a name across the project (not the name itself, nor the imports and exports that pass it on). */
function usesOf(name: Node): Node[] {
  if (!Node.isIdentifier(name)) return [];
  const references = [...name.findReferencesAsNodes(), ...requiredUses(name)];
  // Put in an object (`export default { confirm }`): the uses of that property too (`ui.confirm(server, q)`).
  const asProperties = references.flatMap(r => {
    const holder = r.getParent();
    return holder && Node.isShorthandPropertyAssignment(holder) ? holder.getNameNode().findReferencesAsNodes() : [];
  });
  return [...references, ...asProperties].filter(r => {
    const parent = r.getParent();
    if (
      r === name ||
      (parent &&
        (Node.isImportSpecifier(parent) ||
          Node.isImportClause(parent) ||
          Node.isExportSpecifier(parent) ||
          Node.isExportAssignment(parent)))
    )
      return false;
    // The method it overrides (or an override of it), another entry's of a table, an interface's: a declaration, not a use.
    return !declaresMember(r);
  });
}

/**
 * A function a CommonJS module exports (`module.exports = { confirm }`, `exports.confirm = ...`), used where
 * another module requires it (`const { confirm } = require('./confirm')`): the language service does not
 * follow the require to those uses, though each use's symbol leads back to the function. Found by name in
 * the modules that require something, and kept where it does.
 */
function requiredUses(name: Identifier): Node[] {
  const sf = name.getSourceFile();
  if (!/\.c?js$/.test(sf.getFilePath()) || !/\b(?:module\.)?exports\b/.test(sf.getFullText())) return [];
  const declaration = name.getParent();
  const text = name.getText();
  const uses: Node[] = [];
  for (const other of sf.getProject().getSourceFiles()) {
    if (other === sf || other.isDeclarationFile() || !other.getFullText().includes('require(') || !other.getFullText().includes(text))
      continue;
    for (const id of descendantsOfKind(other, SyntaxKind.Identifier)) {
      if (id.getText() !== text) continue;
      const symbol = id.getSymbol();
      const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
      if (target?.getDeclarations().includes(declaration)) uses.push(id);
    }
  }
  return uses;
}

/** The call a use of a name makes, `ask(...)` or `this.ask(...)`. */
function callOf(use: Node): CallExpression | undefined {
  const parent = use.getParent();
  const callee = parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === use ? parent : use;
  const call = callee.getParent();
  return call && Node.isCallExpression(call) && call.getExpression() === callee ? call : undefined;
}
