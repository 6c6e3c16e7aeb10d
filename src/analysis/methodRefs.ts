/**
 * A server's request method reached other than by `server.method(...)`: an alias (`const ask =
 * server.server.elicitInput.bind(server.server)`, `const { listRoots } = server.server`), an element access
 * (`srv['listRoots']()`), or the method handed on as a value (`retry(server.server.createMessage)`). Each
 * is a request the rewrite cannot follow: found, so that it is marked and reported rather than missed.
 */
import { Node, type CallExpression, type Identifier } from 'ts-morph';
import { stateModuleCall } from '../find/stateCalls.js';
import { importedAs, mayAliasMember, moduleMayAliasMember, unreadModuleMayAliasMember } from './fileBindings.js';
import { resolvedImportPath } from './project.js';
import { isStateModuleFile } from '../stateModuleNames.js';
import { literalString, serverKindOf, unwrap } from './mcpSymbols.js';

/** The server's request methods, by the wire method each sends. */
export const REQUEST_METHODS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    createMessage: 'sampling/createMessage',
    listRoots: 'roots/list',
    elicitInput: 'elicitation/create',
  }),
);

/** `server.method` or `server['method']` where `server` is an SDK server and `method` one of its request methods. */
export function requestMethodOf(node: Node): string | undefined {
  const n = unwrap(node);
  const name = Node.isPropertyAccessExpression(n)
    ? n.getName()
    : Node.isElementAccessExpression(n)
      ? literalString(n.getArgumentExpression())
      : undefined;
  if (!name || !(name in REQUEST_METHODS)) return undefined;
  const target = (n as Node & { getExpression(): Node }).getExpression();
  // Read from what `ask(...)` returns: asked through the requestState module already (a run migrated it).
  if (stateModuleCall(target) === 'ask') return undefined;
  return serverKindOf(target) ? name : undefined;
}

/** `srv['listRoots'](...)`: the method, when the callee is an element access to a request method. */
export function elementAccessRequest(call: CallExpression): string | undefined {
  const callee = unwrap(call.getExpression());
  return Node.isElementAccessExpression(callee) ? requestMethodOf(callee) : undefined;
}

/**
 * `ask(...)` where `ask` holds a server's request method: `const ask = server.elicitInput.bind(server)`,
 * `const ask = server.elicitInput`, `const { elicitInput: ask } = server`. The method and the declaration.
 */
export function aliasedRequest(callee: Identifier): { method: string; declaration: string; receiver?: Node } | undefined {
  if (!mayHoldRequestMethod(callee)) return undefined;
  // An alias imported from the module that declares it (`import { ask } from './ask.js'`): its declaration there.
  const symbol = callee.getSymbol();
  for (const d of (symbol?.getAliasedSymbol() ?? symbol)?.getDeclarations() ?? []) {
    if (Node.isVariableDeclaration(d)) {
      const init = d.getInitializer();
      const method = init && requestMethodOf(boundOf(init) ?? init);
      if (method) return { method, declaration: d.getText(), receiver: receiverOfMethod(boundOf(init) ?? init) };
    }
    if (Node.isBindingElement(d)) {
      const name = d.getPropertyNameNode()?.getText() ?? d.getName();
      const owner = d.getParent()?.getParent();
      const source = owner && Node.isVariableDeclaration(owner) ? owner.getInitializer() : undefined;
      if (name in REQUEST_METHODS && source && serverKindOf(source)) return { method: name, declaration: owner!.getText() };
    }
  }
  return undefined;
}

const METHOD_NAMES: ReadonlySet<string> = new Set(Object.keys(REQUEST_METHODS));

/**
 * Whether a callee's name may hold a request method, from the syntax (no type question for every call of a
 * project): its file binds it to a read of one (a destructuring, `= x.elicitInput`, `.bind(...)` of it), or it
 * is imported from a file of the project that binds a name so or re-exports (read from the disk where the run
 * has not read it). A package's function is none of them, nor the requestState module's.
 */
function mayHoldRequestMethod(callee: Identifier): boolean {
  const file = callee.getSourceFile();
  if (mayAliasMember(file, callee.getText(), METHOD_NAMES)) return true;
  const bound = importedAs(file, callee.getText());
  const from = bound && resolvedImportPath(file, bound.module);
  // The requestState module's functions ask by replay: none holds a server's request method.
  if (!from || isStateModuleFile(from)) return false;
  const module = file.getProject().getSourceFile(from);
  return module ? moduleMayAliasMember(module, METHOD_NAMES) : unreadModuleMayAliasMember(file, from, METHOD_NAMES);
}

/**
 * The reads of a variable holding a request method other than as the callee of a call (`retry(send)`,
 * `{ ask }`): each hands the request on. Its export and its imports are not reads: the calls in the
 * importing files are sites of their own (aliasedRequest follows the import).
 */
export function aliasHandedOnUses(declaration: import('ts-morph').VariableDeclaration): import('ts-morph').Identifier[] {
  const name = declaration.getNameNode();
  if (!Node.isIdentifier(name)) return [];
  return name.findReferencesAsNodes().filter((ref): ref is import('ts-morph').Identifier => {
    if (ref === name || !Node.isIdentifier(ref)) return false;
    const parent = ref.getParent();
    if (parent && (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent) || Node.isImportClause(parent))) return false;
    return !(parent && Node.isCallExpression(parent) && parent.getExpression() === ref);
  });
}

/** `const ask = server.server.elicitInput.bind(server.server)`: the method and the server it is read from. */
export function requestAlias(declaration: import('ts-morph').VariableDeclaration): { method: string; receiver?: Node } | undefined {
  const init = declaration.getInitializer();
  const method = init && requestMethodOf(boundOf(init) ?? init);
  return method ? { method, receiver: receiverOfMethod(boundOf(init) ?? init) } : undefined;
}

/** The server a request method is read from (`server.server` of `server.server.elicitInput`). */
function receiverOfMethod(node: Node): Node | undefined {
  const n = unwrap(node);
  return Node.isPropertyAccessExpression(n) || Node.isElementAccessExpression(n) ? n.getExpression() : undefined;
}

/** `x.bind(...)`: x. */
function boundOf(init: Node): Node | undefined {
  const call = unwrap(init);
  if (!Node.isCallExpression(call)) return undefined;
  const callee = call.getExpression();
  return Node.isPropertyAccessExpression(callee) && callee.getName() === 'bind' ? callee.getExpression() : undefined;
}

/**
 * A request method handed on as a value (`retry(server.createMessage.bind(server))`, `{ ask:
 * server.elicitInput }`): the method. Not its call, not a test of whether it exists (`if
 * (server.elicitInput)`, `typeof`), and not an alias a variable holds: the alias's calls are the sites.
 */
export function strayRequestMethod(node: Node): string | undefined {
  if (!Node.isPropertyAccessExpression(node) && !Node.isElementAccessExpression(node)) return undefined;
  const method = requestMethodOf(node);
  if (!method) return undefined;
  let value: Node = node;
  let parent = value.getParent();
  while (parent && Node.isParenthesizedExpression(parent)) [value, parent] = [parent, parent.getParent()];
  // `.bind(...)` / `.call(...)` / `.apply(...)`: the bound function is the value handed on; a call is a call.
  if (parent && Node.isPropertyAccessExpression(parent) && /^(bind|call|apply)$/.test(parent.getName())) {
    const applied = parent.getParent();
    if (!applied || !Node.isCallExpression(applied) || applied.getExpression() !== parent) return undefined;
    if (parent.getName() !== 'bind') return method;
    [value, parent] = [applied, applied.getParent()];
  }
  if (!parent) return undefined;
  if (Node.isCallExpression(parent)) return parent.getExpression() === value ? undefined : method;
  // An alias: its calls are the sites, and where it is handed on (`retry(send)`), that read (aliasHandedOnUses).
  if (Node.isVariableDeclaration(parent)) return undefined;
  return Node.isPropertyAssignment(parent) ||
    Node.isReturnStatement(parent) ||
    Node.isArrayLiteralExpression(parent) ||
    Node.isArrowFunction(parent)
    ? method
    : undefined;
}
