/**
 * What a transport handed to `server.connect(...)` is: the SDK's stdio transport, an HTTP one, HTTP+SSE,
 * an in-memory pair, or something this module cannot tell. Found by what the value is, not by how it is
 * named: through import aliases (`SSEServerTransport as SseTransport`), variables, fields
 * (`this.transport`), declared types, and the project's own classes that wrap or extend an SDK transport
 * (`class LoggedStdioTransport { private inner = new StdioServerTransport() }`).
 */
import { Node, SyntaxKind, type ClassDeclaration, type Type, type TypeNode } from 'ts-morph';
import { mcpImportOf, unwrap } from './mcpSymbols.js';
import { descendantsOfKind } from './descendants.js';

export type TransportKind = 'stdio' | 'http' | 'sse' | 'in-memory';

export interface TransportOf {
  /** Undefined when the value's kind cannot be told (a transport passed in as `Transport`, a class of a package). */
  kind?: TransportKind;
  /** The class of the project (or of a package) the SDK transport is wrapped in, when it is not the SDK's own. */
  wrapper?: string;
}

/** The SDK's transport classes, by the name they are exported under (any alias the file gives them aside). */
function sdkKind(exportName: string | undefined): TransportKind | undefined {
  if (exportName === undefined) return undefined;
  if (exportName === 'StdioServerTransport') return 'stdio';
  if (/StreamableHTTPServerTransport$/.test(exportName)) return 'http';
  if (exportName === 'SSEServerTransport') return 'sse';
  if (exportName === 'InMemoryTransport') return 'in-memory';
  return undefined;
}

const MAX_DEPTH = 6;

export function transportOf(value: Node): TransportOf {
  return expressionKind(value, 0) ?? typeKind(value) ?? {};
}

function expressionKind(value: Node, depth: number): TransportOf | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = unwrap(value);
  if (Node.isNewExpression(e)) return classNameKind(e.getExpression(), depth + 1);
  // `InMemoryTransport.createLinkedPair()`: a factory of the class.
  if (Node.isCallExpression(e)) {
    const callee = unwrap(e.getExpression());
    return Node.isPropertyAccessExpression(callee) ? sdkOnly(sdkKind(mcpImportOf(callee.getExpression())?.exportName)) : undefined;
  }
  if (Node.isAwaitExpression(e)) return expressionKind(e.getExpression(), depth + 1);
  const symbol = Node.isIdentifier(e) ? e.getSymbol() : Node.isPropertyAccessExpression(e) ? e.getNameNode().getSymbol() : undefined;
  for (const decl of symbol?.getDeclarations() ?? []) {
    const found = declarationKind(decl, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A variable, a field, a parameter, an element of a destructured pair, or `this.x = ...` in a constructor. */
function declarationKind(decl: Node, depth: number): TransportOf | undefined {
  if (Node.isVariableDeclaration(decl) || Node.isPropertyDeclaration(decl) || Node.isParameterDeclaration(decl)) {
    const typeNode = decl.getTypeNode();
    const declared = typeNode && typeNodeKind(typeNode, depth);
    if (declared) return declared;
    const init = decl.getInitializer();
    return init ? expressionKind(init, depth) : undefined;
  }
  if (Node.isBindingElement(decl)) {
    const init = decl.getFirstAncestorByKind(SyntaxKind.VariableDeclaration)?.getInitializer();
    return init ? expressionKind(init, depth) : undefined;
  }
  // JavaScript: `this.transport = new StdioServerTransport()`.
  const assignment = Node.isPropertyAccessExpression(decl) ? decl.getParent() : undefined;
  if (assignment && Node.isBinaryExpression(assignment) && assignment.getOperatorToken().getKind() === SyntaxKind.EqualsToken)
    return expressionKind(assignment.getRight(), depth);
  return undefined;
}

function typeNodeKind(node: TypeNode, depth: number): TransportOf | undefined {
  if (Node.isUnionTypeNode(node)) {
    const kinds = node
      .getTypeNodes()
      .map(t => typeNodeKind(t, depth + 1))
      .filter((k): k is TransportOf => k !== undefined);
    return kinds.length === 1 ? kinds[0] : undefined;
  }
  return Node.isTypeReference(node) ? classNameKind(node.getTypeName(), depth + 1) : undefined;
}

/** The SDK class a name imports, or the project class it declares and what that class wraps. */
function classNameKind(name: Node, depth: number): TransportOf | undefined {
  const sdk = sdkKind(mcpImportOf(name)?.exportName);
  if (sdk) return { kind: sdk };
  if (depth > MAX_DEPTH || !Node.isIdentifier(name)) return undefined;
  const symbol = name.getSymbol();
  const cls = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations().find(d => Node.isClassDeclaration(d));
  return cls && Node.isClassDeclaration(cls) ? classKind(cls, depth) : undefined;
}

/**
 * What a class is a transport of: the SDK transport it extends, or the one SDK transport kind its fields and
 * code make or declare (a wrapper forwarding to it). Undefined when it holds none, or more than one kind.
 */
function classKind(cls: ClassDeclaration, depth: number): TransportOf | undefined {
  const wrapper = cls.getName() ?? 'an anonymous class';
  const base = cls.getExtends()?.getExpression();
  const extended = base && classNameKind(base, depth + 1);
  if (extended?.kind) return { kind: extended.kind, wrapper };
  const kinds = new Set<TransportKind>();
  for (const property of cls.getProperties()) {
    const kind = declarationKind(property, depth + 1)?.kind;
    if (kind) kinds.add(kind);
  }
  for (const made of descendantsOfKind(cls, SyntaxKind.NewExpression)) {
    const kind = sdkKind(mcpImportOf(made.getExpression())?.exportName);
    if (kind) kinds.add(kind);
  }
  return kinds.size === 1 ? { kind: [...kinds][0], wrapper } : undefined;
}

/** By the value's type, when its declarations say nothing (a value returned by a function, a JavaScript parameter typed in JSDoc). */
function typeKind(value: Node): TransportOf | undefined {
  let type: Type;
  try {
    type = value.getType().getNonNullableType();
  } catch {
    return undefined;
  }
  const symbol = type.getSymbol();
  const declaration = symbol?.getDeclarations()[0];
  if (!symbol || !declaration) return undefined;
  if (/[\\/]@modelcontextprotocol[\\/]/.test(declaration.getSourceFile().getFilePath())) return sdkOnly(sdkKind(symbol.getName()));
  return Node.isClassDeclaration(declaration) ? classKind(declaration, 0) : undefined;
}

const sdkOnly = (kind: TransportKind | undefined): TransportOf | undefined => (kind ? { kind } : undefined);
