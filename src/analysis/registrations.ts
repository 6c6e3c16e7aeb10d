/**
 * A callback handed to one of the SDK server's handler registrations (`server.registerTool(name, config, cb)`,
 * `server.setRequestHandler(CallToolRequestSchema, cb)`): the registration it makes, read from the call. The
 * ways a callback reaches a registration through the project's own functions (a wrapper, a pass-through, a
 * delegate) are their own modules, handed the whole finder as a RegistrationLookup (src/analysis/sites.ts
 * composes it): finding one asks the others again.
 */
import { Node, SyntaxKind, VariableDeclarationKind, type CallExpression, type Identifier, type SourceFile } from 'ts-morph';
import type { HandlerMethod } from '../plan.js';
import type { FunctionLike } from './functions.js';
import { literalString, mcpImportOf, objectProperty, receiverOverrides, serverKindOf, unwrap } from './mcpSymbols.js';
import { descendantsOfKind } from './descendants.js';

/** The registration finder, as the modules that find a registration through the project's functions ask it again. */
export interface RegistrationLookup {
  /** The registration a function is the callback of itself: directly, or through a wrapper of the project. */
  handlerRegistrationOf(fn: FunctionLike): Registration | undefined;
  /** The same, or, for the delegate of a handler that only hands its call on, that handler's registration. */
  registrationOf(fn: FunctionLike): Registration | undefined;
  /** Whether a request is made in a function's body (or a callback written in it). */
  makesRequest(fn: FunctionLike): boolean;
}

export interface Registration {
  method: HandlerMethod;
  /** The registration call (`server.registerTool(...)`). */
  call: CallExpression;
  /** Source text of the name expression. */
  nameText: string;
  /** Display name for reports. */
  label: string;
  /** Index of the context parameter in the callback. */
  ctxIndex: number;
  /** Source text of the call's arguments as the handler sees them, or how to derive it from its parameters. */
  args: { kind: 'param'; index: number } | { kind: 'none' } | { kind: 'request' } | { kind: 'resource'; variablesIndex?: number };
  /** Set for the delegate of a handler that only hands its call on: what the report says of it. */
  delegateOf?: string;
  /**
   * Set for an entry of a table migrated as a delegate (src/analysis/tableDelegates.ts) that is handed the
   * context in a member of its context parameter (`.extra` of `{ server, extra }`): the context is read there.
   */
  ctxMember?: string;
  /**
   * Set for a callback registered through a function of the project (`reg('confirm', async (a, ctx) => ...)`):
   * the wrapper's call, the argument it is registered under (`nameText` is its text), and the function type
   * of the wrapper's parameter whose return type the rewrite widens. For a callback wrapped by a pass-through
   * before it is registered (`registerTool('send', config, withErrors(cb))`, src/analysis/passThrough.ts): the
   * wrapper's call, the registration's name argument, the wrapper's function types to widen, and the
   * wrapper as the report names it (`passesThrough`: it now runs once per round).
   */
  wrapper?: { call: CallExpression; name?: Node; widen?: Node[]; passesThrough?: string };
}

export const TOOL_METHODS: Record<string, HandlerMethod> = {
  registerTool: 'tools/call',
  tool: 'tools/call',
  registerPrompt: 'prompts/get',
  prompt: 'prompts/get',
  registerResource: 'resources/read',
  resource: 'resources/read',
};

const REQUEST_SCHEMAS: Record<string, HandlerMethod> = {
  CallToolRequestSchema: 'tools/call',
  GetPromptRequestSchema: 'prompts/get',
  ReadResourceRequestSchema: 'resources/read',
};

/**
 * The registration `call` makes with `arg` (which stands for `fn`) as its handler, if it is one; `args`
 * are its arguments as the handler's scope reads them (a wrapper's parameters read as its caller passes them).
 */
export function registrationFor(
  call: CallExpression,
  arg: Node,
  fn: FunctionLike,
  args: Node[] = call.getArguments(),
): Registration | undefined {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const name = callee.getName();
  const target = callee.getExpression();
  const first = args[0];
  // A project class that extends the SDK's server and declares the method again registers its own way.
  if (receiverOverrides(target, name)) return undefined;
  if (name in TOOL_METHODS && serverKindOf(target) === 'McpServer' && args[args.length - 1] === arg) {
    const method = TOOL_METHODS[name]!;
    const nameText = first?.getText() ?? "''";
    const label = `${method} ${literalString(first) ?? nameText}`;
    if (method === 'resources/read') {
      const template = args[1] && !literalString(args[1]);
      return {
        method,
        call,
        nameText,
        label,
        ctxIndex: template ? 2 : 1,
        args: { kind: 'resource', variablesIndex: template ? 1 : undefined },
      };
    }
    const hasArgs = callbackTakesArgs(name, args.slice(1, -1), fn);
    return { method, call, nameText, label, ctxIndex: hasArgs ? 1 : 0, args: hasArgs ? { kind: 'param', index: 0 } : { kind: 'none' } };
  }
  if (name === 'setRequestHandler' && serverKindOf(target) && first) {
    const method = requestHandlerMethod(first);
    if (!method) return undefined;
    return { method, call, nameText: '', label: `${method} (setRequestHandler)`, ctxIndex: 1, args: { kind: 'request' } };
  }
  return undefined;
}

/**
 * The call a function is handed to: as an argument written there, or declared beside it (a function
 * declaration or a `const`, not exported) and passed by name, which is then its only use in the
 * file. Any other use (a direct call, a second registration, an export) keeps it a helper: its
 * callers would see the handler's new input_required results.
 */
export function callbackArgument(fn: FunctionLike): { call: CallExpression; arg: Node } | undefined {
  const parent = fn.getParent();
  if (parent && Node.isCallExpression(parent) && parent.getArguments().includes(fn as never)) return { call: parent, arg: fn };
  const named = usesByName(fn);
  if (!named || named.exported || named.uses.length !== 1) return undefined;
  const use = valueOfUse(named.uses[0]!);
  const call = use.getParent();
  return call && Node.isCallExpression(call) && call.getArguments().includes(use as never) ? { call, arg: use } : undefined;
}

/** What a use of a function's name hands on: the name itself, or for a member, `this.name` or `this.name.bind(this)`. */
function valueOfUse(use: Node): Node {
  const member = use.getParent();
  if (!member || !Node.isPropertyAccessExpression(member) || member.getNameNode() !== use || !Node.isThisExpression(member.getExpression()))
    return use;
  const bind = member.getParent();
  const bound = bind?.getParent();
  const isBind =
    bind &&
    Node.isPropertyAccessExpression(bind) &&
    bind.getName() === 'bind' &&
    bound &&
    Node.isCallExpression(bound) &&
    bound.getExpression() === bind;
  return isBind &&
    (bound as CallExpression).getArguments().length === 1 &&
    Node.isThisExpression((bound as CallExpression).getArguments()[0]!)
    ? bound!
    : member;
}

/**
 * The registration a callback reaches through calls that wrap it (`registerTool('send', config,
 * withErrors(async (input, extra) => ...))`), with the innermost wrapper: the callback is registered
 * (run by the wrapper's function, per request), not run where it is written.
 */
export function registeredWrapperCallOf(fn: FunctionLike): { registration: CallExpression; wrapper: CallExpression } | undefined {
  let node: Node = fn;
  let wrapper: CallExpression | undefined;
  for (let depth = 0; depth < 4; depth++) {
    const call = node.getParent();
    if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(node as never)) return undefined;
    if (wrapper && call.getArguments().at(-1) === node && isRegistrationCall(call)) return { registration: call, wrapper };
    wrapper ??= call;
    node = call;
  }
  return undefined;
}

/** `server.registerTool(...)` and the other handler registrations of an SDK server. */
export function isRegistrationCall(call: CallExpression): boolean {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return false;
  const name = callee.getName();
  return (
    (name in TOOL_METHODS && serverKindOf(callee.getExpression()) === 'McpServer') ||
    (name === 'setRequestHandler' && serverKindOf(callee.getExpression()) !== undefined)
  );
}

export function calleeName(call: CallExpression): string {
  const callee = call.getExpression();
  return Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
}

/** A function passed by name to a registration call that has other uses too (see callbackArgument): the registration. */
export function sharedRegistration(fn: FunctionLike): CallExpression | undefined {
  const named = usesByName(fn);
  if (!named || (!named.exported && named.uses.length === 1)) return undefined;
  for (const named_ of named.uses) {
    const use = valueOfUse(named_);
    const call = use.getParent();
    if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(use as never)) continue;
    const callee = call.getExpression();
    if (
      Node.isPropertyAccessExpression(callee) &&
      (callee.getName() in TOOL_METHODS || callee.getName() === 'setRequestHandler') &&
      serverKindOf(callee.getExpression())
    )
      return call;
  }
  return undefined;
}

interface NamedUses {
  exported: boolean;
  /** The identifiers naming the function elsewhere in its file (export specifiers included). */
  uses: Node[];
}

/** Per function declared by name (a declaration or a `const`): its other uses in the file. Asked for every parameter and call of a file. */
const namedUsesCache = new WeakMap<Node, NamedUses | null>();

export function usesByName(fn: FunctionLike): NamedUses | undefined {
  const cached = namedUsesCache.get(fn);
  if (cached !== undefined) return cached ?? undefined;
  const parent = fn.getParent();
  let nameNode: Node | undefined;
  let exported = false;
  if (Node.isFunctionDeclaration(fn)) {
    exported = fn.isExported() || fn.isDefaultExport();
    nameNode = fn.getNameNode();
  } else if (
    (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) &&
    parent &&
    Node.isVariableDeclaration(parent) &&
    parent.getInitializer() === fn
  ) {
    const statement = parent.getVariableStatement();
    if (statement && statement.getDeclarationKind() === VariableDeclarationKind.Const) {
      exported = statement.isExported();
      nameNode = parent.getNameNode();
    }
  }
  let found: NamedUses | null = null;
  const member = classMemberName(fn);
  if (member) found = memberUses(member);
  else if (nameNode && Node.isIdentifier(nameNode)) {
    const name = nameNode.getText();
    const named = nameNode;
    // Asked only when another identifier has the name: a question to the checker after an edit builds
    // the program again, and most functions are named nowhere else in their file.
    let symbol: { of: ReturnType<Node['getSymbol']> } | undefined;
    const symbolOfName = () => (symbol ??= { of: named.getSymbol() }).of;
    const uses = descendantsOfKind(fn.getSourceFile(), SyntaxKind.Identifier).filter(
      id => id !== nameNode && id.getText() === name && (Node.isExportSpecifier(id.getParent()) || id.getSymbol() === symbolOfName()),
    );
    found = { exported: exported || uses.some(u => Node.isExportSpecifier(u.getParent())), uses };
  }
  namedUsesCache.set(fn, found);
  return found ?? undefined;
}

/** The name of a class method, or of a field a function initialises (`sum = async (...) => ...`). */
function classMemberName(fn: FunctionLike): Identifier | undefined {
  const parent = fn.getParent();
  const member = Node.isMethodDeclaration(fn)
    ? fn
    : (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) &&
        parent &&
        Node.isPropertyDeclaration(parent) &&
        parent.getInitializer() === fn
      ? parent
      : undefined;
  if (!member || member.isStatic() || !Node.isClassDeclaration(member.getParent())) return undefined;
  const name = member.getNameNode();
  return Node.isIdentifier(name) ? name : undefined;
}

/**
 * A member's uses anywhere (it can be called from other files): asked of the language service only when its
 * file hands `this.name` on as an argument, which is what makes it a handler candidate at all.
 */
function memberUses(name: Identifier): NamedUses | null {
  if (!membersHandedOn(name.getSourceFile()).has(name.getText())) return null;
  const uses = name.findReferencesAsNodes().filter(r => r !== name);
  return { exported: uses.some(u => u.getSourceFile() !== name.getSourceFile()), uses };
}

/** Per file, the names of `this.name` (or `this.name.bind(this)`) handed to a call as an argument: one walk of the file. */
const handedOnCache = new WeakMap<SourceFile, Set<string>>();

function membersHandedOn(sf: SourceFile): Set<string> {
  let names = handedOnCache.get(sf);
  if (names) return names;
  names = new Set();
  for (const access of descendantsOfKind(sf, SyntaxKind.PropertyAccessExpression)) {
    if (!Node.isThisExpression(access.getExpression())) continue;
    const value = valueOfUse(access.getNameNode());
    const call = value.getParent();
    if (call && Node.isCallExpression(call) && call.getArguments().includes(value as never)) names.add(access.getName());
  }
  handedOnCache.set(sf, names);
  return names;
}

function requestHandlerMethod(schema: Node): HandlerMethod | undefined {
  const literal = literalString(schema);
  if (literal === 'tools/call' || literal === 'prompts/get' || literal === 'resources/read') return literal;
  const imported = mcpImportOf(unwrap(schema));
  return imported ? REQUEST_SCHEMAS[imported.exportName] : undefined;
}

/** Whether a tool/prompt callback receives parsed arguments before its context. */
function callbackTakesArgs(method: string, middle: Node[], fn: FunctionLike): boolean {
  if (method === 'registerTool' || method === 'registerPrompt') {
    const config = middle[0];
    const key = method === 'registerTool' ? 'inputSchema' : 'argsSchema';
    if (config && Node.isObjectLiteralExpression(unwrap(config))) return objectProperty(config, key) !== undefined;
    return fn.getParameters().length >= 2;
  }
  // v1 tool(name, description?, schema?, annotations?, cb) / prompt(name, description?, argsSchema?, cb)
  return middle.some(arg => !literalString(arg)) || fn.getParameters().length >= 2;
}
