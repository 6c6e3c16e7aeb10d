/**
 * Finding server-initiated request sites and classifying the function each one sits in.
 */
import { Node, SyntaxKind, VariableDeclarationKind, type CallExpression, type Identifier, type NewExpression, type ObjectLiteralExpression, type ParameterDeclaration, type PropertyAccessExpression, type SourceFile, type Type } from 'ts-morph';
import type { HandlerMethod, RequestBuilder, ResponseReader } from '../plan.js';
import type { SiteKind } from '../report.js';
import { constObjectLiteral, literalString, mcpImportOf, objectProperty, overridingClass, receiverOverrides, serverKindOf, unwrap } from './mcpSymbols.js';
import { handedServerKind } from '../find/handedServer.js';
import { delegateRegistrationOf } from './delegates.js';
import { aliasedRequest, aliasHandedOnUses, elementAccessRequest, REQUEST_METHODS, requestAlias, strayRequestMethod } from './methodRefs.js';
import { passThroughOf } from './passThrough.js';
import { wrappedRegistrationOf, wrappingOf } from './wrappers.js';
import { stateModuleCall } from '../find/stateCalls.js';
import { destructures } from './fileBindings.js';


export type FunctionLike = Node & { getParameters(): import('ts-morph').ParameterDeclaration[]; getBody(): Node | undefined };

export interface Site {
  /** The call; or, for a request handed on as a value, the value (a property access, or the name of a variable holding it). */
  node: CallExpression | NewExpression | PropertyAccessExpression | Identifier;
  kind: SiteKind;
  builder: RequestBuilder;
  reader: ResponseReader;
  /** The request params expression (first argument, or `params` of a `sendRequest` request). */
  params?: Node;
  /** The enclosing function, if any. */
  fn?: FunctionLike;
  /** `throw new UrlElicitationRequiredError(...)`: recognised, never rewritten in place. */
  urlError?: boolean;
  /** `extra.sendRequest` passed on as a value: what it will send is not known here. */
  passedOn?: boolean;
  /** A request method handed on as a value (`retry(server.createMessage.bind(server))`): what runs the value may ask. */
  handedOn?: boolean;
  /**
   * Made by a callback that does nothing else, passed to a pass-through wrapper the handler awaits
   * (src/analysis/callbacks.ts): migrated as if the wrapper's `call` were the request; `note` says what the wrapper no longer does.
   */
  unwrapped?: { call: CallExpression; note: string; wrapper: string };
  /**
   * What the request is made on, where that is not the call's own receiver: the server a request method
   * held in a variable was read from (`const ask = server.server.elicitInput.bind(server.server)`).
   */
  target?: Node;
  /** A request recognised but never rewritten: why, and whether, left as it is, it still reaches 2025-era clients on SDK 2.x. */
  unsupported?: { reason: string; servesLegacy: boolean };
}

const BY_METHOD: Record<string, Pick<Site, 'kind' | 'builder' | 'reader'>> = {
  'sampling/createMessage': { kind: 'sampling', builder: 'createMessage', reader: 'samplingResult' },
  'roots/list': { kind: 'roots', builder: 'listRoots', reader: 'rootsResult' },
  'elicitation/create': { kind: 'elicitation', builder: 'elicit', reader: 'elicitResult' }
};

function elicitationShape(params: Node | undefined): Pick<Site, 'kind' | 'builder' | 'reader'> {
  const mode = literalString(objectProperty(constObjectLiteral(params), 'mode'));
  return mode === 'url'
    ? { kind: 'elicitation-url', builder: 'elicitUrl', reader: 'elicitResult' }
    : { kind: 'elicitation', builder: 'elicit', reader: 'elicitResult' };
}

export function findSites(sf: SourceFile): Site[] {
  const sites: Site[] = [];
  sf.forEachDescendant(node => {
    if (Node.isCallExpression(node)) {
      const site = classifyCall(node);
      if (site) sites.push({ ...site, fn: enclosingFunction(node) });
    } else if (strayRequestMethod(node) && stateModuleCall((node as PropertyAccessExpression).getExpression()) !== 'ask') {
      sites.push({ ...strayMethodSite(node as PropertyAccessExpression), fn: enclosingFunction(node) });
    } else if (Node.isVariableDeclaration(node)) {
      sites.push(...handedOnAliasSites(node));
    } else if (passedOnChannel(node) && stateModuleCall((node as PropertyAccessExpression).getExpression()) !== 'ask') {
      sites.push({ node: node as never, kind: 'request', builder: 'elicit', reader: 'elicitResult', passedOn: true, fn: enclosingFunction(node) });
    } else if (Node.isNewExpression(node)) {
      const imported = mcpImportOf(node.getExpression());
      if (imported?.exportName === 'UrlElicitationRequiredError') {
        sites.push({ node, kind: 'elicitation-url', builder: 'elicitUrl', reader: 'elicitResult', urlError: true, fn: enclosingFunction(node) });
      }
    }
  });
  return sites;
}

function classifyCall(call: CallExpression): Omit<Site, 'fn'> | undefined {
  const callee = call.getExpression();
  if (Node.isIdentifier(callee)) return destructuredChannelCall(call, callee) ?? aliasedMethodCall(call, callee);
  if (elementAccessRequest(call)) return elementAccessCall(call);
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const method = callee.getName();
  const target = callee.getExpression();
  const [first] = call.getArguments();
  const tasks = clientTaskCall(call, callee);
  if (tasks) return tasks;
  const site = requestCall(call, method, target, first);
  // Task-augmented (`{ task: { ttl } }` in the options or the params): the client answers with a task to poll.
  if (site && !site.unsupported && taskAugmented(call, site.params)) {
    const reason = `a task-augmented request (the client answers with a task the server then polls with tasks/get and tasks/result) has no MCP 2026-07-28 form, nor has SDK 2.x the option; ask without it, or keep the long work on the server's side`;
    return { ...site, unsupported: { reason, servesLegacy: false } };
  }
  return site;
}

/** A server-initiated request of one of the three kinds, from its call. */
function requestCall(call: CallExpression, method: string, target: Node, first: Node | undefined): Omit<Site, 'fn'> | undefined {
  // Asked through the requestState module already (a run migrated it): no site.
  if (stateModuleCall(target) === 'ask') return undefined;
  switch (method) {
    case 'createMessage':
      if (serverKindOf(target) ?? handedServerKind(target)) return { node: call, params: first, ...BY_METHOD['sampling/createMessage']! };
      return undefined;
    case 'listRoots':
      if (serverKindOf(target) ?? handedServerKind(target)) return { node: call, ...BY_METHOD['roots/list']! };
      return undefined;
    case 'elicitInput':
      if (serverKindOf(target) || isMcpReq(target) || handedServerKind(target)) return { node: call, params: first, ...elicitationShape(first) };
      return undefined;
    case 'requestSampling':
      if (isMcpReq(target)) return { node: call, params: first, ...BY_METHOD['sampling/createMessage']! };
      return undefined;
    case 'ping':
      if (serverKindOf(target) ?? handedServerKind(target)) return { node: call, kind: 'request', builder: 'elicit', reader: 'elicitResult', unsupported: { reason: PING_REASON, servesLegacy: true } };
      return undefined;
    case 'sendRequest':
    case 'request':
    case 'send': {
      // `request` is the SDK Server's own generic request method (`server.request({ method, params }, Schema)`).
      const isChannel =
        method === 'sendRequest' ? isHandlerExtra(target) || serverKindOf(target) !== undefined : method === 'request' ? serverKindOf(target) !== undefined : isMcpReq(target);
      if (!isChannel) return undefined;
      const request = constObjectLiteral(first);
      const requestMethod = literalString(objectProperty(request, 'method'));
      const shape = requestMethod ? BY_METHOD[requestMethod] : undefined;
      // A request whose method is not written out (`send(request, schema)`): asked by replay when, as it runs, it is one of the three.
      if (!requestMethod) return request !== undefined && (!Node.isObjectLiteralExpression(request) || objectProperty(request, 'method') !== undefined) ? { node: call, kind: 'request', builder: 'elicit', reader: 'elicitResult' } : undefined;
      if (!shape) {
        const reason = `${requestMethod} is a request to the client that MCP 2026-07-28 does not have (only elicitation/create, sampling/createMessage and roots/list can be asked, by returning input_required); on a 2026-07-28 request SDK 2.x refuses it. Do without it there (keep it for 2025-era clients behind a check of the protocol version), or migrate by hand`;
        return { node: call, kind: 'request', builder: 'elicit', reader: 'elicitResult', unsupported: { reason, servesLegacy: true } };
      }
      const params = objectProperty(request, 'params');
      return { node: call, params, ...(shape.kind === 'elicitation' ? elicitationShape(params) : shape) };
    }
    default:
      return undefined;
  }
}

/**
 * A ping of the client (`server.server.ping()`): MCP 2026-07-28 has no request from the server to the client
 * but the three that input_required carries, and SDK 2.x refuses any other on a 2026-07-28 request
 * ("Server-to-client requests are not available"), so a handler that pings fails for such a client.
 */
const PING_REASON = `ping is a request to the client that MCP 2026-07-28 does not have (only elicitation/create, sampling/createMessage and roots/list can be asked, by returning input_required); on a 2026-07-28 request SDK 2.x refuses it. A 2026-07-28 client holds no connection for a ping to keep alive: remove it, or keep it for 2025-era clients behind a check of the protocol version`;

/** The SDK 1.x server's requests about the client's tasks (`server.experimental.tasks.getTaskResult(...)`, `elicitInputStream`, ...). */
function clientTaskCall(call: CallExpression, callee: PropertyAccessExpression): Omit<Site, 'fn'> | undefined {
  const tasks = unwrap(callee.getExpression());
  if (!Node.isPropertyAccessExpression(tasks) || tasks.getName() !== 'tasks') return undefined;
  const experimental = unwrap(tasks.getExpression());
  if (!Node.isPropertyAccessExpression(experimental) || experimental.getName() !== 'experimental' || !serverKindOf(experimental.getExpression())) return undefined;
  if (!CLIENT_TASK_METHODS.has(callee.getName())) return undefined;
  const reason = `${callee.getName()}() asks the client about its tasks (tasks/get, tasks/result, or a request answered with a task), which neither MCP 2026-07-28 nor SDK 2.x has: ask with inputRequired and keep long work on the server's side`;
  return { node: call, kind: 'task', builder: 'elicit', reader: 'elicitResult', unsupported: { reason, servesLegacy: false } };
}

const CLIENT_TASK_METHODS = new Set(['requestStream', 'createMessageStream', 'elicitInputStream', 'getTask', 'getTaskResult', 'listTasks', 'cancelTask']);

/** A `task` member in the request's options argument, or in its params. */
function taskAugmented(call: CallExpression, params: Node | undefined): boolean {
  const hasTask = (n: Node | undefined) => n !== undefined && objectProperty(constObjectLiteral(n), 'task') !== undefined;
  return hasTask(params) || call.getArguments().slice(1).some(hasTask);
}

/**
 * `sendRequest({ method: 'elicitation/create', ... })` where `sendRequest` was destructured from the
 * handler's context (`async (args, { sendRequest }) => ...`, `const { sendRequest } = extra`) in a way
 * the upgrade did not turn into member reads (a default, a rest element, `--no-upgrade`): a site, marked.
 */
function destructuredChannelCall(call: CallExpression, callee: Identifier): Omit<Site, 'fn'> | undefined {
  if (!destructures(callee.getSourceFile(), 'sendRequest', callee.getText())) return undefined;
  const binding = callee.getSymbol()?.getDeclarations().find(d => Node.isBindingElement(d));
  if (!binding || !Node.isBindingElement(binding) || (binding.getPropertyNameNode()?.getText() ?? binding.getName()) !== 'sendRequest') return undefined;
  const pattern = binding.getParent();
  const owner = pattern.getParent();
  const fromContext = Node.isParameterDeclaration(owner)
    ? isContextParameter(owner)
    : Node.isVariableDeclaration(owner) && owner.getInitializer() !== undefined && isHandlerExtra(owner.getInitializer()!);
  if (!fromContext) return undefined;
  const request = constObjectLiteral(call.getArguments()[0]);
  const shape = BY_METHOD[literalString(objectProperty(request, 'method')) ?? ''];
  if (!shape) return undefined;
  const params = objectProperty(request, 'params');
  const reason = `the request goes through sendRequest destructured from the handler's context (${pattern.getText()}), which SDK 2.x's context does not have; name the context parameter (ctx) and call ctx.mcpReq.send(...), then run again`;
  return { node: call, params, ...(shape.kind === 'elicitation' ? elicitationShape(params) : shape), unsupported: { reason, servesLegacy: false } };
}

/** The site shape a request method sends, its params the call's first argument. */
function methodShape(method: string, params: Node | undefined): Pick<Site, 'kind' | 'builder' | 'reader'> {
  const wire = REQUEST_METHODS[method]!;
  return wire === 'elicitation/create' ? elicitationShape(params) : BY_METHOD[wire]!;
}

/**
 * `ask(...)` where `ask` holds a server's request method (`const ask = server.server.elicitInput.bind(server.server)`):
 * a site, asked through the server where the method is read from it. A method destructured from the server
 * (`const { listRoots } = server.server`) has no receiver to ask through: marked.
 */
function aliasedMethodCall(call: CallExpression, callee: Identifier): Omit<Site, 'fn'> | undefined {
  const alias = aliasedRequest(callee);
  if (!alias) return undefined;
  const [first] = call.getArguments();
  if (alias.receiver) {
    if (stateModuleCall(alias.receiver) === 'ask') return undefined;
    return { node: call, params: first, ...methodShape(alias.method, first), target: alias.receiver };
  }
  const reason = `the request goes through ${callee.getText()}, which holds the server's ${alias.method}() (${oneLine(alias.declaration)}); call the server's ${alias.method}(...) where it is awaited, then run again`;
  return { node: call, params: first, ...methodShape(alias.method, first), unsupported: { reason, servesLegacy: true } };
}

/** `srv['listRoots'](...)`: a site, asked through its receiver like `srv.listRoots(...)`. */
function elementAccessCall(call: CallExpression): Omit<Site, 'fn'> | undefined {
  const callee = unwrap(call.getExpression()) as import('ts-morph').ElementAccessExpression;
  if (stateModuleCall(callee.getExpression()) === 'ask') return undefined;
  const method = elementAccessRequest(call)!;
  const [first] = call.getArguments();
  return { node: call, params: first, ...methodShape(method, first) };
}

/**
 * The server's request method handed on as a value: a site, asked through its receiver where it is
 * handed on (`retry(ask(server.server).createMessage.bind(server.server))`), so that whatever calls it
 * while a handler runs asks by replay.
 */
function strayMethodSite(node: PropertyAccessExpression): Omit<Site, 'fn'> {
  const method = strayRequestMethod(node)!;
  return { node, handedOn: true, ...methodShape(method, undefined) };
}

/** Where a variable holding a request method is handed on (`retry(send)`, `{ ask }`): a site each, asked through the server it was read from. */
function handedOnAliasSites(declaration: import('ts-morph').VariableDeclaration): Site[] {
  const alias = requestAlias(declaration);
  if (!alias?.receiver || stateModuleCall(alias.receiver) === 'ask') return [];
  return aliasHandedOnUses(declaration).map(use => ({ node: use, handedOn: true, target: alias.receiver, ...methodShape(alias.method, undefined), fn: enclosingFunction(use) }));
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** Whether a parameter is the context parameter of a registered handler. */
function isContextParameter(param: import('ts-morph').ParameterDeclaration): boolean {
  const fn = param.getParent() as FunctionLike;
  const registration = registrationOf(fn);
  return registration !== undefined && !registration.ctxMember && registration.ctxIndex === fn.getParameters().indexOf(param);
}

/** `extra.sendRequest` handed to something else as a value: a request we cannot follow. */
function passedOnChannel(node: Node): boolean {
  if (!Node.isPropertyAccessExpression(node)) return false;
  const name = node.getName();
  if (name !== 'sendRequest' && !(name === 'send' && isMcpReq(node.getExpression()))) return false;
  const parent = node.getParent();
  if (parent && Node.isCallExpression(parent) && parent.getExpression() === node) return false;
  return name === 'send' || isHandlerExtra(node.getExpression());
}

/** `ctx.mcpReq` where `ctx` is a handler's context parameter (or typed as an SDK context). */
export function isMcpReq(node: Node): boolean {
  const n = unwrap(node);
  return Node.isPropertyAccessExpression(n) && n.getName() === 'mcpReq' && isHandlerExtra(n.getExpression());
}

/** The `extra`/`ctx` parameter of a registered handler, or anything typed as the SDK's handler context. */
export function isHandlerExtra(node: Node): boolean {
  const n = unwrap(node);
  if (!Node.isIdentifier(n)) return false;
  for (const decl of n.getSymbol()?.getDeclarations() ?? []) {
    if (!Node.isParameterDeclaration(decl)) continue;
    const typeNode = decl.getTypeNode() ?? contextualParameterType(decl);
    if (typeNode && namesContextType(typeNode, 0)) return true;
    const fn = decl.getParent();
    const registration = fn && registrationOf(fn as FunctionLike);
    if (registration && !registration.ctxMember && registration.ctxIndex === (fn as FunctionLike).getParameters().indexOf(decl)) return true;
  }
  return false;
}

/**
 * A type the SDK's request context is written as: `RequestHandlerExtra<...>` (or 2.x's `ServerContext`,
 * `BaseContext`) imported from the SDK, directly or through local type aliases (`type Extra = RequestHandlerExtra<...>`).
 * Read from the source, not the checker: with the SDK not installed, or once upgraded to 2.x packages not yet
 * installed, the checker knows none of them.
 */
function namesContextType(typeNode: Node, depth: number): boolean {
  if (!Node.isTypeReference(typeNode) || depth > 3) return false;
  const imported = mcpImportOf(typeNode.getTypeName());
  if (imported) return /^(RequestHandlerExtra|ServerContext|BaseContext)$/.test(imported.exportName);
  const alias = typeNode.getTypeName().getSymbol()?.getDeclarations().find(Node.isTypeAliasDeclaration);
  const aliased = alias?.getTypeNode();
  return aliased !== undefined && namesContextType(aliased, depth + 1);
}

/**
 * The type node of the parameter a function's parameter takes its type from, when it has none of its own: an
 * entry of a typed table (`const tools: Record<string, (args: Args, extra: Extra) => ...> = { async remove(args, extra) {...} }`)
 * or a callback passed where a function type is declared.
 */
function contextualParameterType(decl: ParameterDeclaration): Node | undefined {
  const fn = decl.getParent();
  const checker = decl.getProject().getTypeChecker();
  let type: Type | undefined;
  try {
    if (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) type = checker.getContextualType(fn);
    else if (Node.isMethodDeclaration(fn) && Node.isObjectLiteralExpression(fn.getParent())) {
      const table = checker.getContextualType(fn.getParent() as ObjectLiteralExpression);
      type = table?.getProperty(fn.getName())?.getTypeAtLocation(fn) ?? table?.getStringIndexType();
    }
  } catch {
    return undefined;
  }
  const signature = type?.getCallSignatures()[0]?.getDeclaration();
  if (!signature || !('getParameters' in signature)) return undefined;
  const index = (fn as FunctionLike).getParameters().indexOf(decl);
  return (signature.getParameters() as ParameterDeclaration[])[index]?.getTypeNode();
}

export function enclosingFunction(node: Node): FunctionLike | undefined {
  const fn = node.getFirstAncestor(
    a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a)
  );
  return fn as FunctionLike | undefined;
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

export type NonHandler = {
  kind: 'helper' | 'shared-handler' | 'wrapped-handler' | 'generator' | 'other-request' | 'notification' | 'lifecycle' | 'callback' | 'wrapped' | 'class-member' | 'top-level';
  detail: string;
  /** What became of it and what to do, when the kind does not say it alone. */
  fate?: string;
};

export const TOOL_METHODS: Record<string, HandlerMethod> = {
  registerTool: 'tools/call',
  tool: 'tools/call',
  registerPrompt: 'prompts/get',
  prompt: 'prompts/get',
  registerResource: 'resources/read',
  resource: 'resources/read'
};

const REQUEST_SCHEMAS: Record<string, HandlerMethod> = {
  CallToolRequestSchema: 'tools/call',
  GetPromptRequestSchema: 'prompts/get',
  ReadResourceRequestSchema: 'resources/read'
};

/**
 * The registration a function is the callback of, when it is a tools/call, prompts/get or resources/read
 * handler; or, for the delegate of a handler that only hands its call on (src/analysis/delegates.ts),
 * that handler's registration as the delegate sees it.
 */
export function registrationOf(fn: FunctionLike): Registration | undefined {
  return handlerRegistrationOf(fn) ?? delegateRegistrationOf(fn);
}

/** The registration a function is the callback of itself (not as a delegate): directly, or through a wrapper of the project. */
export function handlerRegistrationOf(fn: FunctionLike): Registration | undefined {
  const passed = callbackArgument(fn);
  if (!passed) return undefined;
  return registrationFor(passed.call, passed.arg, fn) ?? wrappedRegistrationOf(fn, passed) ?? passThroughOf(fn, passed)?.handler;
}

/**
 * The registration `call` makes with `arg` (which stands for `fn`) as its handler, if it is one; `args`
 * are its arguments as the handler's scope reads them (a wrapper's parameters read as its caller passes them).
 */
export function registrationFor(call: CallExpression, arg: Node, fn: FunctionLike, args: Node[] = call.getArguments()): Registration | undefined {
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
      return { method, call, nameText, label, ctxIndex: template ? 2 : 1, args: { kind: 'resource', variablesIndex: template ? 1 : undefined } };
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
  if (!member || !Node.isPropertyAccessExpression(member) || member.getNameNode() !== use || !Node.isThisExpression(member.getExpression())) return use;
  const bind = member.getParent();
  const bound = bind?.getParent();
  const isBind = bind && Node.isPropertyAccessExpression(bind) && bind.getName() === 'bind' && bound && Node.isCallExpression(bound) && bound.getExpression() === bind;
  return isBind && (bound as CallExpression).getArguments().length === 1 && Node.isThisExpression((bound as CallExpression).getArguments()[0]!) ? bound! : member;
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
  return (name in TOOL_METHODS && serverKindOf(callee.getExpression()) === 'McpServer') || (name === 'setRequestHandler' && serverKindOf(callee.getExpression()) !== undefined);
}

function calleeName(call: CallExpression): string {
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
    if (Node.isPropertyAccessExpression(callee) && (callee.getName() in TOOL_METHODS || callee.getName() === 'setRequestHandler') && serverKindOf(callee.getExpression())) return call;
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

function usesByName(fn: FunctionLike): NamedUses | undefined {
  const cached = namedUsesCache.get(fn);
  if (cached !== undefined) return cached ?? undefined;
  const parent = fn.getParent();
  let nameNode: Node | undefined;
  let exported = false;
  if (Node.isFunctionDeclaration(fn)) {
    exported = fn.isExported() || fn.isDefaultExport();
    nameNode = fn.getNameNode();
  } else if ((Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) && parent && Node.isVariableDeclaration(parent) && parent.getInitializer() === fn) {
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
    const uses = fn
      .getSourceFile()
      .getDescendantsOfKind(SyntaxKind.Identifier)
      .filter(id => id !== nameNode && id.getText() === name && (Node.isExportSpecifier(id.getParent()) || id.getSymbol() === symbolOfName()));
    found = { exported: exported || uses.some(u => Node.isExportSpecifier(u.getParent())), uses };
  }
  namedUsesCache.set(fn, found);
  return found ?? undefined;
}

/** The name of a class method, or of a field a function initialises (`sum = async (...) => ...`). */
function classMemberName(fn: FunctionLike): Identifier | undefined {
  const parent = fn.getParent();
  const member = Node.isMethodDeclaration(fn) ? fn : (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) && parent && Node.isPropertyDeclaration(parent) && parent.getInitializer() === fn ? parent : undefined;
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
  for (const access of sf.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
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

/**
 * A class's getter, setter, constructor or static block around a request that no function encloses
 * (`get confirmation() { return this.server.server.elicitInput(...) }`): enclosingFunction does not stop
 * there, and "at module level" would not be true of it.
 */
function classMemberAround(site: Node): NonHandler | undefined {
  const member = site.getFirstAncestor(
    a => Node.isGetAccessorDeclaration(a) || Node.isSetAccessorDeclaration(a) || Node.isConstructorDeclaration(a) || Node.isClassStaticBlockDeclaration(a)
  );
  if (!member) return undefined;
  const owner = member.getParent();
  const cls = owner && (Node.isClassDeclaration(owner) || Node.isClassExpression(owner)) ? owner.getName() : undefined;
  const of = cls ? ` of class ${cls}` : ' of a class';
  const what = Node.isGetAccessorDeclaration(member)
    ? `the getter ${member.getName()}`
    : Node.isSetAccessorDeclaration(member)
      ? `the setter ${member.getName()}`
      : Node.isConstructorDeclaration(member)
        ? 'the constructor'
        : 'the static block';
  return { kind: 'class-member', detail: `in ${what}${of}, not in a handler` };
}

/**
 * A callback the SDK itself runs for a request other than tools/call, prompts/get or resources/read: a
 * ResourceTemplate's `list` (resources/list) or `complete` callbacks, or `completable(schema, complete)`'s
 * (completion/complete). Neither is a helper nor a callback the handler passes on: no handler calls it.
 */
function sdkCallbackOf(fn: FunctionLike): string | undefined {
  const parent = fn.getParent();
  if (parent && Node.isCallExpression(parent) && parent.getArguments()[1] === fn && mcpImportOf(unwrap(parent.getExpression()))?.exportName === 'completable') {
    return 'in the completion callback of completable(), which answers completion/complete, not tools/call, prompts/get or resources/read';
  }
  // `list: async () => ...` or `async list() { ... }`
  const property = parent && Node.isPropertyAssignment(parent) && parent.getInitializer() === (fn as Node) ? parent : Node.isMethodDeclaration(fn) ? fn : undefined;
  let holder = property?.getParent();
  // `complete: { name: async value => ... }`: one level further out.
  const outer = holder?.getParent();
  if (holder && Node.isObjectLiteralExpression(holder) && outer && Node.isPropertyAssignment(outer) && outer.getName() === 'complete') holder = outer.getParent();
  const created = holder && Node.isObjectLiteralExpression(holder) ? holder.getParent() : undefined;
  if (!property || !created || !Node.isNewExpression(created) || mcpImportOf(unwrap(created.getExpression()))?.exportName !== 'ResourceTemplate') return undefined;
  return property.getName() === 'list'
    ? 'in the list callback of a ResourceTemplate, which answers resources/list, not tools/call, prompts/get or resources/read'
    : 'in a completion callback of a ResourceTemplate, which answers completion/complete, not tools/call, prompts/get or resources/read';
}

/** Why a function that is not a rewritable handler cannot hold a server-initiated request, for the marker. */
export function describeNonHandler(fn: FunctionLike | undefined, site?: Node): NonHandler {
  if (!fn) return (site && classMemberAround(site)) ?? { kind: 'top-level', detail: 'at module level, outside any request handler' };
  const parent = fn.getParent();
  if (parent && Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
    const left = parent.getLeft().getText();
    if (/\.(oninitialized|onclose|onerror)$/.test(left)) return { kind: 'lifecycle', detail: `in ${left}` };
  }
  const sdkCallback = sdkCallbackOf(fn);
  if (sdkCallback) return { kind: 'other-request', detail: sdkCallback };
  const wrapped = registeredWrapperCallOf(fn);
  if (wrapped) {
    const registered = `${calleeName(wrapped.registration)}(${wrapped.registration.getArguments()[0]?.getText() ?? ''})`;
    const detail = `in a handler wrapped by ${calleeName(wrapped.wrapper)}() before ${registered} registers it`;
    const passed = callbackArgument(fn);
    const refused = passed && passed.call === wrapped.wrapper ? passThroughOf(fn, passed)?.refused : undefined;
    return { kind: 'wrapped-handler', detail, ...(refused ? { fate: `it is not migrated as its handler: ${refused.why}; ${refused.fix}` } : {}) };
  }
  if (parent && Node.isCallExpression(parent)) {
    const callee = parent.getExpression();
    const calleeName = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
    if (calleeName === 'setNotificationHandler') return { kind: 'notification', detail: 'in a notification handler' };
    if (calleeName === 'setRequestHandler') {
      const schema = parent.getArguments()[0]?.getText() ?? 'a request';
      return { kind: 'other-request', detail: `in the ${schema} handler, which is not tools/call, prompts/get or resources/read` };
    }
  }
  const overridden = overriddenRegistrationOf(fn);
  if (overridden) return overridden;
  const passed = callbackArgument(fn);
  const wrapping = passed && wrappingOf(fn, passed);
  if (wrapping?.refused) {
    const registration = wrapping.registration.getExpression().getText();
    return { kind: 'wrapped', detail: `in a callback passed to ${wrapping.wrapper} of ${wrapping.where}, which registers it with ${registration}(...)`, fate: `it is not migrated as that registration's handler: ${wrapping.refused.why}; ${wrapping.refused.fix}` };
  }
  if (parent && Node.isCallExpression(parent) && parent.getArguments().includes(fn as never)) {
    const callee = parent.getExpression();
    return { kind: 'callback', detail: `in a callback passed to ${Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText()}()` };
  }
  // `new Promise((resolve, reject) => ...)`, and a function called where it is written (`(async () => ...)()`):
  // no helper, nothing else calls them.
  if (parent && Node.isNewExpression(parent) && (parent.getArguments() as Node[]).includes(fn)) {
    return { kind: 'callback', detail: `in a callback passed to new ${parent.getExpression().getText()}()` };
  }
  let called: Node | undefined = parent;
  while (called && Node.isParenthesizedExpression(called)) called = called.getParent();
  if (called && Node.isCallExpression(called) && unwrap(called.getExpression()) === fn) {
    return { kind: 'callback', detail: 'in a function called where it is written ((async () => { ... })())' };
  }
  const name = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) ? fn.getName() : variableNameOf(fn);
  const shared = sharedRegistration(fn);
  if (shared) {
    const callee = shared.getExpression().getText();
    return { kind: 'shared-handler', detail: `in ${name}(), passed to ${callee}() by name but also ${usesByName(fn)!.exported ? 'exported' : 'used otherwise'}` };
  }
  if ((Node.isFunctionDeclaration(fn) || Node.isFunctionExpression(fn) || Node.isMethodDeclaration(fn)) && fn.isGenerator()) {
    return { kind: 'generator', detail: `in generator ${name ? `${name}()` : 'function'}` };
  }
  return { kind: 'helper', detail: `in ${name ? `helper ${name}()` : 'a helper function'}, not directly in a handler` };
}

/**
 * A callback passed to a registration whose receiver's class (the project's, extending the SDK's server)
 * declares that method again, or the SDK 1.x method the official codemod turned the call from: the class
 * decides what the callback gets and when it runs, so it is not migrated as the SDK's handler.
 */
function overriddenRegistrationOf(fn: FunctionLike): NonHandler | undefined {
  const call = fn.getParent();
  if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(fn as never)) return undefined;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !(callee.getName() in TOOL_METHODS)) return undefined;
  const name = callee.getName();
  const over = overridingClass(callee.getExpression(), name);
  if (!over) return undefined;
  const detail = `in a callback passed to ${name}() on an instance of ${over.cls}, which declares ${over.member}() of its own`;
  if (over.member === name) {
    return { kind: 'wrapped', detail, fate: `that ${name}() is not the SDK's registration and decides what the callback gets, so it is not migrated as a handler; migrate by hand` };
  }
  const fate = `SDK 2.x's McpServer has no ${over.member}(), and the official codemod turns ${over.member}(...) calls into ${name}(...), which does not run ${over.cls}'s ${over.member}(), so the callback is not migrated as a handler; do what that ${over.member}() did around the ${name}() call (or in a pass-through wrapper of the callback), remove it from the class and run again, or migrate by hand`;
  return { kind: 'wrapped', detail, fate };
}

function variableNameOf(fn: Node): string | undefined {
  const parent = fn.getParent();
  return parent && Node.isVariableDeclaration(parent) ? parent.getName() : undefined;
}
