/**
 * Era traps in lifecycle code: what a server reads from its connection's `initialize`, which a 2026-07-28
 * client never sends (each of its requests carries the client's identity, capabilities and revision in the
 * request's own `_meta` envelope instead). Nothing fails: the code runs on, for a 2026-07-28 client, with
 * a callback that never fired or a value that is undefined. Measured under serveStdio with SDK 2.x:
 *
 * - `oninitialized` (and a handler of `notifications/initialized`) never fires for such a client, so what it
 *   sets up (a user agent built from the client's name, a log line, a timer) silently never happens.
 * - `getClientVersion()` is undefined for it, in a handler and anywhere else (createMcpHandler fills it in per
 *   request, serveStdio does not): a user agent or a per-client branch silently takes its fallback.
 * - `getNegotiatedProtocolVersion()` does report '2026-07-28' for it; only code that compares it with the
 *   revisions it knows is a trap (the new one matches none of them), and only that is reported.
 *
 * `getClientCapabilities()` is src/analysis/units/capabilityReads.ts's (rewritten in handlers, marked elsewhere).
 */
import { Node, SyntaxKind, type BinaryExpression, type CallExpression, type SourceFile } from 'ts-morph';
import { CLIENT_VERSION_CAUSE, ONINITIALIZED_CAUSE, PROTOCOL_VERSION_CAUSE, SESSION_KEY_CAUSE, type FoundCause } from '../tables/causes.js';
import { serverKindOf, serverMethodCalls, unwrap } from './mcpSymbols.js';
import { enclosingFunction, type FunctionLike } from './functions.js';
import { isHandlerExtra } from './sites.js';
import { descendantsOfKind } from './descendants.js';

export interface EraTrap {
  /** Where the marker goes: the `oninitialized` assignment or handler registration, or the read. */
  node: Node;
  /** The report's `call`: `server.server.oninitialized = ...`, `server.server.getClientVersion(...)`. */
  call: string;
  reason: string;
  /** Why, without names of the file: what the summary counts sites by. */
  cause: FoundCause;
  /** The handler a read runs in, when one does (its label); undefined for lifecycle code and everything else. */
  handler?: string;
}

export { CLIENT_VERSION_CAUSE, ONINITIALIZED_CAUSE, PROTOCOL_VERSION_CAUSE };

const CLIENT_INFO = 'ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY]';
const CLIENT_INFO_KEY = 'CLIENT_INFO_META_KEY is exported by @modelcontextprotocol/server';
const PROTOCOL_VERSION = 'ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY]';
const CONNECTION_READS = /^(getClientVersion|getNegotiatedProtocolVersion|getClientCapabilities)$/;

/**
 * The era traps of a file. `handlerOf(fn)`: the label of a tools/call, prompts/get or resources/read handler
 * that may run `fn` (src/find/reach.ts), undefined when none does.
 */
export function eraTraps(sf: SourceFile, handlerOf: (fn: FunctionLike) => string | undefined): EraTrap[] {
  const text = sf.getFullText();
  if (
    !/oninitialized|getClientVersion|getNegotiatedProtocolVersion|InitializedNotification|notifications\/initialized|sessionId/.test(text)
  )
    return [];
  const traps: EraTrap[] = [];
  const callbacks: Node[] = [];
  for (const found of initializeCallbacks(sf)) {
    callbacks.push(found.callback);
    traps.push(onInitializedTrap(found));
  }
  const inCallback = (n: Node) => callbacks.some(cb => n.getPos() >= cb.getPos() && n.getEnd() <= cb.getEnd());
  for (const call of serverMethodCalls(sf, 'getClientVersion')) {
    if (!inCallback(call)) traps.push(clientVersionTrap(call, handlerOf));
  }
  for (const call of serverMethodCalls(sf, 'getNegotiatedProtocolVersion')) {
    const comparison = inCallback(call) ? undefined : versionComparison(call);
    if (comparison) traps.push(protocolVersionTrap(call, comparison, handlerOf));
  }
  if (text.includes('sessionId')) for (const read of sessionKeys(sf)) traps.push(sessionKeyTrap(read, handlerOf));
  return traps;
}

/**
 * `ctx.sessionId` (`extra.sessionId` before the upgrade) used as a key: a Map's or a Set's, an index, part of a
 * key's template. A 2026-07-28 request has no session (serveStdio and createMcpHandler give none), so the id is
 * undefined for every such client, and what is keyed on it (a cache, a per-client counter) is shared by all of them.
 */
function sessionKeys(sf: SourceFile): Node[] {
  const reads = descendantsOfKind(sf, SyntaxKind.PropertyAccessExpression).filter(
    read => read.getName() === 'sessionId' && isHandlerExtra(read.getExpression()) && keyUse(read) !== undefined,
  );
  // One finding per statement: its marker says it for every read there.
  const statements = new Set<Node | undefined>();
  return reads.filter(read => {
    const statement = read.getFirstAncestor(Node.isStatement);
    if (statements.has(statement)) return false;
    statements.add(statement);
    return true;
  });
}

function sessionKeyTrap(read: Node, handlerOf: (fn: FunctionLike) => string | undefined): EraTrap {
  const fn = enclosingFunction(read);
  const handler = fn ? handlerOf(fn) : undefined;
  const use = keyUse(read)!.getText().replace(/\s+/g, ' ');
  return {
    node: read,
    call: read.getText(),
    reason: `${read.getText()} keys ${use.length > 80 ? `${use.slice(0, 77)}...` : use}, but a 2026-07-28 request has no session: the id is undefined for every such client, so what is kept under it is shared by all of them; key it on something each request carries (the user from ctx.http?.authInfo, an argument), or keep nothing across calls`,
    cause: SESSION_KEY_CAUSE,
    ...(handler ? { handler } : {}),
  };
}

/** Where a value is used as a key, followed through a local it is stored in: `cache.get(id)`, `seen[id]`, `` `roots:${id}` `` handed to one. */
function keyUse(value: Node): Node | undefined {
  const uses: Node[] = [value];
  const declaration = outer(value).getParent();
  const name = declaration && Node.isVariableDeclaration(declaration) ? declaration.getNameNode() : undefined;
  if (name && Node.isIdentifier(name)) uses.push(...name.findReferencesAsNodes().filter(ref => ref !== name));
  for (const use of uses) {
    let at = outer(use);
    const template = at.getParent();
    if (template && Node.isTemplateSpan(template)) at = outer(template.getParentOrThrow());
    const parent = at.getParent();
    if (parent && Node.isElementAccessExpression(parent) && parent.getArgumentExpression() === at) return parent;
    if (
      parent &&
      Node.isCallExpression(parent) &&
      parent.getArguments()[0] === at &&
      /\.(get|set|has|delete|add)$/.test(parent.getExpression().getText())
    )
      return parent;
  }
  return undefined;
}

/** The expression a value stands in: through parentheses, casts, `!` and a `??` or `||` fallback. */
function outer(node: Node): Node {
  let at = node;
  for (
    let up = at.getParent();
    up &&
    (Node.isParenthesizedExpression(up) ||
      Node.isNonNullExpression(up) ||
      Node.isAsExpression(up) ||
      (Node.isBinaryExpression(up) && /^(\?\?|\|\|)$/.test(up.getOperatorToken().getText()) && up.getLeft() === at));
    up = up.getParent()
  )
    at = up;
  return at;
}

interface InitializeCallback {
  /** The assignment or registration, where the marker goes. */
  at: BinaryExpression | CallExpression;
  callback: Node;
  server: string;
}

/** `server.oninitialized = callback` and `server.setNotificationHandler(<initialized>, callback)` on an SDK server. */
function initializeCallbacks(sf: SourceFile): InitializeCallback[] {
  const found: InitializeCallback[] = [];
  for (const assignment of descendantsOfKind(sf, SyntaxKind.BinaryExpression)) {
    if (assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) continue;
    const left = unwrap(assignment.getLeft());
    if (!Node.isPropertyAccessExpression(left) || left.getName() !== 'oninitialized' || !serverKindOf(left.getExpression())) continue;
    found.push({ at: assignment, callback: assignment.getRight(), server: left.getExpression().getText() });
  }
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = unwrap(call.getExpression());
    const [what, callback] = call.getArguments();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'setNotificationHandler' || !what || !callback) continue;
    if (
      !/^(InitializedNotificationSchema|(['"`])notifications\/initialized\2)$/.test(what.getText()) ||
      !serverKindOf(callee.getExpression())
    )
      continue;
    found.push({ at: call, callback, server: callee.getExpression().getText() });
  }
  return found;
}

function onInitializedTrap({ at, callback, server }: InitializeCallback): EraTrap {
  const reads = [
    ...new Set(
      descendantsOfKind(callback, SyntaxKind.CallExpression)
        .map(readName)
        .filter((n): n is string => n !== undefined),
    ),
  ];
  const what =
    reads.length > 0
      ? `what it does, reading ${reads.map(r => `${r}()`).join(' and ')}, never happens for one`
      : 'what it does never happens for one';
  const call = Node.isBinaryExpression(at) ? `${at.getLeft().getText()} = ...` : `${server}.setNotificationHandler(...)`;
  const fix = reads.includes('getClientVersion')
    ? `read the client's identity where it is used, in the handler, from the request's own envelope, ${CLIENT_INFO}, falling back to ${server}.getClientVersion() for 2025-era clients (${CLIENT_INFO_KEY})`
    : "do it when the server is built, or in the handler that needs it, from the request's own envelope (ctx.mcpReq.envelope)";
  return {
    node: at,
    call,
    reason: `${call} runs once a client has sent initialize, which a 2026-07-28 client never sends (each request carries the client's identity in its own _meta envelope): the callback never fires for one, so ${what}, and nothing says so; ${fix}`,
    cause: ONINITIALIZED_CAUSE,
  };
}

function clientVersionTrap(call: CallExpression, handlerOf: (fn: FunctionLike) => string | undefined): EraTrap {
  const server = receiverText(call);
  const fn = enclosingFunction(call);
  const handler = fn ? handlerOf(fn) : undefined;
  const where = handler
    ? `in this handler read the request's own, ${CLIENT_INFO}, falling back to ${server}.getClientVersion() for 2025-era clients (${CLIENT_INFO_KEY})`
    : `read it in the handler that needs it, from the request's own envelope, ${CLIENT_INFO} (${CLIENT_INFO_KEY}), or pass it to this code from there`;
  return {
    node: call,
    call: `${server}.getClientVersion(...)`,
    reason: `${server}.getClientVersion() answers with the clientInfo a client sent at initialize, which a 2026-07-28 client never sends: under serveStdio this is undefined for one (createMcpHandler fills it in per request), and the code goes on with its fallback without a word; ${where}`,
    cause: CLIENT_VERSION_CAUSE,
    ...(handler ? { handler } : {}),
  };
}

function protocolVersionTrap(call: CallExpression, comparison: Node, handlerOf: (fn: FunctionLike) => string | undefined): EraTrap {
  const server = receiverText(call);
  const fn = enclosingFunction(call);
  const handler = fn ? handlerOf(fn) : undefined;
  return {
    node: call,
    call: `${server}.getNegotiatedProtocolVersion(...)`,
    reason: `${describeComparison(comparison)} compares the negotiated protocol version with the revisions this code knows; for a 2026-07-28 client it is '2026-07-28' (no initialize negotiates it: each request names its revision in ${PROTOCOL_VERSION}), which matches none of them: decide what this code does for that revision`,
    cause: PROTOCOL_VERSION_CAUSE,
    ...(handler ? { handler } : {}),
  };
}

/** `getClientVersion` for `server.server.getClientVersion()` on an SDK server, and the like. */
function readName(call: CallExpression): string | undefined {
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !CONNECTION_READS.test(callee.getName())) return undefined;
  return serverKindOf(callee.getExpression()) ? callee.getName() : undefined;
}

function receiverText(call: CallExpression): string {
  return unwrap(call.getExpression()).asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression().getText();
}

/**
 * The comparison a version read ends up in, followed through a local it is stored in: `v === '2025-06-18'`,
 * `v < '2025-03-26'`, `switch (v)`, `KNOWN.includes(v)`, `v.startsWith('2025')`. Undefined when it is only
 * passed on, logged or returned.
 */
function versionComparison(read: CallExpression): Node | undefined {
  const uses: Node[] = [read];
  const declaration = read.getParentIfKind(SyntaxKind.VariableDeclaration);
  const name = declaration?.getNameNode();
  if (name && Node.isIdentifier(name)) uses.push(...name.findReferencesAsNodes().filter(ref => ref !== name));
  for (const use of uses) {
    const at = outer(use);
    const parent = at.getParent();
    if (parent && Node.isBinaryExpression(parent) && /^(===|!==|==|!=|<|<=|>|>=)$/.test(parent.getOperatorToken().getText())) return parent;
    if (parent && Node.isSwitchStatement(parent) && parent.getExpression() === at) return parent.getExpression();
    if (
      parent &&
      Node.isCallExpression(parent) &&
      parent.getArguments().includes(at as never) &&
      /\.includes$|\.indexOf$|\.has$/.test(parent.getExpression().getText())
    )
      return parent;
    if (parent && Node.isPropertyAccessExpression(parent) && /^(startsWith|endsWith|localeCompare)$/.test(parent.getName()))
      return parent.getParent() ?? parent;
  }
  return undefined;
}

/** The comparison as the reason names it: its text, or `switch (version)` for a switch's head. */
function describeComparison(comparison: Node): string {
  const text = comparison.getText().replace(/\s+/g, ' ');
  const parent = comparison.getParent();
  const shown = parent && Node.isSwitchStatement(parent) && parent.getExpression() === comparison ? `switch (${text})` : text;
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}
