/**
 * Stdio serving entries: `server.connect(stdio transport)`, which a 2.x server must replace with
 * `serveStdio(() => server)` to answer a 2026-07-28 client at all (connected by hand, it serves
 * 2025-era clients only).
 *
 * serveStdio returns a handle at once and connects the server only when the client's first message
 * arrives, so two shapes cannot move mechanically and are marked instead: code that uses the server
 * right after `connect` (a notification, a log message: "Not connected" under serveStdio), and a
 * `connect()` promise the code goes on using (`.then(...)`, returned, stored). A `.catch(handler)` on
 * it becomes serveStdio's `onerror`: where errors of the connection are reported.
 */
import { Node, SyntaxKind, type CallExpression, type NewExpression, type SourceFile, type VariableDeclaration } from 'ts-morph';
import type { StdioEntryPlan } from '../plan.js';
import { mcpImportOf, serverKindOf, unwrap } from './mcpSymbols.js';
import { identifierTexts, nameAllocator } from './names.js';

export type StdioEntry = { plan: StdioEntryPlan } | { marked: CallExpression; reason: string; cause: string };

/** Methods of a server that work on a server not yet connected (registering, closing). */
const BEFORE_CONNECTION = /^(registerTool|registerPrompt|registerResource|tool|prompt|resource|setRequestHandler|setNotificationHandler|removeRequestHandler|close|isConnected|onclose|onerror|oninitialized)$/;

export function stdioEntries(sf: SourceFile, v2ServerModule: string): StdioEntry[] {
  const entries: StdioEntry[] = [];
  // A file still on SDK 1.x (run with --no-upgrade) has no serveStdio to move to.
  if (!sf.getImportDeclarations().some(d => d.getModuleSpecifierValue().startsWith(v2ServerModule))) return entries;
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'connect') continue;
    const [arg] = call.getArguments();
    if (!arg) continue;
    const server = callee.getExpression();
    const decl = Node.isIdentifier(arg) ? arg.getSymbol()?.getDeclarations()[0] : undefined;
    const initializer = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
    const stdio = makesStdioTransport(initializer ?? arg) || /\bStdioServerTransport\b/.test(arg.getType().getText());
    if (!stdio || !serverKindOf(server)) continue;
    entries.push(entryOf(call, arg, decl));
  }
  return entries;
}

function entryOf(call: CallExpression, arg: Node, decl: Node | undefined): StdioEntry {
  const server = call.getExpression().asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression();
  const serve = `serveStdio(() => ${evaluates(server) ? 'server' : server.getText()})`;
  const mark = (why: string, fix: string, cause: string): StdioEntry => ({
    marked: call,
    cause,
    reason: `${call.getText().split('\n')[0]} stays, serving 2025-era clients only: ${why}; ${fix}, then replace it with ${serve} from @modelcontextprotocol/server/stdio, the entry a 2026-07-28 client can reach`,
  });
  const promise = promiseUse(call);
  if (promise.kind === 'used') {
    return mark(`the promise connect() returns is used (${promise.text}), and serveStdio returns no promise`, 'move what waits for it to after the call', 'stdio connect() promise used: serveStdio returns no promise');
  }
  const later = useAfterConnect(call, server);
  if (later) {
    const use = later.getText().replace(/\s+/g, ' ').replace(/\(.*\)$/s, '(...)');
    return mark(`the server is used once connected (${use}), which under serveStdio fails "Not connected" until the client's first message`, 'move that use into a handler or drop it', 'stdio server used right after connect(): not connected yet under serveStdio');
  }
  const range = promise.kind === 'caught' ? promise.range : { start: call.getStart(), end: call.getEnd() };
  const made = madeServer(call, server);
  if (made === 'unplaceable') {
    return mark(`the server is made in the statement that connects it (${server.getText().replace(/\s+/g, ' ')}), and serveStdio calls its factory at the client's first message, maybe more than once`, `declare it first (const server = ${server.getText().replace(/\s+/g, ' ')};) in a block of its own`, 'stdio server made where it is connected: serveStdio calls its factory later, maybe more than once');
  }
  const plan: StdioEntryPlan = { call: range, serverText: made?.name ?? server.getText(), ...(made ? { declareServer: made.declaration } : {}), ...(promise.kind === 'caught' ? { onerrorText: promise.handler } : {}) };
  if (isFreshStdioTransport(arg)) return { plan };
  const statement = initializer(decl) && isFreshStdioTransport(initializer(decl)) ? (decl as VariableDeclaration).getVariableStatement() : undefined;
  const onlyHere = () => call.getSourceFile().getDescendantsOfKind(SyntaxKind.Identifier).filter(id => id !== (decl as VariableDeclaration).getNameNode() && id.getSymbol() === arg.getSymbol()).length === 1;
  if (statement && statement.getDeclarations().length === 1 && onlyHere()) return { plan: { ...plan, removeDeclaration: { start: statement.getStart(), end: statement.getEnd() } } };
  return { plan: { ...plan, transportText: arg.getText() } };
}

/**
 * A server the connecting statement makes (`createServer().connect(t)`, `new McpServer(...).connect(t)`,
 * `(await build()).connect(t)`): moved into serveStdio's factory it would be made at the client's first message,
 * maybe twice, its startup work and errors with it; so it is declared before that statement, under a fresh name.
 * `unplaceable` when the statement is not in a block (a braceless `if` body, say). Undefined for a name or a
 * chain of member reads, which the factory reads as it was.
 */
function madeServer(call: CallExpression, server: Node): { name: string; declaration: { text: string; before: number } } | 'unplaceable' | undefined {
  if (!evaluates(server)) return undefined;
  const statement = call.getFirstAncestor(Node.isExpressionStatement);
  const block = statement?.getParent();
  if (!statement || !block || !(Node.isBlock(block) || Node.isSourceFile(block) || Node.isCaseClause(block) || Node.isDefaultClause(block))) return 'unplaceable';
  const name = nameAllocator(identifierTexts(call.getSourceFile()))('server');
  return { name, declaration: { text: `const ${name} = ${server.getText()};`, before: statement.getStart() } };
}

/** Whether the server expression makes something when it runs (a call, a `new`, an await), rather than naming a server. */
function evaluates(server: Node): boolean {
  const makes = (n: Node) => Node.isCallExpression(n) || Node.isNewExpression(n) || Node.isAwaitExpression(n) || Node.isTaggedTemplateExpression(n);
  return makes(unwrap(server)) || server.getDescendants().some(makes);
}

function initializer(decl: Node | undefined): Node | undefined {
  return decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
}

const isStdioClass = (n: Node) => Node.isNewExpression(n) && mcpImportOf(n.getExpression())?.exportName === 'StdioServerTransport';
const isFreshStdioTransport = (n: Node | undefined): boolean => n !== undefined && isStdioClass(n) && (n as NewExpression).getArguments().length === 0;
const makesStdioTransport = (n: Node | undefined): boolean => n !== undefined && (isStdioClass(n) || n.getDescendants().some(isStdioClass));

type PromiseUse = { kind: 'none' } | { kind: 'caught'; range: { start: number; end: number }; handler: string } | { kind: 'used'; text: string };

/** What the code does with the promise `connect()` returns: nothing (awaited as a statement, or dropped), a `.catch(handler)` statement, or more. */
function promiseUse(call: CallExpression): PromiseUse {
  let outer: Node = call;
  for (let p = outer.getParent(); p && Node.isParenthesizedExpression(p); p = p.getParent()) outer = p;
  const parent = outer.getParent();
  const statementLike = (n: Node | undefined) => n !== undefined && (Node.isExpressionStatement(n) || Node.isVoidExpression(n));
  if (statementLike(parent) || (parent && Node.isAwaitExpression(parent) && statementLike(parent.getParent()))) return { kind: 'none' };
  if (parent && Node.isPropertyAccessExpression(parent) && parent.getName() === 'catch') {
    const catchCall = parent.getParent();
    const [handler] = catchCall && Node.isCallExpression(catchCall) ? catchCall.getArguments() : [];
    const after = catchCall?.getParent();
    const dropped = statementLike(after) || (after && Node.isAwaitExpression(after) && statementLike(after.getParent()));
    if (handler && dropped && catchCall) return { kind: 'caught', range: { start: catchCall.getStart(), end: catchCall.getEnd() }, handler: handler.getText() };
  }
  return { kind: 'used', text: (parent ?? outer).getText().replace(/\s+/g, ' ').slice(0, 60) };
}

/**
 * The first call needing a connected server that runs right after `connect` (later statements of the
 * same function, not callbacks made there, which run once a client is connected): `server.server.notification(...)`.
 */
function useAfterConnect(call: CallExpression, server: Node): Node | undefined {
  const sameServer = serverMatcher(server);
  const inBlock = (a: Node) => { const up = a.getParent(); return Node.isStatement(a) && up !== undefined && (Node.isBlock(up) || Node.isSourceFile(up) || Node.isCaseClause(up) || Node.isDefaultClause(up)); };
  for (let from = call.getFirstAncestor(inBlock); from; from = from.getParent()?.getFirstAncestor(inBlock)) {
    for (let next = from.getNextSibling(); next; next = next.getNextSibling()) {
      const use = next.getDescendantsOfKind(SyntaxKind.CallExpression).find(c => !insideFunction(c, next) && needsConnection(c, sameServer));
      if (use) return use;
    }
    // The function's own statements only: what its caller does next is out of sight.
    const block = from.getParent();
    if (block && isFunction(block.getParent())) break;
  }
  return undefined;
}

function isFunction(n: Node | undefined): boolean {
  return n !== undefined && (Node.isArrowFunction(n) || Node.isFunctionExpression(n) || Node.isFunctionDeclaration(n) || Node.isMethodDeclaration(n) || Node.isConstructorDeclaration(n) || Node.isGetAccessorDeclaration(n));
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
