/**
 * Streamable HTTP serving entries: which ones move to `createMcpHandler` mechanically, and why
 * the others do not.
 *
 * Two shapes move:
 * - stateless: inside an async request handler, a fresh server and a transport made with
 *   `sessionIdGenerator: undefined`, connected, then `transport.handleRequest(req, res[, body])`
 *   (optionally closed on `res.on('close')`). `createMcpHandler(factory)` is that idiom: it
 *   serves 2026-07-28 per request and 2025-era requests statelessly from the same factory.
 * - sessionful: a request handler that looks the transport up by the `mcp-session-id` header and
 *   passes a parsed body to `handleRequest`. Its wiring stays as it is for 2025-era clients (the
 *   SDK's legacy shim sends the handlers' input requests over the session); 2026-07-28 requests
 *   are routed with `isLegacyRequest` to `createMcpHandler(factory, { legacy: 'reject' })` before
 *   the session is read, after whatever the handler checks first (authentication, body parsing).
 *
 * The factory is the expression the server was built with, when it reads nothing of the request.
 */
import { Node, SyntaxKind, type CallExpression, type NewExpression, type SourceFile, type Statement } from 'ts-morph';
import { rangeOf, type HttpEntryPlan } from '../plan.js';
import type { FoundCause } from '../tables/causes.js';
import { mcpImportOf, serverKindOf, unwrap } from './mcpSymbols.js';
import { identifierTexts, nameAllocator } from './names.js';
import { descendantsOfKind } from './descendants.js';

/** `cause`: for a marked entry, why it stays, without the advice every such entry shares. */
export type HttpEntry = { plan: HttpEntryPlan; reason: string } | { plan?: undefined; reason: string; cause: FoundCause } | { skip: true };

type Fn = import('ts-morph').ArrowFunction | import('ts-morph').FunctionExpression | import('ts-morph').FunctionDeclaration;

/** SDK HTTP transports constructed in a file. */
export function httpTransports(sf: SourceFile): NewExpression[] {
  return descendantsOfKind(sf, SyntaxKind.NewExpression).filter(n =>
    /^(\w*StreamableHTTPServerTransport|SSEServerTransport)$/.test(transportName(n)),
  );
}

export function transportName(n: NewExpression): string {
  return mcpImportOf(n.getExpression())?.exportName ?? '';
}

/**
 * Decides one transport construction; `fresh` allocates the handler's name. `beforeUpgrade`: the file is
 * analysed as typed (an editor's diagnostics), its SDK 1.x transport judged as the upgrade will leave it.
 */
export function httpEntryOf(transport: NewExpression, fresh: (base: string) => string, beforeUpgrade = false): HttpEntry {
  const name = transportName(transport);
  if (name === 'SSEServerTransport') {
    // The official codemod keeps it working from @modelcontextprotocol/server-legacy/sse, for HTTP+SSE clients only.
    const reason =
      'SSEServerTransport (HTTP+SSE, kept by @modelcontextprotocol/server-legacy/sse) serves only clients of the old HTTP+SSE transport; a 2026-07-28 client cannot reach this endpoint: serve the server over Streamable HTTP with createMcpHandler(factory) from @modelcontextprotocol/server (toNodeHandler from @modelcontextprotocol/node on node:http/Express), beside this endpoint or instead of it';
    return { reason, cause: { id: 'sse-entry', text: reason } };
  }
  const manual = (why: string): HttpEntry => ({
    cause: { id: 'http-entry-not-moved', text: `${name} not moved to createMcpHandler: ${why}` },
    reason: `${name} is not moved to createMcpHandler: ${why}; serve a server factory with toNodeHandler(createMcpHandler(factory)) (stateless, both eras; a 2025-era client cannot be asked for input there), or keep this wiring for 2025-era clients behind isLegacyRequest and send the other requests to createMcpHandler(factory, { legacy: 'reject' })`,
  });
  const home = beforeUpgrade ? /^@modelcontextprotocol\/(node|server|sdk\/.*)$/ : /^@modelcontextprotocol\/(node|server)$/;
  if (!home.test(mcpImportOf(transport.getExpression())?.module ?? ''))
    return manual('the transport is still the SDK 1.x one (run without --no-upgrade)');
  const enclosing = transport.getFirstAncestor(
    a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a),
  );
  if (enclosing && Node.isMethodDeclaration(enclosing)) return manual('the request handler is a class method');
  const fn = enclosing as Fn | undefined;
  if (!fn) return manual('one transport, made at startup, serves every request');
  if (descendantsOfKind(fn, SyntaxKind.CallExpression).some(c => mcpImportOf(c.getExpression())?.exportName === 'isLegacyRequest'))
    return { skip: true };
  if (!fn.isAsync()) return manual('the request handler is not async');
  const body = fn.getBody();
  if (!body || !Node.isBlock(body)) return manual('the request handler has no block body');
  const declareBefore = statementOutside(fn);
  if (!declareBefore) return manual('the request handler is not declared in a block or at module level');

  const options = transport.getArguments()[0];
  const literal =
    options && Node.isObjectLiteralExpression(unwrap(options))
      ? unwrap(options).asKindOrThrow(SyntaxKind.ObjectLiteralExpression)
      : undefined;
  if (options && !literal) return manual('the transport options are not written as an object literal');
  const properties = literal?.getProperties() ?? [];
  const names = properties.map(p =>
    Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) || Node.isMethodDeclaration(p) ? p.getName() : '...',
  );
  const generator = literal?.getProperty('sessionIdGenerator');
  const stateless =
    options === undefined ||
    (generator !== undefined && Node.isPropertyAssignment(generator) && generator.getInitializer()?.getText() === 'undefined');
  // Host and origin checks would not guard the 2026-07-28 path; in a stateless entry nothing else may be dropped either.
  const guards = names.filter(n => /^(enableDnsRebindingProtection|allowedHosts|allowedOrigins)$/.test(n));
  if (guards.length > 0) {
    return manual(
      `the transport checks hosts or origins (${guards.join(', ')}), which createMcpHandler leaves to the caller: put hostHeaderValidation / originValidation from @modelcontextprotocol/node in front of the handler`,
    );
  }
  const dropped = names.filter(n => n !== 'sessionIdGenerator');
  if (stateless && dropped.length > 0)
    return manual(`the stateless transport is made with ${dropped.join(', ')}, which createMcpHandler does not take`);

  const transportId = transportIdentifier(transport);
  if (!transportId) return manual('the transport is not held in a variable');
  const connects = callsOn(fn, 'connect').filter(c => sameSymbol(c.getArguments()[0], transportId));
  if (connects.length !== 1) return manual('the transport is not connected to a server exactly once in the request handler');
  const connect = connects[0]!;
  const serverExpr = unwrap(connect.getExpression().asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression());
  const factory = factoryOf(serverExpr, fn);
  if (typeof factory === 'string') return manual(factory);
  const served: Served = { transport, fn, body, declareBefore, factory, transportId, connect, manual, fresh };
  return stateless ? statelessEntry(served) : sessionfulEntry(served);
}

/** What a request handler making a transport was found to hold, for the entry of either mode. */
interface Served {
  transport: NewExpression;
  fn: Fn;
  body: import('ts-morph').Block;
  declareBefore: Statement;
  factory: Factory;
  transportId: import('ts-morph').Identifier;
  connect: import('ts-morph').CallExpression;
  manual: (why: string) => HttpEntry;
  fresh: (base: string) => string;
}

/** A stateless transport: the handler is called in place of the server, the transport and their statements. */
function statelessEntry({ transport, fn, declareBefore, factory, transportId, connect, manual, fresh }: Served): HttpEntry {
  const handles = callsOn(fn, 'handleRequest').filter(c =>
    sameSymbol(c.getExpression().asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression(), transportId),
  );
  if (handles.length !== 1) return manual('the stateless transport does not serve exactly one handleRequest call');
  const handle = handles[0]!;
  const declaration = singleDeclarationStatement(transport);
  const block = declaration?.getParent();
  const handleStatement = awaitedStatement(handle);
  const connectStatement = awaitedStatement(connect);
  if (
    !declaration ||
    !Node.isBlock(block) ||
    !handleStatement ||
    !connectStatement ||
    handleStatement.getParent() !== block ||
    connectStatement.getParent() !== block
  ) {
    return manual('the transport is not made, connected and used by statements of one block');
  }
  const remove = [declaration, connectStatement];
  if (factory.declaration) {
    if (factory.declaration.getParent() !== block) return manual('the server is not built in the block that serves the request');
    remove.push(factory.declaration);
  }
  for (const st of block.getStatements()) if (isCloseOnFinish(st, transportId, factory.variable)) remove.push(st);
  const handled = new Set<Node>([...remove, handleStatement]);
  for (const id of [transportId, factory.variable].filter(i => i !== undefined)) {
    const stray = references(id).find(r => !r.getAncestors().some(a => handled.has(a)));
    if (stray) return manual(`${id.getText()} is used beyond building, connecting and serving it (line ${stray.getStartLineNumber()})`);
  }
  return {
    plan: {
      mode: 'stateless',
      name: fresh('mcpHandler'),
      factoryText: factory.text,
      declareBefore: declareBefore.getStart(),
      argsText: handle.getArguments().map(a => a.getText()),
      replace: rangeOf(handleStatement),
      remove: remove.map(rangeOf),
    },
    reason: `served by toNodeHandler(createMcpHandler(() => ${factory.text})): 2026-07-28 requests per request, 2025-era requests statelessly, as before (a tool that asks a 2025-era client for input is refused there, as the 1.x stateless server refused it: a per-request server has no way back for a server-initiated request)`,
  };
}

/** A sessionful transport: 2026-07-28 requests are routed to the handler before the session is looked up. */
function sessionfulEntry({ transport, fn, body, declareBefore, factory, manual, fresh }: Served): HttpEntry {
  const routeBefore = body
    .getStatements()
    .find(st => descendantsOfKind(st, SyntaxKind.StringLiteral).some(s => /^mcp-session-id$/i.test(s.getLiteralValue())));
  if (!routeBefore)
    return manual('a sessionful transport is made for each request without looking the session up by its mcp-session-id header');
  if (transport.getStart() < routeBefore.getStart()) return manual('the transport is made before the session is looked up');
  const handles = callsOn(fn, 'handleRequest');
  const args = handles.map(h => h.getArguments().map(a => a.getText()));
  const first = args[0];
  if (!first || args.some(a => a.join('\0') !== first.join('\0')))
    return manual('the handleRequest calls of the request handler do not all take the same arguments');
  if (first.length < 3) {
    return manual(
      'handleRequest reads the request body from the stream, which routing in front of it would consume: parse the body once and pass it to handleRequest',
    );
  }
  const parsedBody = handles[0]!.getArguments()[2]!;
  const lateLocal = descendantsOfKind(parsedBody, SyntaxKind.Identifier)
    .concat(Node.isIdentifier(parsedBody) ? [parsedBody] : [])
    .find(id => {
      const decl = id.getSymbol()?.getDeclarations()[0];
      return (
        decl !== undefined &&
        decl.getFirstAncestor(a => a === fn) !== undefined &&
        !Node.isParameterDeclaration(decl) &&
        decl.getStart() >= routeBefore.getStart()
      );
    });
  if (lateLocal) return manual(`the parsed body (${lateLocal.getText()}) is read after the session is looked up`);
  return {
    plan: {
      mode: 'sessionful',
      name: fresh('mcpHandler'),
      factoryText: factory.text,
      declareBefore: declareBefore.getStart(),
      argsText: first,
      routeBefore: routeBefore.getStart(),
    },
    reason: `2026-07-28 requests are routed (isLegacyRequest) to toNodeHandler(createMcpHandler(() => ${factory.text}, { legacy: 'reject' })); 2025-era requests keep this sessionful wiring, where the SDK's legacy shim sends the handlers' input requests over the session`,
  };
}

/** A fresh-name allocator over every identifier of the file. */
export function entryNames(sf: SourceFile): (base: string) => string {
  return nameAllocator(identifierTexts(sf));
}

/** The statement, outside `fn`, that holds it: where a value made once for every request is declared. */
function statementOutside(fn: Fn): Statement | undefined {
  for (let n: Node | undefined = fn; n; n = n.getParent()) {
    const parent = n.getParent();
    if (
      n !== fn &&
      Node.isStatement(n) &&
      parent &&
      (Node.isBlock(parent) || Node.isSourceFile(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent))
    )
      return n;
    if (n === fn && Node.isFunctionDeclaration(fn) && parent && (Node.isBlock(parent) || Node.isSourceFile(parent))) return fn;
  }
  return undefined;
}

function transportIdentifier(transport: NewExpression): import('ts-morph').Identifier | undefined {
  const parent = transport.getParent();
  if (Node.isVariableDeclaration(parent) && Node.isIdentifier(parent.getNameNode()))
    return parent.getNameNode() as import('ts-morph').Identifier;
  if (
    Node.isBinaryExpression(parent) &&
    parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken &&
    Node.isIdentifier(parent.getLeft())
  )
    return parent.getLeft() as import('ts-morph').Identifier;
  return undefined;
}

function callsOn(fn: Fn, method: string): CallExpression[] {
  return descendantsOfKind(fn, SyntaxKind.CallExpression).filter(c => {
    const callee = c.getExpression();
    return Node.isPropertyAccessExpression(callee) && callee.getName() === method;
  });
}

function sameSymbol(node: Node | undefined, id: import('ts-morph').Identifier): boolean {
  if (!node) return false;
  const n = unwrap(node);
  return Node.isIdentifier(n) && n.getSymbol() !== undefined && n.getSymbol() === id.getSymbol();
}

function references(id: import('ts-morph').Identifier): Node[] {
  const symbol = id.getSymbol();
  return descendantsOfKind(id.getSourceFile(), SyntaxKind.Identifier).filter(
    i => i !== id && i.getSymbol() === symbol && !Node.isVariableDeclaration(i.getParent()),
  );
}

/** `const t = new X(...);` alone in its statement. */
function singleDeclarationStatement(transport: NewExpression): Statement | undefined {
  const decl = transport.getParent();
  if (!Node.isVariableDeclaration(decl)) return undefined;
  const statement = decl.getVariableStatement();
  return statement && statement.getDeclarations().length === 1 ? statement : undefined;
}

/** The `await call;` expression statement that is exactly this call. */
function awaitedStatement(call: CallExpression): Statement | undefined {
  const parent = call.getParent();
  const expr = Node.isAwaitExpression(parent) ? parent : call;
  const statement = expr.getParent();
  return Node.isExpressionStatement(statement) ? statement : undefined;
}

/**
 * The expression a server is built with, when it can become a factory declared outside the
 * request handler: a call or `new` that reads nothing of the request. `declaration` is its
 * `const server = ...;` inside the handler, `variable` that name.
 */
/** The server a handler connects, as the factory createMcpHandler is given: its text, and where it is built. */
type Factory = { text: string; declaration?: Statement; variable?: import('ts-morph').Identifier };

function factoryOf(serverExpr: Node, fn: Fn): Factory | string {
  let expr: Node = serverExpr;
  let declaration: Statement | undefined;
  let variable: import('ts-morph').Identifier | undefined;
  if (Node.isIdentifier(serverExpr)) {
    const decl = serverExpr.getSymbol()?.getDeclarations()[0];
    if (!decl || !Node.isVariableDeclaration(decl) || !decl.getInitializer())
      return `the server ${serverExpr.getText()} is not built by a declaration`;
    if (!decl.getFirstAncestor(a => a === fn)) {
      return `one server (${serverExpr.getText()}) is connected for every request; createMcpHandler builds a fresh one per request from a factory`;
    }
    const statement = decl.getVariableStatement();
    if (!statement || statement.getDeclarations().length !== 1)
      return `the server ${serverExpr.getText()} is declared together with other variables`;
    expr = unwrap(decl.getInitializer()!);
    declaration = statement;
    variable = decl.getNameNode() as import('ts-morph').Identifier;
  }
  // `await buildServer()`: the factory may return a promise.
  const built = expr;
  if (Node.isAwaitExpression(expr)) expr = unwrap(expr.getExpression());
  if (!Node.isCallExpression(expr) && !Node.isNewExpression(expr))
    return `the server is not built by a call (${expr.getText().slice(0, 40)})`;
  if (!serverKindOf(built)) return 'the expression the server is built with is not known to make an SDK server';
  if (Node.isNewExpression(expr)) {
    // A server built inline and then set up inside the handler: its registrations would not follow it.
    if (
      variable &&
      references(variable).some(
        r =>
          !Node.isPropertyAccessExpression(r.getParent()) ||
          !/^(connect|close)$/.test((r.getParent() as import('ts-morph').PropertyAccessExpression).getName()),
      )
    ) {
      return `the server "${variable.getText()}" is set up inside the request handler (a factory would lose what is registered there); build and set it up in a function`;
    }
  }
  const local = [expr, ...expr.getDescendants()].find(n => {
    if (Node.isThisExpression(n)) return true;
    if (!Node.isIdentifier(n)) return false;
    return (n.getSymbol()?.getDeclarations() ?? []).some(d => d.getFirstAncestor(a => a === fn) !== undefined);
  });
  if (local)
    return `the server is built from ${local.getText()}, a value of the request handler (a factory is declared outside it; it gets the request as ctx.requestInfo, a web Request)`;
  return { text: expr.getText(), declaration, variable };
}

/** `res.on('close', () => { transport.close(); server.close(); })`: nothing left to close once the entry owns them. */
function isCloseOnFinish(
  st: Statement,
  transport: import('ts-morph').Identifier,
  server: import('ts-morph').Identifier | undefined,
): boolean {
  if (!Node.isExpressionStatement(st)) return false;
  const call = st.getExpression();
  if (!Node.isCallExpression(call)) return false;
  const callee = call.getExpression();
  const [event, callback] = call.getArguments();
  if (
    !Node.isPropertyAccessExpression(callee) ||
    !/^(on|once)$/.test(callee.getName()) ||
    !event ||
    !Node.isStringLiteral(event) ||
    event.getLiteralValue() !== 'close'
  )
    return false;
  if (!callback || !(Node.isArrowFunction(callback) || Node.isFunctionExpression(callback))) return false;
  const cbBody = callback.getBody();
  const statements = Node.isBlock(cbBody) ? cbBody.getStatements() : [cbBody];
  return statements.every(s => {
    let e: Node = Node.isExpressionStatement(s) ? s.getExpression() : s;
    if (Node.isVoidExpression(e) || Node.isAwaitExpression(e)) e = e.getExpression();
    if (!Node.isCallExpression(e)) return false;
    const target = e.getExpression();
    if (!Node.isPropertyAccessExpression(target)) return false;
    if (target.getName() === 'close')
      return sameSymbol(target.getExpression(), transport) || (server !== undefined && sameSymbol(target.getExpression(), server));
    return target.getExpression().getText() === 'console';
  });
}
