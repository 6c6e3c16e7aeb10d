/**
 * `const tool = server.tool.bind(server); tool('echo', schema, cb)`: a bound reference to SDK 1.x's
 * `tool()` (or `prompt()`, `resource()`), which SDK 2.x's McpServer no longer has. The official codemod
 * converts `server.tool(...)` calls only, so the bound reference stayed and the server died at startup
 * (`server.tool is undefined`). Run before the codemod and before toolOverloadsRepair, this repair calls
 * the method on its receiver again (`server.tool('echo', schema, cb)`) where that is the same call: a
 * `const` alias, not exported, only ever called, its receiver the same object at every call. Those calls
 * then go through the conversion every other `server.tool(...)` goes through. A bound reference used in
 * any other way is left, marked, and said.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, ts, VariableDeclarationKind, type CallExpression, type SourceFile, type VariableDeclaration } from 'ts-morph';
import { finding, leftover, type Repair } from '../repair.js';
import { receiverIsServer } from './toolOverloads.js';
import { descendantsOfKind } from '../../analysis/descendants.js';
import { thisOwner } from '../../analysis/functions.js';

const METHODS = new Set(['tool', 'prompt', 'resource']);

/** What each 1.x method is registered with in 2.x, for the marker of one left as it is. */
const INSTEAD: Record<string, string> = {
  tool: 'registerTool(name, { description, inputSchema: z.object(shape), annotations }, callback)',
  prompt: 'registerPrompt(name, { description, argsSchema: z.object(shape) }, callback)',
  resource: 'registerResource(name, uriOrTemplate, metadata, callback)',
};

interface Bound {
  /** The `.bind(receiver)` call. */
  bind: CallExpression;
  receiver: Node;
  method: string;
}

/** `receiver.tool.bind(receiver)` (same receiver), or undefined. */
function boundOverload(call: CallExpression): Bound | undefined {
  const callee = call.getExpression();
  const [thisArg, ...rest] = call.getArguments();
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'bind' || !thisArg || rest.length > 0) return undefined;
  const target = callee.getExpression();
  if (!Node.isPropertyAccessExpression(target) || !METHODS.has(target.getName())) return undefined;
  const receiver = target.getExpression();
  if (receiver.getText() !== thisArg.getText() || !isPlainReference(receiver)) return undefined;
  return { bind: call, receiver, method: target.getName() };
}

/** `server`, `this.server`, `app.mcp`: a name or a chain of member reads, nothing evaluated. */
function isPlainReference(n: Node): boolean {
  if (Node.isIdentifier(n) || Node.isThisExpression(n)) return true;
  return Node.isPropertyAccessExpression(n) && isPlainReference(n.getExpression());
}

/** Whether the receiver is an MCP server: named like one, or declared as `new McpServer(...)` or typed McpServer. */
function isServer(receiver: Node): boolean {
  if (receiverIsServer(receiver)) return true;
  const declarations =
    Node.isIdentifier(receiver) || Node.isPropertyAccessExpression(receiver) ? (receiver.getSymbol()?.getDeclarations() ?? []) : [];
  return declarations.some(d =>
    /\bMcpServer\b/.test(
      (Node.isVariableDeclaration(d) || Node.isParameterDeclaration(d) || Node.isPropertyDeclaration(d)
        ? [d.getTypeNode()?.getText(), d.getInitializer()?.getText()]
        : []
      ).join(' '),
    ),
  );
}

/** Whether `receiver`, written at `at`, is the object it is at the bind: the same binding, never assigned again. */
function sameReceiverAt(receiver: Node, at: Node): boolean {
  let root = receiver;
  while (Node.isPropertyAccessExpression(root)) root = root.getExpression();
  const sf = receiver.getSourceFile();
  const text = receiver.getText();
  // Assigned anywhere but in a constructor (where a field gets its server): the object may differ.
  const assigned = descendantsOfKind(sf, SyntaxKind.BinaryExpression).some(
    b =>
      b.getOperatorToken().getKind() === SyntaxKind.EqualsToken &&
      b.getLeft().getText() === text &&
      !b.getFirstAncestorByKind(SyntaxKind.Constructor),
  );
  if (assigned) return false;
  if (Node.isThisExpression(root)) return thisOwner(root) === thisOwner(at);
  const symbol = root.getSymbol()?.compilerSymbol;
  if (!symbol) return false;
  const checker = sf.getProject().getTypeChecker().compilerObject;
  return checker.getSymbolsInScope(at.compilerNode, ts.SymbolFlags.Value).find(s => s.getName() === root.getText()) === symbol;
}

/** The calls of a `const` alias of the bound method, when every use of it is a call the receiver can take again; else undefined. */
function aliasCalls(alias: VariableDeclaration, bound: Bound): CallExpression[] | undefined {
  const statement = alias.getVariableStatement();
  const name = alias.getNameNode();
  if (
    !statement ||
    statement.getDeclarationKind() !== VariableDeclarationKind.Const ||
    statement.isExported() ||
    alias.getTypeNode() ||
    !Node.isIdentifier(name)
  )
    return undefined;
  const calls: CallExpression[] = [];
  for (const reference of name.findReferencesAsNodes()) {
    if (reference === name) continue;
    const call = reference.getParent();
    if (reference.getSourceFile() !== alias.getSourceFile() || !Node.isCallExpression(call) || call.getExpression() !== reference)
      return undefined;
    if (!sameReceiverAt(bound.receiver, call)) return undefined;
    calls.push(call);
  }
  return calls;
}

/** Whether the file imports SDK 1.x's McpServer: the official codemod then converts (or marks) every `.tool(...)` call in it. */
function importsMcpServer(sf: SourceFile): boolean {
  return sf
    .getImportDeclarations()
    .some(
      d =>
        d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/sdk') && d.getNamedImports().some(n => n.getName() === 'McpServer'),
    );
}

export const boundOverloadsRepair: Repair = {
  id: 'bound-overloads',
  name: 'tool(), prompt() and resource() called through a bound reference',
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    const bounds = descendantsOfKind(sf, SyntaxKind.CallExpression)
      .map(boundOverload)
      .filter((b): b is Bound => b !== undefined && isServer(b.receiver));
    // Last first: an edit never moves a bind still to be read.
    for (const bound of bounds.reverse()) {
      const { bind, receiver, method } = bound;
      const line = bind.getStartLineNumber();
      const server = receiver.getText();
      const written = `${server}.${method}`;
      const alias = bind.getParentIfKind(SyntaxKind.VariableDeclaration);
      const calls = alias && alias.getInitializer() === bind && importsMcpServer(sf) ? aliasCalls(alias, bound) : undefined;
      if (!alias || !calls) {
        diagnostics.push(
          leftover(
            bind,
            `${written}.bind(${server}) is a bound reference to SDK 1.x's ${method}(), which SDK 2.x's McpServer does not have: register each call of it with ${server}.${INSTEAD[method]} instead, then remove this marker`,
          ),
        );
        continue;
      }
      const name = alias.getName();
      for (const call of [...calls].reverse()) call.getExpression().replaceWithText(written);
      const statement = alias.getVariableStatementOrThrow();
      if (statement.getDeclarations().length === 1) statement.remove();
      else alias.remove();
      const first = calls[0]?.getStartLineNumber() ?? line;
      diagnostics.push(
        finding(
          sf,
          first,
          'info',
          `${name}(...), ${written} bound to ${server}, written as ${written}(...) (${calls.length} call${calls.length === 1 ? '' : 's'}, the bound reference removed) so that each is converted like any other: SDK 2.x has no ${method}()`,
        ),
      );
    }
    return { changesCount: diagnostics.length, diagnostics };
  },
};
