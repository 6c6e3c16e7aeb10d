/** A stdio entry (`await server.connect(new StdioServerTransport())`) served by `serveStdio`. */
import type { Node } from 'jscodeshift';
import type { StdioEntryPlan } from '../plan.js';
import type { RewriteContext } from './context.js';

export function rewriteStdioEntries(cx: RewriteContext): void {
  for (const entry of cx.plan.stdio) rewriteStdioEntry(cx, entry);
}

function rewriteStdioEntry(cx: RewriteContext, entry: StdioEntryPlan): void {
  const p = cx.at(entry.call, 'stdio connect call');
  const options = [
    entry.transportText === undefined ? '' : entry.transportText === 'transport' ? 'transport' : `transport: ${entry.transportText}`,
    entry.onerrorText === undefined ? '' : `onerror: ${entry.onerrorText}`,
  ].filter(Boolean);
  const replacement = cx.parseExpression(
    `${cx.use('stdio', 'serveStdio')}(() => ${entry.serverText}${options.length > 0 ? `, { ${options.join(', ')} }` : ''})`,
  );
  const parent = p.parent?.node as Node | undefined;
  const replaced = parent && parent.type === 'AwaitExpression' ? p.parent : p;
  replaced.replace(replacement);
  if (entry.thenText) {
    // (through a `void` in front of the chain)
    let statement = replaced.parent as typeof p | undefined;
    while (statement && (statement.node as Node).type === 'UnaryExpression') statement = statement.parent;
    if (!statement || !cx.j.ExpressionStatement.check(statement.node))
      throw new Error(
        `mrtr transform: the .then of the stdio connect call at offset ${entry.call.start} in ${cx.plan.file} is not a statement`,
      );
    cx.insertAfterStatement(statement, cx.parseStatements(entry.thenText));
  }
  if (entry.removeDeclaration) cx.at(entry.removeDeclaration, 'stdio transport declaration').prune();
  if (entry.declareServer) {
    const statement = cx.statementAt(entry.declareServer.before);
    if (!statement)
      throw new Error(
        `mrtr transform: cannot find the statement connecting the server at offset ${entry.declareServer.before} in ${cx.plan.file}`,
      );
    const declaration = cx.parseStatements(entry.declareServer.text)[0];
    // The statement's leading comments go with it to the top of the pair, where they were.
    const node = statement.node;
    // (copies without their place in the old text, which recast would otherwise print them by)
    declaration.comments = (node.comments ?? [])
      .filter(c => c.leading)
      .map(c => ({ type: c.type, value: c.value, leading: true, trailing: false }) as typeof c);
    node.comments = (node.comments ?? []).filter(c => !c.leading);
    cx.insertBeforeStatement(statement, declaration);
  }
}
