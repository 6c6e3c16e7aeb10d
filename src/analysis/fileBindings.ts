/**
 * What a file binds, read from its syntax alone: the names its imports and requires bind, the other names it
 * declares, and the names it destructures from a member. Enough to answer, without the type checker, most of
 * the questions the site finder asks of every call: the checker's first question makes the program (the
 * standard library's, Node's, the SDK's and zod's declarations with the project's files), which on a tree with
 * nothing to migrate is most of a run's cost.
 *
 * Per file, one walk of the compiler's tree, kept as long as the file's text is (a new text is a new node).
 */
import { ts, type SourceFile } from 'ts-morph';

export interface ImportedBinding {
  /** The module specifier, as written. */
  module: string;
  /** The name the module exports it as: `default` for a default import, `*` for the module itself. */
  name: string;
}

interface FileBindings {
  imported: Map<string, ImportedBinding>;
  /** Each name declared other than by an import or a require: a variable, parameter, function, class... */
  declared: Set<string>;
  /** Member → the local names destructured from it (`sendRequest` → `send` for `{ sendRequest: send }`). */
  destructured: Map<string, Set<string>>;
  /** A variable initialised with a member read (`x.member`, `x['member']`, `x.member.bind(...)`) → that member. */
  memberAliases: Map<string, string>;
  /** Whether it exports anything from another module (`export { x } from './y.js'`, `export * from ...`). */
  reexports: boolean;
}

const cache = new WeakMap<ts.SourceFile, FileBindings>();

/** What `name` is bound to by the file's imports and requires, if anything. */
export function importedAs(file: SourceFile, name: string): ImportedBinding | undefined {
  return bindingsOf(file).imported.get(name);
}

/**
 * The binding `name` has in the file when the file binds it only by an import or a require, and declares
 * nothing else of that name that could shadow it somewhere (a parameter, a local variable).
 */
export function onlyImportedAs(file: SourceFile, name: string): ImportedBinding | undefined {
  const bindings = bindingsOf(file);
  return bindings.declared.has(name) ? undefined : bindings.imported.get(name);
}

/** Whether the file destructures `member` into a local of the name `local` anywhere. */
export function destructures(file: SourceFile, member: string, local: string): boolean {
  return bindingsOf(file).destructured.get(member)?.has(local) ?? false;
}

/** Whether the file may bind `local` to one of `members` read from an object: a destructuring, or a variable initialised with the read. */
export function mayAliasMember(file: SourceFile, local: string, members: Iterable<string>): boolean {
  const bindings = bindingsOf(file);
  for (const member of members) {
    if (bindings.destructured.get(member)?.has(local) || bindings.memberAliases.get(local) === member) return true;
  }
  return false;
}

/**
 * Whether a module may hand a name bound to one of `members` to its importers: it binds a local to one (a
 * destructuring, a variable initialised with the read), or exports something of another module.
 */
export function moduleMayAliasMember(module: SourceFile, members: ReadonlySet<string>): boolean {
  return handsOnMember(bindingsOf(module), members);
}

/**
 * The same for a module the run has not read (no trigger name in it), from its text on the disk: read once for
 * each text of the file importing it, so an edit of either in an editor's session is seen.
 */
export function unreadModuleMayAliasMember(importer: SourceFile, module: string, members: ReadonlySet<string>): boolean {
  let read = unread.get(importer.compilerNode);
  if (!read) unread.set(importer.compilerNode, (read = new Map()));
  let bindings = read.get(module);
  if (!bindings) {
    const text = importer.getProject().getFileSystem().readFileSync(module);
    // With its parents set: the walk reads a binding element's pattern and declaration through them.
    read.set(module, (bindings = walk(ts.createSourceFile(module, text, ts.ScriptTarget.Latest, true))));
  }
  return handsOnMember(bindings, members);
}

const unread = new WeakMap<ts.SourceFile, Map<string, FileBindings>>();

function handsOnMember(b: FileBindings, members: ReadonlySet<string>): boolean {
  return b.reexports || [...b.destructured.keys()].some(m => members.has(m)) || [...b.memberAliases.values()].some(m => members.has(m));
}

function bindingsOf(file: SourceFile): FileBindings {
  const sf = file.compilerNode;
  let bindings = cache.get(sf);
  if (!bindings) cache.set(sf, (bindings = walk(sf)));
  return bindings;
}

function walk(sf: ts.SourceFile): FileBindings {
  const b: FileBindings = { imported: new Map(), declared: new Set(), destructured: new Map(), memberAliases: new Map(), reexports: false };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) return importDeclaration(node, b);
    if (ts.isExportDeclaration(node) && node.moduleSpecifier) b.reexports = true;
    if (ts.isVariableDeclaration(node)) variableDeclaration(node, b);
    else if (ts.isBindingElement(node)) bindingElement(node, b);
    else if (declaresName(node)) b.declared.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return b;
}

type NamedDeclaration = ts.Node & { name: ts.Identifier };

/** A function, class, parameter, enum, namespace or import-equals declaring a plain name. */
function declaresName(node: ts.Node): node is NamedDeclaration {
  const named =
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isClassDeclaration(node) ||
    ts.isClassExpression(node) ||
    ts.isParameter(node) ||
    ts.isEnumDeclaration(node) ||
    ts.isModuleDeclaration(node) ||
    ts.isImportEqualsDeclaration(node);
  const name = (node as { name?: ts.Node }).name;
  return named && name !== undefined && ts.isIdentifier(name);
}

function importDeclaration(node: ts.ImportDeclaration, b: FileBindings): void {
  if (!ts.isStringLiteral(node.moduleSpecifier)) return;
  const module = node.moduleSpecifier.text;
  const clause = node.importClause;
  if (!clause) return;
  if (clause.name) b.imported.set(clause.name.text, { module, name: 'default' });
  const named = clause.namedBindings;
  if (named && ts.isNamespaceImport(named)) b.imported.set(named.name.text, { module, name: '*' });
  if (named && ts.isNamedImports(named)) {
    for (const s of named.elements) b.imported.set(s.name.text, { module, name: (s.propertyName ?? s.name).text });
  }
}

/** `const x = require('m')`, `const x = require('m').y`, `const x = server.elicitInput`, or any other variable. */
function variableDeclaration(node: ts.VariableDeclaration, b: FileBindings): void {
  if (!ts.isIdentifier(node.name)) return;
  const name = node.name.text;
  const init = node.initializer && skipOuter(node.initializer);
  const required = init && requiredModule(init);
  if (required) return void b.imported.set(name, { module: required, name: '*' });
  if (init && ts.isPropertyAccessExpression(init)) {
    const module = requiredModule(skipOuter(init.expression));
    if (module) return void b.imported.set(name, { module, name: init.name.text });
  }
  b.declared.add(name);
  const member = init && memberRead(init);
  if (member) b.memberAliases.set(name, member);
}

/** `{ a: b }` of a destructuring: `b` bound to the member `a`, imported where the destructured value is `require('m')`. */
function bindingElement(node: ts.BindingElement, b: FileBindings): void {
  if (!ts.isIdentifier(node.name)) return;
  const local = node.name.text;
  if (!ts.isObjectBindingPattern(node.parent)) return void b.declared.add(local);
  const member = node.propertyName
    ? ts.isIdentifier(node.propertyName) || ts.isStringLiteral(node.propertyName)
      ? node.propertyName.text
      : undefined
    : local;
  if (member !== undefined && !node.dotDotDotToken) {
    const locals = b.destructured.get(member) ?? new Set<string>();
    b.destructured.set(member, locals.add(local));
  }
  const declaration = node.parent.parent;
  const module =
    ts.isVariableDeclaration(declaration) && declaration.initializer ? requiredModule(skipOuter(declaration.initializer)) : undefined;
  if (module && member !== undefined) b.imported.set(local, { module, name: member });
  else b.declared.add(local);
}

/** The member an expression reads (`x.m`, `x['m']`), through a `.bind(...)` of it. */
function memberRead(expr: ts.Expression): string | undefined {
  let e = skipOuter(expr);
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'bind')
    e = skipOuter(e.expression.expression);
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return e.argumentExpression.text;
  return undefined;
}

function requiredModule(expr: ts.Expression): string | undefined {
  if (!ts.isCallExpression(expr) || !ts.isIdentifier(expr.expression) || expr.expression.text !== 'require') return undefined;
  const [arg] = expr.arguments;
  return arg && ts.isStringLiteralLike(arg) ? arg.text : undefined;
}

/** Parentheses, `as`, `!` and `satisfies` around an expression. */
function skipOuter(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isTypeAssertionExpression(e)
  )
    e = e.expression;
  return e;
}
