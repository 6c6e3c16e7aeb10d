/**
 * Finding server-initiated request sites, and the registration a function is the handler of. The two ask each
 * other: whether a parameter is a handler's context decides a site (`extra.sendRequest(...)`), and whether a
 * table's entry asks decides whether it is migrated as its handler's delegate. So the registration finder is
 * composed here, of the direct registration (src/analysis/registrations.ts) and the modules that find one
 * through the project's functions, each handed it as a RegistrationLookup.
 */
import {
  Node,
  SyntaxKind,
  type CallExpression,
  type Identifier,
  type NewExpression,
  type ObjectLiteralExpression,
  type ParameterDeclaration,
  type PropertyAccessExpression,
  type SourceFile,
  type Type,
} from 'ts-morph';
import type { SiteKind } from '../report.js';
import type { CauseId } from '../tables/causes.js';
import { handedServerKind } from '../find/handedServer.js';
import { stateModuleCall } from '../find/stateCalls.js';
import { delegateRegistrationOf } from './delegates.js';
import { descendantsWhere } from './descendants.js';
import { destructures } from './fileBindings.js';
import { enclosingFunction, type FunctionLike } from './functions.js';
import { constObjectLiteral, literalString, mcpImportOf, objectProperty, serverKindOf, unwrap } from './mcpSymbols.js';
import {
  aliasedRequest,
  aliasHandedOnUses,
  elementAccessRequest,
  REQUEST_METHODS,
  requestAlias,
  strayRequestMethod,
} from './methodRefs.js';
import { passThroughOf } from './passThrough.js';
import { callbackArgument, registrationFor, type Registration, type RegistrationLookup } from './registrations.js';
import { wrappedRegistrationOf } from './wrappers.js';

export interface Site {
  /** The call; or, for a request handed on as a value, the value (a property access, or the name of a variable holding it). */
  node: CallExpression | NewExpression | PropertyAccessExpression | Identifier;
  kind: SiteKind;
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
  unsupported?: { reason: string; servesLegacy: boolean; causeId: CauseId };
}

const BY_METHOD: Record<string, Pick<Site, 'kind'>> = {
  'sampling/createMessage': { kind: 'sampling' },
  'roots/list': { kind: 'roots' },
  'elicitation/create': { kind: 'elicitation' },
};

function elicitationShape(params: Node | undefined): Pick<Site, 'kind'> {
  const mode = literalString(objectProperty(constObjectLiteral(params), 'mode'));
  return mode === 'url' ? { kind: 'elicitation-url' } : { kind: 'elicitation' };
}

/** The nodes findSites reads: a request is a call, a method handed on, a variable holding one, or a thrown error made. */
const SITE_KINDS = new Set([
  SyntaxKind.CallExpression,
  SyntaxKind.PropertyAccessExpression,
  SyntaxKind.ElementAccessExpression,
  SyntaxKind.VariableDeclaration,
  SyntaxKind.NewExpression,
]);

export function findSites(sf: SourceFile): Site[] {
  const sites: Site[] = [];
  for (const node of descendantsWhere(sf, n => SITE_KINDS.has(n.kind))) {
    if (Node.isCallExpression(node)) {
      const site = classifyCall(node);
      if (site) sites.push({ ...site, fn: enclosingFunction(node) });
    } else if (strayRequestMethod(node) && stateModuleCall((node as PropertyAccessExpression).getExpression()) !== 'ask') {
      sites.push({ ...strayMethodSite(node as PropertyAccessExpression), fn: enclosingFunction(node) });
    } else if (Node.isVariableDeclaration(node)) {
      sites.push(...handedOnAliasSites(node));
    } else if (passedOnChannel(node) && stateModuleCall((node as PropertyAccessExpression).getExpression()) !== 'ask') {
      sites.push({
        node: node as never,
        kind: 'request',
        passedOn: true,
        fn: enclosingFunction(node),
      });
    } else if (Node.isNewExpression(node)) {
      const imported = mcpImportOf(node.getExpression());
      if (imported?.exportName === 'UrlElicitationRequiredError') {
        sites.push({
          node,
          kind: 'elicitation-url',
          urlError: true,
          fn: enclosingFunction(node),
        });
      }
    }
  }
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
    return { ...site, unsupported: { reason, servesLegacy: false, causeId: 'task-augmented-request' } };
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
      return unknownReceiver(call, method, target);
    case 'listRoots':
      if (serverKindOf(target) ?? handedServerKind(target)) return { node: call, ...BY_METHOD['roots/list']! };
      return unknownReceiver(call, method, target);
    case 'elicitInput':
      if (serverKindOf(target) || isMcpReq(target) || handedServerKind(target))
        return { node: call, params: first, ...elicitationShape(first) };
      return unknownReceiver(call, method, target);
    case 'requestSampling':
      if (isMcpReq(target)) return { node: call, params: first, ...BY_METHOD['sampling/createMessage']! };
      return undefined;
    case 'ping':
      if (serverKindOf(target) ?? handedServerKind(target))
        return leftAsWritten(call, 'request', { reason: PING_REASON, servesLegacy: true, causeId: 'request-method-not-in-2026' });
      return undefined;
    case 'sendRequest':
    case 'request':
    case 'send': {
      // `request` is the SDK Server's own generic request method (`server.request({ method, params }, Schema)`).
      const isChannel =
        method === 'sendRequest'
          ? isHandlerExtra(target) || serverKindOf(target) !== undefined
          : method === 'request'
            ? serverKindOf(target) !== undefined
            : isMcpReq(target);
      if (!isChannel) return undefined;
      const request = constObjectLiteral(first);
      const requestMethod = literalString(objectProperty(request, 'method'));
      const shape = requestMethod ? BY_METHOD[requestMethod] : undefined;
      // A request whose method is not written out (`send(request, schema)`): asked by replay when, as it runs, it is one of the three.
      if (!requestMethod)
        return request !== undefined && (!Node.isObjectLiteralExpression(request) || objectProperty(request, 'method') !== undefined)
          ? { node: call, kind: 'request' }
          : undefined;
      if (!shape) {
        const reason = `${requestMethod} is a request to the client that MCP 2026-07-28 does not have (only elicitation/create, sampling/createMessage and roots/list can be asked, by returning input_required); on a 2026-07-28 request SDK 2.x refuses it. Do without it there (keep it for 2025-era clients behind a check of the protocol version), or migrate by hand`;
        return leftAsWritten(call, 'request', { reason, servesLegacy: true, causeId: 'request-method-not-in-2026' });
      }
      const params = objectProperty(request, 'params');
      return { node: call, params, ...(shape.kind === 'elicitation' ? elicitationShape(params) : shape) };
    }
    default:
      return undefined;
  }
}

/**
 * A request method only an SDK server has (`elicitInput`, `listRoots`; `createMessage` on a `.server`, as on an
 * McpServer's) called on something the checker cannot type and no caller the analysis follows hands a server:
 * never rewritten on a guess, never dropped in silence either. Marked, with what to do either way.
 */
function unknownReceiver(call: CallExpression, method: string, target: Node): Omit<Site, 'fn'> | undefined {
  const receiver = unwrap(target);
  const mcpOnly = method !== 'createMessage' || (Node.isPropertyAccessExpression(receiver) && receiver.getName() === 'server');
  const type = receiver.getType();
  if (!mcpOnly || !(type.isAny() || type.isUnknown())) return undefined;
  const kind = method === 'elicitInput' ? 'elicitation' : method === 'listRoots' ? 'roots' : 'sampling';
  const reason = `${method}() is called on ${oneLine(receiver.getText())}, which mcp-migrate cannot tell is an SDK server (nothing it follows says what it holds), so the request is left as written: on a 2026-07-28 request SDK 2.x refuses it. If it is a server, say so (type it McpServer, or a JSDoc @param in JavaScript) or hand it from a handler by a call the run can follow, then run again; if it is not, delete this marker`;
  return { node: call, kind, unsupported: { reason, servesLegacy: true, causeId: 'request-on-unknown-receiver' } };
}

/** A request of a method MCP 2026-07-28 does not have, left as written (a marker says why). */
function leftAsWritten(call: CallExpression, kind: 'request' | 'task', unsupported: NonNullable<Site['unsupported']>): Omit<Site, 'fn'> {
  return { node: call, kind, unsupported };
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
  if (
    !Node.isPropertyAccessExpression(experimental) ||
    experimental.getName() !== 'experimental' ||
    !serverKindOf(experimental.getExpression())
  )
    return undefined;
  if (!CLIENT_TASK_METHODS.has(callee.getName())) return undefined;
  const reason = `${callee.getName()}() asks the client about its tasks (tasks/get, tasks/result, or a request answered with a task), which neither MCP 2026-07-28 nor SDK 2.x has: ask with inputRequired and keep long work on the server's side`;
  return leftAsWritten(call, 'task', { reason, servesLegacy: false, causeId: 'client-tasks' });
}

const CLIENT_TASK_METHODS = new Set([
  'requestStream',
  'createMessageStream',
  'elicitInputStream',
  'getTask',
  'getTaskResult',
  'listTasks',
  'cancelTask',
]);

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
  const binding = callee
    .getSymbol()
    ?.getDeclarations()
    .find(d => Node.isBindingElement(d));
  if (!binding || !Node.isBindingElement(binding) || (binding.getPropertyNameNode()?.getText() ?? binding.getName()) !== 'sendRequest')
    return undefined;
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
  return {
    node: call,
    params,
    ...(shape.kind === 'elicitation' ? elicitationShape(params) : shape),
    unsupported: { reason, servesLegacy: false, causeId: 'destructured-send-request' },
  };
}

/** The site shape a request method sends, its params the call's first argument. */
function methodShape(method: string, params: Node | undefined): Pick<Site, 'kind'> {
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
  return {
    node: call,
    params: first,
    ...methodShape(alias.method, first),
    unsupported: { reason, servesLegacy: true, causeId: 'request-method-aliased' },
  };
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
  return aliasHandedOnUses(declaration).map(use => ({
    node: use,
    handedOn: true,
    target: alias.receiver,
    ...methodShape(alias.method, undefined),
    fn: enclosingFunction(use),
  }));
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
    if (registration && !registration.ctxMember && registration.ctxIndex === (fn as FunctionLike).getParameters().indexOf(decl))
      return true;
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

/**
 * The registration a function is the callback of, when it is a tools/call, prompts/get or resources/read
 * handler; or, for the delegate of a handler that only hands its call on (src/analysis/delegates.ts),
 * that handler's registration as the delegate sees it.
 */
export function registrationOf(fn: FunctionLike): Registration | undefined {
  return handlerRegistrationOf(fn) ?? delegateRegistrationOf(fn, registrations);
}

/** The registration a function is the callback of itself (not as a delegate): directly, or through a wrapper of the project. */
export function handlerRegistrationOf(fn: FunctionLike): Registration | undefined {
  const passed = callbackArgument(fn);
  if (!passed) return undefined;
  return (
    registrationFor(passed.call, passed.arg, fn) ?? wrappedRegistrationOf(fn, passed, registrations) ?? passThroughOf(fn, passed)?.handler
  );
}

/** Whether a request is made in a function's body (or a callback written in it). */
function makesRequest(fn: FunctionLike): boolean {
  return findSites(fn.getSourceFile()).some(site => site.node.getStart() >= fn.getStart() && site.node.getEnd() <= fn.getEnd());
}

/** The registration finder, as the modules that find a registration through the project's functions are handed it. */
export const registrations: RegistrationLookup = { handlerRegistrationOf, registrationOf, makesRequest };
