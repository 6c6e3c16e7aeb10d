/**
 * Tools, prompts and resources registered in `oninitialized`, which never fires on MCP 2026-07-28 (there is
 * no initialize): marked, to be registered when the server is built. Not for an editor's analysis of one handler.
 */
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import type { FoundCause } from '../../tables/causes.js';
import type { AnalysisRun } from '../analysisRun.js';
import { serverKindOf } from '../mcpSymbols.js';
import { descendantsOfKind } from '../descendants.js';

export function markOninitializedRegistrations({ options, r }: AnalysisRun, sf: SourceFile): void {
  if (options.onlyHandlerAt) return;
  for (const call of registrationsAfterInitialize(sf)) {
    const reason = `${call.getExpression().getText()}() runs in oninitialized, which never fires on MCP 2026-07-28 (there is no initialize): register it when the server is built`;
    const cause: FoundCause = {
      id: 'registered-in-oninitialized',
      text: 'registered in oninitialized, which never fires on MCP 2026-07-28: register it when the server is built',
    };
    r.site(call, { kind: 'registration', call: call.getExpression().getText(), outcome: 'marked', reason, handler: 'lifecycle', cause });
  }
}

/** Tool, prompt and resource registrations inside an `oninitialized` callback. */
function registrationsAfterInitialize(sf: SourceFile): CallExpression[] {
  const found: CallExpression[] = [];
  for (const assignment of descendantsOfKind(sf, SyntaxKind.BinaryExpression)) {
    if (assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || !/\.oninitialized$/.test(assignment.getLeft().getText()))
      continue;
    for (const call of descendantsOfKind(assignment.getRight(), SyntaxKind.CallExpression)) {
      if (registers(call, 0)) found.push(call);
    }
  }
  return found;
}

/** Whether a call registers a tool, prompt or resource, itself or through the project's own functions. */
function registers(call: CallExpression, depth: number): boolean {
  const callee = call.getExpression();
  if (
    Node.isPropertyAccessExpression(callee) &&
    /^(registerTool|registerPrompt|registerResource|tool|prompt|resource)$/.test(callee.getName())
  ) {
    return serverKindOf(callee.getExpression()) === 'McpServer';
  }
  if (depth >= 3 || !Node.isIdentifier(callee)) return false;
  const symbol = callee.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  for (const decl of target?.getDeclarations() ?? []) {
    const fn = Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
    if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) continue;
    if (fn.getSourceFile().isDeclarationFile() || fn.getSourceFile().isInNodeModules()) continue;
    if (descendantsOfKind(fn, SyntaxKind.CallExpression).some(c => registers(c, depth + 1))) return true;
  }
  return false;
}
