/**
 * Stdio serving entries: `server.connect(stdio transport)`, which a 2.x server must replace with
 * `serveStdio(() => server)` to answer a 2026-07-28 client at all (connected by hand, it serves
 * 2025-era clients only).
 *
 * The transport is known by what it is (src/analysis/transportKind.ts): the SDK's StdioServerTransport
 * under any name, or a class of the project's that wraps one, which serveStdio is handed as its
 * `transport`. A server connected by hand through a transport of no kind this can tell (passed in as
 * `Transport`, a class of a package) is marked: it too serves 2025-era clients only.
 *
 * serveStdio returns a handle at once and connects the server only when the client's first message
 * arrives, so two shapes cannot move mechanically and are marked instead: code that uses the server
 * right after `connect` (a notification, a log message: "Not connected" under serveStdio), and a
 * `connect()` promise the code goes on using (returned, stored, awaited in an expression). A
 * `.catch(handler)` on it becomes serveStdio's `onerror`: where errors of the connection are reported;
 * a `.then(callback)` statement (`.then(() => console.error('ready'))`) runs the callback's body right
 * after serveStdio, which is when the transport is listening.
 */
import { UNKNOWN_TRANSPORT_CAUSE, type FoundCause } from '../tables/causes.js';
import {
  Node,
  SyntaxKind,
  type ArrowFunction,
  type CallExpression,
  type FunctionExpression,
  type NewExpression,
  type SourceFile,
  type VariableDeclaration,
} from 'ts-morph';
import { rangeOf, type Range, type StdioEntryPlan } from '../plan.js';
import { mcpImportOf, serverKindOf, unwrap } from './mcpSymbols.js';
import { identifierTexts, identifiersNamed, nameAllocator } from './names.js';
import { transportOf } from './transportKind.js';
import { descendantsOfKind } from './descendants.js';

export type StdioEntry = { plan: StdioEntryPlan } | { marked: CallExpression; reason: string; cause: FoundCause };

/** Methods of a server that work on a server not yet connected (registering, closing). */
const BEFORE_CONNECTION =
  /^(registerTool|registerPrompt|registerResource|tool|prompt|resource|setRequestHandler|setNotificationHandler|removeRequestHandler|close|isConnected|onclose|onerror|oninitialized)$/;

export { UNKNOWN_TRANSPORT_CAUSE };

export function stdioEntries(sf: SourceFile, v2ServerModule: string): StdioEntry[] {
  const entries: StdioEntry[] = [];
  // A file still on SDK 1.x (run with --no-upgrade) has no serveStdio to move to.
  if (!importsModule(sf, v2ServerModule)) return entries;
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'connect') continue;
    const [arg] = call.getArguments();
    if (!arg || !serverKindOf(callee.getExpression())) continue;
    const transport = transportOf(arg);
    const decl = Node.isIdentifier(arg) ? arg.getSymbol()?.getDeclarations()[0] : undefined;
    // A wrapper made around a fresh one (`new Logged(new StdioServerTransport())`) is stdio too.
    if (transport.kind === 'stdio' || makesStdioTransport(initializer(decl) ?? arg)) {
      entries.push(entryOf(call, arg, decl));
    } else if (transport.kind === undefined) {
      entries.push(unknownTransport(call, arg));
    }
    // HTTP and HTTP+SSE entries are found where their transport is made (src/analysis/httpEntry.ts); an in-memory pair serves a client of the process's own.
  }
  return entries;
}

/**
 * Whether the file imports (or `require`s) a module of `prefix`: `@modelcontextprotocol/server` and its
 * subpaths. CommonJS files (`.cjs`, `.cts`, `.js` without imports) have only requires.
 */
export function importsModule(sf: SourceFile, prefix: string): boolean {
  const matches = (specifier: string) => specifier === prefix || specifier.startsWith(`${prefix}/`);
  if (sf.getImportDeclarations().some(d => matches(d.getModuleSpecifierValue()))) return true;
  if (!sf.getFullText().includes('require')) return false;
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const [first] = call.getArguments();
    if (call.getExpression().getText() === 'require' && first && Node.isStringLiteral(first) && matches(first.getLiteralValue()))
      return true;
  }
  return descendantsOfKind(sf, SyntaxKind.ImportEqualsDeclaration).some(d => {
    const ref = d.getModuleReference();
    return Node.isExternalModuleReference(ref) && matches(ref.getExpression()?.getText().slice(1, -1) ?? '');
  });
}

/** A server connected by hand through a transport whose kind cannot be told: it serves 2025-era clients only, whatever the transport. */
function unknownTransport(call: CallExpression, arg: Node): StdioEntry {
  const server = call.getExpression().asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression().getText();
  const through = describeTransport(arg);
  return {
    marked: call,
    cause: UNKNOWN_TRANSPORT_CAUSE,
    reason: `${call.getText().split('\n')[0]} connects the server by hand through ${through}, which mcp-migrate cannot tell the kind of: connected by hand, a 2.x server serves 2025-era clients only; over stdio serve it with serveStdio(() => ${server}, { transport: ${arg.getText()} }) from @modelcontextprotocol/server/stdio, over HTTP with createMcpHandler(() => ${server}) from @modelcontextprotocol/server`,
  };
}

/** `a transport of type X` / `arg`, for a marker's reason. */
function describeTransport(arg: Node): string {
  let typeText: string | undefined;
  try {
    typeText = arg.getType().getNonNullableType().getSymbol()?.getName();
  } catch {
    typeText = undefined;
  }
  const text = arg.getText().replace(/\s+/g, ' ');
  return typeText && typeText !== '__type' && typeText !== text ? `${text} (a ${typeText})` : text;
}

function entryOf(call: CallExpression, arg: Node, decl: Node | undefined): StdioEntry {
  const server = call.getExpression().asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression();
  const serve = `serveStdio(() => ${evaluates(server) ? 'server' : server.getText()})`;
  const mark = (why: string, fix: string, cause: FoundCause): StdioEntry => ({
    marked: call,
    cause,
    reason: `${call.getText().split('\n')[0]} stays, serving 2025-era clients only: ${why}; ${fix}, then replace it with ${serve} from @modelcontextprotocol/server/stdio, the entry a 2026-07-28 client can reach`,
  });
  const promise = promiseUse(call);
  if (promise.kind === 'used') {
    return mark(
      `the promise connect() returns is used (${promise.text}), and serveStdio returns no promise`,
      'move what waits for it to after the call',
      { id: 'stdio-connect-promise-used', text: 'stdio connect() promise used: serveStdio returns no promise' },
    );
  }
  const later = useAfterConnect(call, server);
  if (later) {
    const use = later
      .getText()
      .replace(/\s+/g, ' ')
      .replace(/\(.*\)$/s, '(...)');
    return mark(
      `the server is used once connected (${use}), which under serveStdio fails "Not connected" until the client's first message`,
      'move that use into a handler or drop it',
      { id: 'stdio-used-after-connect', text: 'stdio server used right after connect(): not connected yet under serveStdio' },
    );
  }
  if (promise.kind === 'then') {
    const use = descendantsOfKind(promise.callback, SyntaxKind.CallExpression).find(
      c => !insideFunction(c, promise.callback) && needsConnection(c, serverMatcher(server)),
    );
    if (use)
      return mark(
        `the server is used once connected, in the .then callback (${use
          .getText()
          .replace(/\s+/g, ' ')
          .replace(/\(.*\)$/s, '(...)')}), which under serveStdio fails "Not connected" until the client's first message`,
        'move that use into a handler or drop it',
        { id: 'stdio-used-after-connect', text: 'stdio server used right after connect(): not connected yet under serveStdio' },
      );
  }
  const range = promise.kind === 'caught' || promise.kind === 'then' ? promise.range : { start: call.getStart(), end: call.getEnd() };
  const made = madeServer(call, server);
  if (made === 'unplaceable') {
    return mark(
      `the server is made in the statement that connects it (${server.getText().replace(/\s+/g, ' ')}), and serveStdio calls its factory at the client's first message, maybe more than once`,
      `declare it first (const server = ${server.getText().replace(/\s+/g, ' ')};) in a block of its own`,
      {
        id: 'stdio-server-made-at-connect',
        text: 'stdio server made where it is connected: serveStdio calls its factory later, maybe more than once',
      },
    );
  }
  const plan: StdioEntryPlan = {
    call: range,
    serverText: made?.name ?? server.getText(),
    ...(made ? { declareServer: made.declaration } : {}),
    ...(promise.kind !== 'none' && promise.handler ? { onerrorText: promise.handler } : {}),
    ...(promise.kind === 'then' ? { thenText: promise.body } : {}),
  };
  if (isFreshStdioTransport(arg)) return { plan };
  const statement =
    initializer(decl) && isFreshStdioTransport(initializer(decl)) ? (decl as VariableDeclaration).getVariableStatement() : undefined;
  const onlyHere = () =>
    descendantsOfKind(call.getSourceFile(), SyntaxKind.Identifier).filter(
      id => id !== (decl as VariableDeclaration).getNameNode() && id.getSymbol() === arg.getSymbol(),
    ).length === 1;
  if (statement && statement.getDeclarations().length === 1 && onlyHere())
    return { plan: { ...plan, removeDeclaration: { start: statement.getStart(), end: statement.getEnd() } } };
  return { plan: { ...plan, transportText: arg.getText() } };
}

/**
 * A server the connecting statement makes (`createServer().connect(t)`, `new McpServer(...).connect(t)`,
 * `(await build()).connect(t)`): moved into serveStdio's factory it would be made at the client's first message,
 * maybe twice, its startup work and errors with it; so it is declared before that statement, under a fresh name.
 * `unplaceable` when the statement is not in a block (a braceless `if` body, say). Undefined for a name or a
 * chain of member reads, which the factory reads as it was.
 */
function madeServer(
  call: CallExpression,
  server: Node,
): { name: string; declaration: { text: string; before: number } } | 'unplaceable' | undefined {
  if (!evaluates(server)) return undefined;
  const statement = call.getFirstAncestor(Node.isExpressionStatement);
  const block = statement?.getParent();
  if (!statement || !block || !(Node.isBlock(block) || Node.isSourceFile(block) || Node.isCaseClause(block) || Node.isDefaultClause(block)))
    return 'unplaceable';
  const name = freeIn(block, 'server') ? 'server' : nameAllocator(identifierTexts(call.getSourceFile()))('server');
  return { name, declaration: { text: `const ${name} = ${server.getText()};`, before: statement.getStart() } };
}

/**
 * Whether a `const name` declared in `block` changes what no code means: each `name` written under it is a property's
 * name or stands for a declaration of a function (or class) inside it (`createServer()`'s own `server`), which
 * shadows the new one. A name declared in the block itself, or read there from outside it, is taken.
 */
function freeIn(block: Node, name: string): boolean {
  return identifiersNamed(block, new Set([name])).every(id => {
    if (propertyName(id)) return true;
    const declarations = id.getSymbol()?.getDeclarations() ?? [];
    return (
      declarations.length > 0 &&
      declarations.every(d => {
        const scope = d.getFirstAncestor(a => isFunctionLikeNode(a) || Node.isClassLikeDeclarationBase(a));
        return scope !== undefined && scope !== block && block.getStart() <= scope.getStart() && scope.getEnd() <= block.getEnd();
      })
    );
  });
}

function isFunctionLikeNode(n: Node): boolean {
  return Node.isFunctionLikeDeclaration(n) || Node.isArrowFunction(n) || Node.isFunctionExpression(n);
}

/** `server` of `this.server`, `{ server: x }`, `server: Server` in a type or class: a property's name, not a variable. */
function propertyName(id: Node): boolean {
  const parent = id.getParent();
  if (!parent) return false;
  if (Node.isPropertyAccessExpression(parent)) return parent.getNameNode() === id;
  return (
    (Node.isPropertyAssignment(parent) ||
      Node.isPropertySignature(parent) ||
      Node.isPropertyDeclaration(parent) ||
      Node.isMethodDeclaration(parent) ||
      Node.isMethodSignature(parent)) &&
    parent.getNameNode() === id
  );
}

/** Whether the server expression makes something when it runs (a call, a `new`, an await), rather than naming a server. */
function evaluates(server: Node): boolean {
  const makes = (n: Node) =>
    Node.isCallExpression(n) || Node.isNewExpression(n) || Node.isAwaitExpression(n) || Node.isTaggedTemplateExpression(n);
  return makes(unwrap(server)) || server.getDescendants().some(makes);
}

function initializer(decl: Node | undefined): Node | undefined {
  return decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
}

const isStdioClass = (n: Node) => Node.isNewExpression(n) && mcpImportOf(n.getExpression())?.exportName === 'StdioServerTransport';
const isFreshStdioTransport = (n: Node | undefined): boolean =>
  n !== undefined && isStdioClass(n) && (n as NewExpression).getArguments().length === 0;
const makesStdioTransport = (n: Node | undefined): boolean => n !== undefined && (isStdioClass(n) || n.getDescendants().some(isStdioClass));

type PromiseUse =
  | { kind: 'none' }
  | { kind: 'caught'; range: Range; handler: string }
  | { kind: 'then'; range: Range; callback: ArrowFunction | FunctionExpression; body: string; handler?: string }
  | { kind: 'used'; text: string };

const statementLike = (n: Node | undefined) => n !== undefined && (Node.isExpressionStatement(n) || Node.isVoidExpression(n));
/** A value the code drops: a statement of its own, `void`ed, or awaited as one. */
const dropped = (value: Node | undefined) => {
  const after = value?.getParent();
  return statementLike(after) || (after !== undefined && Node.isAwaitExpression(after) && statementLike(after.getParent()));
};

/**
 * What the code does with the promise `connect()` returns: nothing (awaited as a statement, or dropped), a
 * `.catch(handler)` statement, a `.then(callback)` statement (its rejection handler or a `.catch` after it
 * included), or more.
 */
function promiseUse(call: CallExpression): PromiseUse {
  let outer: Node = call;
  for (let p = outer.getParent(); p && Node.isParenthesizedExpression(p); p = p.getParent()) outer = p;
  const parent = outer.getParent();
  if (dropped(outer)) return { kind: 'none' };
  const chained = (name: string) =>
    parent && Node.isPropertyAccessExpression(parent) && parent.getName() === name
      ? parent.getParentIfKind(SyntaxKind.CallExpression)
      : undefined;
  const catchCall = chained('catch');
  const [handler] = catchCall?.getArguments() ?? [];
  if (catchCall && handler && dropped(catchCall)) return { kind: 'caught', range: rangeOf(catchCall), handler: handler.getText() };
  const thenCall = chained('then');
  const then = thenCall && thenStatement(thenCall);
  if (then) return then;
  return { kind: 'used', text: (parent ?? outer).getText().replace(/\s+/g, ' ').slice(0, 60) };
}

/**
 * `connect(t).then(callback[, onRejected])[.catch(onRejected)]` as a statement: the callback's body can run
 * right after serveStdio (the stdio transport listens as soon as it is made), onRejected becomes its
 * `onerror`. Undefined when the callback's body cannot be moved out of its function as it is (it returns,
 * awaits, reads its parameters, `this` or `arguments`), or the chain goes on.
 */
function thenStatement(thenCall: CallExpression): PromiseUse | undefined {
  const [callback, onRejected, ...more] = thenCall.getArguments();
  if (!callback || more.length > 0) return undefined;
  const afterThen = thenCall.getParentIfKind(SyntaxKind.PropertyAccessExpression);
  const catchCall = !onRejected && afterThen?.getName() === 'catch' ? afterThen.getParentIfKind(SyntaxKind.CallExpression) : undefined;
  const last = catchCall ?? thenCall;
  const handler = onRejected ?? catchCall?.getArguments()[0];
  if (!dropped(last) || (catchCall && catchCall.getArguments().length !== 1)) return undefined;
  const fn = unwrap(callback);
  if (
    !(Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ||
    fn.getParameters().length > 0 ||
    (Node.isFunctionExpression(fn) && fn.isGenerator())
  )
    return undefined;
  const body = movableBody(fn);
  return body === undefined
    ? undefined
    : { kind: 'then', range: rangeOf(last), callback: fn, body, ...(handler ? { handler: handler.getText() } : {}) };
}

/** The callback's body as statements that mean the same outside it, dedented to the callback's own line; undefined when they would not. */
function movableBody(fn: ArrowFunction | FunctionExpression): string | undefined {
  const body = fn.getBody();
  // An arrow function's `this` and `arguments` are those of the code around it, where its body goes.
  const ownBindings = Node.isFunctionExpression(fn);
  const leaves = (n: Node) =>
    Node.isReturnStatement(n) ||
    Node.isAwaitExpression(n) ||
    Node.isYieldExpression(n) ||
    (ownBindings && (Node.isThisExpression(n) || (Node.isIdentifier(n) && n.getText() === 'arguments')));
  if (body.getDescendants().some(n => leaves(n) && !insideFunction(n, fn))) return undefined;
  if (!Node.isBlock(body)) return `${body.getText()};`;
  const statements = body.getStatements();
  if (statements.length === 0) return '';
  const source = fn.getSourceFile().getFullText();
  const indentOf = (at: number) => /^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', at - 1) + 1))![0];
  const lines = source
    .slice(body.getStart() + 1, body.getEnd() - 1)
    .replace(/^[ \t]*\r?\n/, '')
    .trimEnd()
    .split('\n');
  const dedent = (indent: string) => lines.map(line => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart())).join('\n');
  // Its own declarations stay in a block of their own: moved out, they could meet a name of the enclosing scope.
  const declares = statements.some(st => Node.isVariableStatement(st) || Node.isFunctionDeclaration(st) || Node.isClassDeclaration(st));
  return declares ? `{\n${dedent(indentOf(fn.getStart()))}\n}` : dedent(indentOf(statements[0]!.getStart()));
}

/**
 * The first call needing a connected server that runs right after `connect` (later statements of the
 * same function, not callbacks made there, which run once a client is connected): `server.server.notification(...)`.
 */
function useAfterConnect(call: CallExpression, server: Node): Node | undefined {
  const sameServer = serverMatcher(server);
  const inBlock = (a: Node) => {
    const up = a.getParent();
    return (
      Node.isStatement(a) &&
      up !== undefined &&
      (Node.isBlock(up) || Node.isSourceFile(up) || Node.isCaseClause(up) || Node.isDefaultClause(up))
    );
  };
  for (let from = call.getFirstAncestor(inBlock); from; from = from.getParent()?.getFirstAncestor(inBlock)) {
    for (let next = from.getNextSibling(); next; next = next.getNextSibling()) {
      const use = descendantsOfKind(next, SyntaxKind.CallExpression).find(c => !insideFunction(c, next) && needsConnection(c, sameServer));
      if (use) return use;
    }
    // The function's own statements only: what its caller does next is out of sight.
    const block = from.getParent();
    if (block && isFunction(block.getParent())) break;
  }
  return undefined;
}

function isFunction(n: Node | undefined): boolean {
  return (
    n !== undefined &&
    (Node.isArrowFunction(n) ||
      Node.isFunctionExpression(n) ||
      Node.isFunctionDeclaration(n) ||
      Node.isMethodDeclaration(n) ||
      Node.isConstructorDeclaration(n) ||
      Node.isGetAccessorDeclaration(n))
  );
}

function insideFunction(node: Node, within: Node): boolean {
  for (let n = node.getParent(); n && n !== within; n = n.getParent()) if (isFunction(n)) return true;
  return false;
}

/** A method call on the server, or on its low-level `server.server`, other than registering or closing. */
function needsConnection(call: CallExpression, sameServer: (n: Node) => boolean): boolean {
  const callee = unwrap(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || BEFORE_CONNECTION.test(callee.getName())) return false;
  const target = unwrap(callee.getExpression());
  if (sameServer(target)) return true;
  return Node.isPropertyAccessExpression(target) && target.getName() === 'server' && sameServer(unwrap(target.getExpression()));
}

/** Whether an expression names the connected server: the same variable, or the same `this.field` text. */
function serverMatcher(server: Node): (n: Node) => boolean {
  const s = unwrap(server);
  const symbol = Node.isIdentifier(s) ? s.getSymbol() : undefined;
  const text = s.getText();
  return n => (symbol ? Node.isIdentifier(n) && n.getSymbol() === symbol : n.getText() === text);
}
