/**
 * Tables of entries that share a property name: `tools: ToolDef[] = [{ name, invoke: async (args, ctx)
 * => ... }, new SummarizeTool(), ...]`, the entries in several files, some classes implementing the
 * interface's `invoke`, some object literals, or an array of untyped literals. A call through the
 * property, `t.invoke(...)` where `t` is any element, may run any entry's function: it is a dispatch,
 * not a call of the one TypeScript resolves it to (the interface's signature, or, in an untyped array,
 * the first element's). And every entry's `invoke` is among the references of every other one (the
 * language service relates them through the interface): those are declarations of siblings, not uses.
 * A call through one named entry (`deleteTool.invoke(...)`, `deleteTool` a const object literal) is a
 * call of that entry only.
 */
import { Node, SyntaxKind, type PropertyAccessExpression } from 'ts-morph';
import { unwrap } from './mcpSymbols.js';
import type { FunctionLike } from './functions.js';

/** A property's name where it is declared, not used: in an object literal, a class, an interface or a type. */
export function declaresMember(ref: Node): boolean {
  const parent = ref.getParent();
  if (!parent) return false;
  const declares =
    Node.isPropertyAssignment(parent) ||
    Node.isMethodDeclaration(parent) ||
    Node.isPropertyDeclaration(parent) ||
    Node.isPropertySignature(parent) ||
    Node.isMethodSignature(parent) ||
    Node.isGetAccessorDeclaration(parent);
  return declares && parent.getNameNode() === ref;
}

/**
 * The entries' functions a call through `access` may run, when the property is one a table's entries
 * share: an interface's member (one entry or more: the call does not name the one that runs), or a
 * member of the object literals of an array. Undefined for a member of one object or class, which the
 * caller resolves as it is.
 */
export function entriesOf(access: PropertyAccessExpression): FunctionLike[] | undefined {
  if (namedEntry(access)) return undefined;
  const declarations = (access.getNameNode().getSymbol()?.getDeclarations() ?? []).filter(
    d => !d.getSourceFile().isDeclarationFile() && !d.getSourceFile().isInNodeModules(),
  );
  const members = new Set<Node>();
  let shared = false;
  for (const d of declarations) {
    if (Node.isPropertySignature(d) || Node.isMethodSignature(d)) {
      shared = true;
      for (const m of implementationsOf(d)) members.add(m);
      continue;
    }
    const siblings = siblingsOf(d);
    shared ||= siblings.length > 1;
    for (const m of siblings.length > 0 ? siblings : [d]) members.add(m);
  }
  // An untyped array of literals: TypeScript resolves the call to one element's member, or to several.
  shared ||= declarations.length > 1 && declarations.every(d => Node.isObjectLiteralExpression(d.getParent()));
  if (!shared) return undefined;
  const entries = [...new Set([...members].map(functionOf).filter((f): f is FunctionLike => f !== undefined))];
  return entries.length > 0 ? entries : undefined;
}

/**
 * The entry a call names when its receiver is one const object literal (`deleteTool.invoke(...)`):
 * that literal's member, whatever type the const is declared with.
 */
export function namedEntry(access: PropertyAccessExpression): Node | undefined {
  const receiver = unwrap(access.getExpression());
  if (!Node.isIdentifier(receiver)) return undefined;
  const decl = declarationOf(receiver);
  const literal =
    decl && Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const'
      ? objectLiteralOf(decl.getInitializer())
      : undefined;
  return literal?.getProperty(access.getName());
}

/**
 * The names whose references may be calls of `fn` through its table: its own, and those of the other
 * entries of an untyped array (a call through the array resolves to one of them, the first one).
 */
export function entryNames(fn: FunctionLike, name: Node): Node[] {
  const member = memberOf(fn);
  const literal = member?.getParentIfKind(SyntaxKind.ObjectLiteralExpression);
  if (!member || !literal) return [name];
  // Typed by an interface: the language service relates every entry's name to every call through it already.
  const contextual =
    literal
      .getContextualType()
      ?.getProperty((member as import('ts-morph').PropertyAssignment).getName())
      ?.getDeclarations() ?? [];
  if (contextual.some(d => Node.isPropertySignature(d) || Node.isMethodSignature(d))) return [name];
  const names = siblingsOf(member).map(m => (m as import('ts-morph').PropertyAssignment).getNameNode());
  return [name, ...names.filter(n => n !== name && Node.isIdentifier(n))];
}

/**
 * Whether a reference of an entry's name is a use of `fn`: not another entry's declaration, and a call
 * through the table only when the table holds `fn`.
 */
export function usesEntry(ref: Node, fn: FunctionLike): boolean {
  if (declaresMember(ref)) return false;
  const access = ref.getParent();
  if (!access || !Node.isPropertyAccessExpression(access) || access.getNameNode() !== ref) return true;
  const entries = entriesOf(access);
  if (entries) return entries.includes(fn);
  const named = namedEntry(access);
  return !named || functionOf(named) === fn;
}

/** How an entry's function is named in a reason: its class, the const holding its object, or its table's `name`. */
export function entryLabel(fn: FunctionLike): string {
  const cls = fn.getFirstAncestorByKind(SyntaxKind.ClassDeclaration);
  if (Node.isMethodDeclaration(fn) && cls?.getName()) return cls.getName()!;
  const literal = memberOf(fn)?.getParentIfKind(SyntaxKind.ObjectLiteralExpression);
  const holder = literal && holderOf(literal);
  if (holder && Node.isVariableDeclaration(holder)) return holder.getName();
  const named = literal?.getProperty('name');
  const value = named && Node.isPropertyAssignment(named) ? named.getInitializer() : undefined;
  if (value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value))) return `the ${value.getLiteralText()} entry`;
  return `an entry in ${fn.getSourceFile().getBaseName()}`;
}

/** Per version of the program (an edit makes a new one): each signature's implementations. */
const implementations = new WeakMap<object, Node[]>();

/** The members that implement an interface's property or method: in object literals and classes of the project. */
function implementationsOf(signature: Node): Node[] {
  const cached = implementations.get(signature.compilerNode);
  // An edit of an entry's file (an inlining pass) forgets its members, while the signature's file stays as it was.
  if (cached && !cached.some(m => m.wasForgotten())) return cached;
  const name = (signature as import('ts-morph').PropertySignature).getNameNode();
  const found = Node.isIdentifier(name) ? membersImplementing(name) : [];
  implementations.set(signature.compilerNode, found);
  return found;
}

function membersImplementing(name: import('ts-morph').Identifier): Node[] {
  return (
    name
      .findReferencesAsNodes()
      // `{ name, invoke }`: a function declared elsewhere, stored in the entry under the property's name.
      .filter(
        ref =>
          (declaresMember(ref) || Node.isShorthandPropertyAssignment(ref.getParent())) &&
          !ref.getSourceFile().isDeclarationFile() &&
          !ref.getSourceFile().isInNodeModules(),
      )
      .map(ref => ref.getParent()!)
      .filter(m => !Node.isPropertySignature(m) && !Node.isMethodSignature(m))
  );
}

/** The same-named members of the other elements of the array literal an object literal's member is an element of (itself included). */
function siblingsOf(member: Node): Node[] {
  const literal = member.getParentIfKind(SyntaxKind.ObjectLiteralExpression);
  const name = (member as import('ts-morph').PropertyAssignment).getName?.();
  const table = literal && tableOf(literal);
  if (!table || !name) return [];
  return table.getElements().flatMap(element => objectLiteralOf(element)?.getProperty(name) ?? []);
}

/** The array literal an object literal is an element of: directly, or as the const it initializes. */
function tableOf(literal: Node): import('ts-morph').ArrayLiteralExpression | undefined {
  let element: Node = literal;
  while (
    Node.isParenthesizedExpression(element.getParent()) ||
    Node.isAsExpression(element.getParent()) ||
    Node.isSatisfiesExpression(element.getParent())
  )
    element = element.getParent()!;
  const parent = element.getParent();
  if (parent && Node.isArrayLiteralExpression(parent)) return parent;
  const holder = holderOf(literal);
  if (!holder || !Node.isVariableDeclaration(holder)) return undefined;
  const name = holder.getNameNode();
  if (!Node.isIdentifier(name)) return undefined;
  for (const ref of name.findReferencesAsNodes()) {
    const array = ref.getParent();
    if (array && Node.isArrayLiteralExpression(array)) return array;
  }
  return undefined;
}

/** The const variable an object literal initializes, if it does. */
function holderOf(literal: Node): Node | undefined {
  let value: Node = literal;
  while (
    Node.isParenthesizedExpression(value.getParent()) ||
    Node.isAsExpression(value.getParent()) ||
    Node.isSatisfiesExpression(value.getParent())
  )
    value = value.getParent()!;
  const holder = value.getParent();
  return holder && Node.isVariableDeclaration(holder) && holder.getInitializer() === value ? holder : undefined;
}

/** The object literal an expression is, directly or as the const it names. */
function objectLiteralOf(expression: Node | undefined): import('ts-morph').ObjectLiteralExpression | undefined {
  let e = expression && unwrap(expression);
  while (e && Node.isSatisfiesExpression(e)) e = unwrap(e.getExpression());
  if (e && Node.isIdentifier(e)) {
    const decl = declarationOf(e);
    e =
      decl && Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const'
        ? decl.getInitializer()
        : undefined;
    while (e && (Node.isSatisfiesExpression(e) || Node.isAsExpression(e) || Node.isParenthesizedExpression(e))) e = e.getExpression();
  }
  return e && Node.isObjectLiteralExpression(e) ? e : undefined;
}

/** The object literal or class an entry's function is a member of (`{ name, invoke: async () => ... }`, `class X { async invoke() {} }`). */
export function entryObjectOf(fn: FunctionLike): Node | undefined {
  const parent = memberOf(fn)?.getParent();
  return parent && (Node.isObjectLiteralExpression(parent) || Node.isClassDeclaration(parent)) ? parent : undefined;
}

/** The member of an object literal or class a function is the value of (`invoke: async () => ...`, `async invoke() {...}`). */
function memberOf(fn: FunctionLike): Node | undefined {
  if (Node.isMethodDeclaration(fn)) return fn;
  const parent = fn.getParent();
  return parent &&
    (Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent)) &&
    parent.getInitializer() &&
    unwrap(parent.getInitializer()!) === fn
    ? parent
    : undefined;
}

/** The function an entry's member runs: a method's body, or the function its property holds (written there, or named). */
export function functionOf(member: Node): FunctionLike | undefined {
  if (Node.isMethodDeclaration(member)) return member.getBody() ? member : undefined;
  let value: Node | undefined;
  if (Node.isPropertyAssignment(member) || Node.isPropertyDeclaration(member)) value = member.getInitializer();
  else if (Node.isShorthandPropertyAssignment(member)) value = member.getValueSymbol()?.getDeclarations()[0];
  value = value && unwrap(value);
  if (value && Node.isIdentifier(value)) value = declarationOf(value);
  if (value && Node.isVariableDeclaration(value)) value = value.getInitializer() && unwrap(value.getInitializer()!);
  if (value && (Node.isArrowFunction(value) || Node.isFunctionExpression(value) || Node.isFunctionDeclaration(value)) && value.getBody())
    return value as FunctionLike;
  return undefined;
}

/** What a name declares, through an import. */
function declarationOf(id: Node): Node | undefined {
  const symbol = id.getSymbol();
  return (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
}
