/**
 * Which names and expressions are the MCP SDK's: resolved through imports, requires and
 * declarations (never by spelling alone), with the type checker as a fallback.
 */
import {
  Node,
  SyntaxKind,
  VariableDeclarationKind,
  type CallExpression,
  type ClassDeclaration,
  type Expression,
  type Identifier,
  type SourceFile,
  type Symbol as MorphSymbol,
} from 'ts-morph';
import { importedAs, onlyImportedAs, type ImportedBinding } from './fileBindings.js';
import { classMembersOf } from './projectNames.js';
import { descendantsOfKind } from './descendants.js';

// server-legacy: where the official codemod moves the HTTP+SSE transport and the auth helpers (`server-legacy/sse`).
/** The SDK 2.x server package: what a migrated file imports its server pieces from. */
export const V2_SERVER_MODULE = '@modelcontextprotocol/server';
/** The SDK 1.x package: what a file not yet upgraded imports its server pieces from. */
export const V1_SDK_MODULE = '@modelcontextprotocol/sdk';
const MCP_MODULE = /^@modelcontextprotocol\/(sdk|server|server-legacy|core|node|express|hono)(\/|$)/;

export function isMcpModule(specifier: string): boolean {
  return MCP_MODULE.test(specifier);
}

export interface McpImport {
  module: string;
  /** The exported name (`McpServer` even when imported `as M`). */
  exportName: string;
}

/** The MCP export an identifier stands for, following `import {X as Y}`, `import * as ns`, and `const {X} = require(...)`. */
export function mcpImportOf(node: Node): McpImport | undefined {
  if (Node.isPropertyAccessExpression(node)) {
    // ns.McpServer where `import * as ns from '@modelcontextprotocol/...'` or `const ns = require(...)`
    const ns = mcpNamespaceOf(node.getExpression());
    return ns ? { module: ns, exportName: node.getName() } : undefined;
  }
  if (!Node.isIdentifier(node)) return undefined;
  const bound = boundByImport(node);
  if (bound !== 'ask the checker')
    return bound && bound.name !== '*' && bound.name !== 'default' && isMcpModule(bound.module)
      ? { module: bound.module, exportName: bound.name }
      : undefined;
  const symbol = node.getSymbol();
  if (!symbol) return undefined;
  for (const decl of symbol.getDeclarations()) {
    if (Node.isImportSpecifier(decl)) {
      const module = decl.getImportDeclaration().getModuleSpecifierValue();
      if (isMcpModule(module)) return { module, exportName: decl.getName() };
    }
    if (Node.isBindingElement(decl)) {
      const pattern = decl.getParent();
      const varDecl = pattern?.getParent();
      if (Node.isVariableDeclaration(varDecl)) {
        const module = requiredModule(varDecl.getInitializer());
        if (module && isMcpModule(module)) {
          return { module, exportName: decl.getPropertyNameNode()?.getText() ?? decl.getName() };
        }
      }
    }
  }
  return undefined;
}

function mcpNamespaceOf(node: Node): string | undefined {
  if (!Node.isIdentifier(node)) return undefined;
  const bound = boundByImport(node);
  if (bound !== 'ask the checker') return bound && bound.name === '*' && isMcpModule(bound.module) ? bound.module : undefined;
  for (const decl of node.getSymbol()?.getDeclarations() ?? []) {
    if (Node.isNamespaceImport(decl)) {
      const module = decl.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)?.getModuleSpecifierValue();
      if (module && isMcpModule(module)) return module;
    }
    if (Node.isVariableDeclaration(decl)) {
      const module = requiredModule(decl.getInitializer());
      if (module && isMcpModule(module)) return module;
    }
  }
  return undefined;
}

/**
 * What an import or a require binds a name to, from the file's syntax: undefined where nothing does (a name
 * of the file's own, which no MCP import is), or 'ask the checker' where the file also declares that name
 * elsewhere and may shadow the import where it is used.
 */
function boundByImport(id: Identifier): ImportedBinding | undefined | 'ask the checker' {
  const file = id.getSourceFile();
  const bound = importedAs(file, id.getText());
  if (!bound) return undefined;
  return onlyImportedAs(file, id.getText()) ?? 'ask the checker';
}

function requiredModule(init: Node | undefined): string | undefined {
  if (!init || !Node.isCallExpression(init)) return undefined;
  const callee = init.getExpression();
  const [arg] = init.getArguments();
  if (Node.isIdentifier(callee) && callee.getText() === 'require' && arg && Node.isStringLiteral(arg)) return arg.getLiteralValue();
  return undefined;
}

/** The calls of an SDK server's `method` in a file (`server.server.getClientCapabilities()`, `this.mcp.sendLoggingMessage(...)`). */
export function serverMethodCalls(sf: SourceFile, method: string): CallExpression[] {
  if (!sf.getFullText().includes(method)) return [];
  return descendantsOfKind(sf, SyntaxKind.CallExpression).filter(call => {
    const callee = unwrap(call.getExpression());
    return Node.isPropertyAccessExpression(callee) && callee.getName() === method && serverKindOf(callee.getExpression()) !== undefined;
  });
}

export type ServerKind = 'McpServer' | 'Server';

/** Whether an expression is an SDK `McpServer` or low-level `Server`, and which. */
export function serverKindOf(expr: Node, depth = 0): ServerKind | undefined {
  if (depth > 6) return undefined;
  const e = unwrap(expr);
  // mcpServer.server is the low-level Server.
  if (Node.isPropertyAccessExpression(e) && e.getName() === 'server' && serverKindOf(e.getExpression(), depth + 1) === 'McpServer') {
    return 'Server';
  }
  if (Node.isNewExpression(e)) {
    const made = constructedKind(e.getExpression());
    return made === 'not a server' ? undefined : (made ?? serverKindFromType(e));
  }
  if (Node.isThisExpression(e)) return thisKind(e);
  const symbol = Node.isIdentifier(e) ? e.getSymbol() : Node.isPropertyAccessExpression(e) ? e.getNameNode().getSymbol() : undefined;
  for (const decl of symbol?.getDeclarations() ?? []) {
    if (Node.isVariableDeclaration(decl) || Node.isPropertyDeclaration(decl) || Node.isParameterDeclaration(decl)) {
      const typeNode = decl.getTypeNode();
      const declared = typeNode && typeNodeKind(typeNode);
      if (declared) return declared;
      const init = decl.getInitializer();
      if (init) {
        const kind = serverKindOf(init, depth + 1);
        if (kind) return kind;
      }
    }
  }
  if (Node.isIdentifier(e) && sdkHandlerName(e, depth)) return undefined;
  return serverKindFromType(e);
}

/** A name declared only by parameters of handlers registered with the SDK (sdkHandlerParameter). */
function sdkHandlerName(id: import('ts-morph').Identifier, depth = 0): boolean {
  const declarations = id.getSymbol()?.getDeclarations() ?? [];
  return declarations.length > 0 && declarations.every(d => sdkHandlerParameter(d, depth));
}

/** The SDK's registrations, by the server class whose method they are: their handlers' parameters are the SDK's. */
const REGISTRATIONS: Record<ServerKind, ReadonlySet<string>> = {
  McpServer: new Set(['tool', 'registerTool', 'prompt', 'registerPrompt', 'resource', 'registerResource']),
  Server: new Set(['setRequestHandler']),
};
const REGISTRATION_NAMES = Object.values(REGISTRATIONS).flatMap(names => [...names]);

/**
 * An unannotated parameter (or a name destructured from one) of a handler registered with the SDK: the
 * arguments the client sent, the request, or the handler's extra, never a server. Said from the syntax,
 * because asking its type resolves the registration's overloads, zod's generics and all, once per checker.
 */
function sdkHandlerParameter(decl: Node, depth: number): boolean {
  const param = Node.isParameterDeclaration(decl)
    ? decl
    : Node.isBindingElement(decl)
      ? decl.getFirstAncestorByKind(SyntaxKind.Parameter)
      : undefined;
  // A default could be anything the server holds.
  if (!param || param.getTypeNode() || ((Node.isBindingElement(decl) || Node.isParameterDeclaration(decl)) && decl.getInitializer()))
    return false;
  const fn = param.getParent();
  const call = fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ? fn.getParent() : undefined;
  if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(fn as Node as import('ts-morph').Expression)) return false;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return false;
  const kind = serverKindOf(callee.getExpression(), depth + 1);
  return kind !== undefined && REGISTRATIONS[kind].has(callee.getName()) && !receiverOverrides(callee.getExpression(), callee.getName());
}

/**
 * Whether `receiver.<name>(...)` runs a registration method a project class declares again (the receiver
 * is an instance of it): then it is not the SDK's registration. Asked of the receiver's type only in a
 * project that has such a class.
 */
export function receiverOverrides(receiver: Node, name: string): boolean {
  return overridingClass(receiver, name) !== undefined;
}

/**
 * SDK 1.x's registration methods that SDK 2.x's McpServer no longer has, by the method the official
 * codemod turns their calls into: a `registerTool(...)` the analysis reads may have been written
 * `tool(...)`, so a project class declaring `tool()` stands between it and the SDK as well.
 */
const V1_REGISTRATION: Readonly<Record<string, string>> = { registerTool: 'tool', registerPrompt: 'prompt', registerResource: 'resource' };

/**
 * The project class the receiver is an instance of that declares `name` again (or, for a 2.x registration,
 * the 1.x method the official codemod turned calls of into it), with the member it declares; undefined when
 * the call reaches the SDK's own method. A receiver whose type cannot be asked is taken to reach a declaration.
 */
export function overridingClass(receiver: Node, name: string): { cls: string; member: string } | undefined {
  const names = [name, V1_REGISTRATION[name]].filter((n): n is string => n !== undefined);
  const declared = overriddenRegistrations(receiver);
  if (!names.some(n => declared.has(n))) return undefined;
  let cls: Node | undefined;
  try {
    cls = receiver
      .getType()
      .getNonNullableType()
      .getApparentType()
      .getSymbol()
      ?.getDeclarations()
      .find(d => Node.isClassDeclaration(d) || Node.isClassExpression(d));
  } catch {
    return { cls: 'a class of the project', member: names.find(n => declared.has(n))! };
  }
  for (let depth = 0; cls && depth < 8 && (Node.isClassDeclaration(cls) || Node.isClassExpression(cls)); depth++) {
    if (cls.getSourceFile().isInNodeModules()) return undefined;
    const here = cls;
    const member = names.find(n => here.getInstanceMember(n));
    if (member) return { cls: here.getName() ?? 'a class of the project', member };
    cls = cls.getBaseClass();
  }
  return undefined;
}

const overriddenByProgram = new WeakMap<object, Set<string>>();

/**
 * The registration methods a class of the project that extends an SDK server declares again: through
 * an instance of it (which serverKindOf calls an SDK server), its handlers' parameters are what that
 * class passes them, a server maybe. Read once per program, from the declarations.
 */
function overriddenRegistrations(at: Node): ReadonlySet<string> {
  const project = at.getProject();
  const program = project.getProgram().compilerObject;
  const known = overriddenByProgram.get(program);
  if (known) return known;
  const names = new Set<string>();
  for (const sf of project.getSourceFiles()) {
    if (sf.isInNodeModules() || sf.isDeclarationFile()) continue;
    // Read off each file's syntax once per text: the program changes with every edit of any file, and most
    // files declare no class with a member of such a name.
    const members = classMembersOf(sf.compilerNode);
    if (!REGISTRATION_NAMES.some(n => members.has(n))) continue;
    const classes = [...descendantsOfKind(sf, SyntaxKind.ClassDeclaration), ...descendantsOfKind(sf, SyntaxKind.ClassExpression)];
    for (const cls of classes) {
      if (!extendedKind(cls as import('ts-morph').ClassDeclaration, 0)) continue;
      for (const member of cls.getMembers()) {
        const name = Node.hasName(member) ? member.getName() : undefined;
        if (name && REGISTRATION_NAMES.includes(name)) names.add(name);
      }
    }
  }
  overriddenByProgram.set(program, names);
  return names;
}

/** Types that keep some of a server's members: a `Pick<Server, 'elicitInput'>` still sends the server's requests. */
const PART_OF = new Set(['Pick', 'Omit', 'Partial', 'Required', 'Readonly', 'NonNullable']);

/**
 * The server class a declared type names: `Server`, `McpServer | undefined`, `Pick<Server, 'elicitInput'>`,
 * or a type alias of the project's for one of those. Read from the declarations, so the same whether the
 * SDK's types resolve or not.
 */
function typeNodeKind(node: import('ts-morph').TypeNode, depth = 0): ServerKind | undefined {
  if (depth > 10) return undefined;
  if (Node.isParenthesizedTypeNode(node)) return typeNodeKind(node.getTypeNode(), depth + 1);
  if (Node.isUnionTypeNode(node) || Node.isIntersectionTypeNode(node))
    return node
      .getTypeNodes()
      .map(t => typeNodeKind(t, depth + 1))
      .find(k => k !== undefined);
  // `McpServer['server']`: the low-level Server.
  if (Node.isIndexedAccessTypeNode(node)) {
    const index = node.getIndexTypeNode();
    const literal = Node.isLiteralTypeNode(index) ? literalString(index.getLiteral()) : undefined;
    return literal === 'server' && typeNodeKind(node.getObjectTypeNode(), depth + 1) === 'McpServer' ? 'Server' : undefined;
  }
  if (!Node.isTypeReference(node)) return undefined;
  const name = node.getTypeName();
  const kind = classKind(name);
  if (kind) return kind;
  const [first] = node.getTypeArguments();
  if (first && PART_OF.has(name.getText())) return typeNodeKind(first, depth + 1);
  const symbol = Node.isIdentifier(name) ? name.getSymbol() : undefined;
  const alias = (symbol?.getAliasedSymbol() ?? symbol)?.getDeclarations().find(d => Node.isTypeAliasDeclaration(d));
  const aliased = alias && Node.isTypeAliasDeclaration(alias) && !alias.getSourceFile().isInNodeModules() ? alias.getTypeNode() : undefined;
  return aliased ? typeNodeKind(aliased, depth + 1) : undefined;
}

/** The SDK server class a name stands for: the SDK's own, or a project class that extends one (`class NotesServer extends McpServer`). */
function classKind(node: Node, depth = 0): ServerKind | undefined {
  const imported = mcpImportOf(node);
  if (imported && (imported.exportName === 'McpServer' || imported.exportName === 'Server')) return imported.exportName;
  if (depth > 4 || !Node.isIdentifier(node)) return undefined;
  const declared = declaredClass(declarationsOf(node));
  return declared ? extendedKind(declared, depth) : undefined;
}

/** The declarations a name stands for, through an import's alias. */
function declarationsOf(id: Node): Node[] {
  const symbol = id.getSymbol();
  return (symbol?.getAliasedSymbol() ?? symbol)?.getDeclarations() ?? [];
}

function declaredClass(declarations: Node[]): ClassDeclaration | undefined {
  return declarations.find((d): d is ClassDeclaration => Node.isClassDeclaration(d));
}

/**
 * What `new C(...)` makes, said from C's declaration where that is certain, so that the many constructions that
 * make no server (`new ProtocolError(...)`, `new Map()`, `new ApiClient(...)`) are not typed one by one: an SDK
 * export other than the two servers, a class of the project whose `extends` chain ends without reaching one, or
 * a global of the standard library or Node is 'not a server'; undefined where only the type can say (a package's
 * class that extends something, a class held in a variable, an `extends` of a call).
 */
function constructedKind(callee: Node, listNesting = 0): ServerKind | 'not a server' | undefined {
  const imported = mcpImportOf(callee);
  if (imported) return imported.exportName === 'McpServer' || imported.exportName === 'Server' ? imported.exportName : 'not a server';
  if (!Node.isIdentifier(callee)) return undefined;
  const declarations = declarationsOf(callee);
  if (declarations.length > 0 && declarations.every(d => isStandardLibrary(d.getSourceFile().getFilePath()))) return 'not a server';
  const listed = listNesting < 2 ? listedClasses(declarations) : undefined;
  if (listed) return sameKind(listed.map(c => constructedKind(c, listNesting + 1)));
  let cls = declaredClass(declarations);
  for (let depth = 0; cls && !cls.getSourceFile().isInNodeModules() && depth < 5; depth++) {
    const base = cls.getExtends()?.getExpression();
    if (!base) return 'not a server';
    const kind = classKind(base);
    if (kind) return kind;
    if (!Node.isIdentifier(base)) return undefined;
    cls = declaredClass(declarationsOf(base));
  }
  return undefined;
}

/**
 * The classes a const loop variable takes, where the loop runs over an array written out (`for (const Tool of
 * [A, B])`, or over a const holding one): each said from its declaration. Typing `new Tool(...)` instead asks the
 * checker for the array's element type, whose subtype reduction compares every listed class with every other (3.9 s
 * for the 300 tool classes of the bench's 1,000-file tree).
 */
function listedClasses(declarations: Node[]): Identifier[] | undefined {
  const [decl] = declarations;
  if (declarations.length !== 1 || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode()) || !isConst(decl))
    return undefined;
  const loop = decl.getParent()?.getParent();
  if (!loop || !Node.isForOfStatement(loop) || loop.isAwaited()) return undefined;
  let list: Node | undefined = unwrap(loop.getExpression());
  if (Node.isIdentifier(list)) {
    const [held, ...more] = declarationsOf(list);
    list = more.length === 0 && Node.isVariableDeclaration(held) && isConst(held) ? held.getInitializer() : undefined;
    list = list && unwrap(list);
  }
  if (!list || !Node.isArrayLiteralExpression(list)) return undefined;
  const elements = list.getElements().map(unwrap);
  return elements.length > 0 && elements.every(e => Node.isIdentifier(e)) ? (elements as Identifier[]) : undefined;
}

/** A const's declaration, in a statement or a loop's head (where there is no variable statement to ask). */
function isConst(decl: import('ts-morph').VariableDeclaration): boolean {
  const list = decl.getParent();
  return Node.isVariableDeclarationList(list) && list.getDeclarationKind() === VariableDeclarationKind.Const;
}

/** One kind said of every value, or undefined (only the type can say). */
function sameKind(kinds: (ServerKind | 'not a server' | undefined)[]): ServerKind | 'not a server' | undefined {
  return kinds.every(k => k === kinds[0]) ? kinds[0] : undefined;
}

/** A declaration file of TypeScript's standard library (lib.*.d.ts). */
export function isDefaultLib(file: string): boolean {
  return /[\\/]typescript[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file);
}

/** A declaration file of Node's types (@types/node). */
export function isNodeTypes(file: string): boolean {
  return /[\\/]@types[\\/]node[\\/]/.test(file);
}

/** TypeScript's standard library or Node's types: no SDK server is declared there. */
export function isStandardLibrary(file: string): boolean {
  return isDefaultLib(file) || isNodeTypes(file);
}

function extendedKind(cls: import('ts-morph').ClassDeclaration, depth: number): ServerKind | undefined {
  if (cls.getSourceFile().isInNodeModules()) return undefined;
  const base = cls.getExtends()?.getExpression();
  return base ? classKind(base, depth + 1) : undefined;
}

/** `this` in a class that extends an SDK server (in its methods, constructor, field initializers and their arrow functions). */
function thisKind(self: Node): ServerKind | undefined {
  for (const scope of self.getAncestors()) {
    if (Node.isClassDeclaration(scope)) return extendedKind(scope, 0);
    if (
      Node.isFunctionDeclaration(scope) ||
      Node.isFunctionExpression(scope) ||
      Node.isClassExpression(scope) ||
      Node.isObjectLiteralExpression(scope)
    )
      return undefined;
  }
  return undefined;
}

/**
 * The properties of a project object that hold an SDK server (`this` of a class whose constructor sets
 * `this.mcp = new McpServer(...)`, a `{ server, db }` bag): how a helper handed the object reaches the server.
 */
export function serverFieldsOf(expr: Node): string[] {
  // The SDK's arguments, request or extra: no field of theirs holds a server.
  if (Node.isIdentifier(expr) && sdkHandlerName(expr)) return [];
  let type: import('ts-morph').Type;
  try {
    // `this` is typed as the class's polymorphic this: its apparent type is the class.
    type = expr.getType().getNonNullableType().getApparentType();
  } catch {
    return [];
  }
  if (!type.isObject() || sdkServerName(type.getSymbol()) || type.getCallSignatures().length > 0) return [];
  return type
    .getProperties()
    .filter(p => declaredServer(p) || typedServer(p, expr))
    .map(p => p.getName());
}

/** A property declared as a server, read from its declaration: known whether or not the SDK is installed. */
function declaredServer(property: MorphSymbol): boolean {
  return property.getDeclarations().some(d => {
    if (Node.isPropertyDeclaration(d) || Node.isPropertySignature(d) || Node.isParameterDeclaration(d)) {
      const typeNode = d.getTypeNode();
      if (typeNode && Node.isTypeReference(typeNode) && classKind(typeNode.getTypeName())) return true;
      const init = Node.isPropertySignature(d) ? undefined : d.getInitializer();
      return init !== undefined && serverKindOf(init) !== undefined;
    }
    // JavaScript's `this.mcp = new McpServer(...)` in a constructor.
    const assignment = Node.isPropertyAccessExpression(d) ? d.getParent() : d;
    return (
      Node.isBinaryExpression(assignment) &&
      assignment.getOperatorToken().getKind() === SyntaxKind.EqualsToken &&
      serverKindOf(assignment.getRight()) !== undefined
    );
  });
}

function typedServer(property: MorphSymbol, at: Node): boolean {
  try {
    return sdkServerName(property.getTypeAtLocation(at).getNonNullableType().getSymbol()) !== undefined;
  } catch {
    return false;
  }
}

/** McpServer or Server, where the symbol is the SDK's own class. */
function sdkServerName(symbol: MorphSymbol | undefined): ServerKind | undefined {
  const name = symbol?.getName();
  if (name !== 'McpServer' && name !== 'Server') return undefined;
  return symbol!.getDeclarations().some(d => /[\\/]@modelcontextprotocol[\\/]/.test(d.getSourceFile().getFilePath())) ? name : undefined;
}

function serverKindFromType(expr: Node): ServerKind | undefined {
  let symbol: MorphSymbol | undefined;
  try {
    // `McpServer | null`, `McpServer | undefined`: a server held in a field or returned by a getter.
    symbol = expr.getType().getNonNullableType().getSymbol();
  } catch {
    return undefined;
  }
  return sdkServerName(symbol) ?? baseServerName(expr);
}

/** A subclass of an SDK server, by its type's base classes (a class the project imports from a package, say). */
function baseServerName(expr: Node): ServerKind | undefined {
  try {
    let bases = expr.getType().getNonNullableType().getApparentType().getBaseTypes();
    for (let depth = 0; depth < 5 && bases.length > 0; depth++) {
      const found = bases.map(b => sdkServerName(b.getSymbol())).find(k => k !== undefined);
      if (found) return found;
      bases = bases.flatMap(b => b.getBaseTypes());
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export function unwrap(node: Node): Node {
  let n = node;
  while (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isNonNullExpression(n) || Node.isTypeAssertion(n)) {
    n = n.getExpression();
  }
  return n;
}

/** The string value of a literal (or no-substitution template) expression. */
export function literalString(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  const n = unwrap(node);
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  return undefined;
}

/** The property `name` of an object literal, if written as a plain property assignment. */
export function objectProperty(obj: Node | undefined, name: string): Expression | undefined {
  if (!obj) return undefined;
  const o = unwrap(obj);
  if (!Node.isObjectLiteralExpression(o)) return undefined;
  const prop = o.getProperty(name);
  if (prop && Node.isPropertyAssignment(prop)) return prop.getInitializer();
  if (prop && Node.isShorthandPropertyAssignment(prop)) return prop.getNameNode() as unknown as Identifier;
  return undefined;
}

/** An object literal written inline, or held in a `const` declared with one; otherwise the node itself. */
export function constObjectLiteral(node: Node | undefined): Node | undefined {
  if (!node) return undefined;
  const n = unwrap(node);
  if (!Node.isIdentifier(n)) return n;
  const decl = n.getSymbol()?.getDeclarations()[0];
  if (decl && Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const') {
    const init = decl.getInitializer();
    if (init && Node.isObjectLiteralExpression(unwrap(init))) return unwrap(init);
  }
  return n;
}
