import { ts } from 'ts-morph';

/**
 * The work a file journals: the body of each `journaled(() => ...)`, as written; of one that keeps nothing of its
 * result, `journaled(() => { work; })` (`await journaled(async () => { await work; })`), the work.
 */
export function journaledWork(text: string): string[] {
  const sf = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const [work] =
      ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'journaled' ? node.arguments : [];
    if (work && ts.isArrowFunction(work))
      found.push((discardedWork(work.body, ts.isAwaitExpression(node.parent)) ?? work.body).getText(sf));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * The work of `journaled(() => { work; })`, whose result is not kept; of `await journaled(async () => { await work; })`,
 * `work` itself (the await is the one outside). `awaited`: the journaled call is awaited.
 */
export function discardedWork(body: ts.ConciseBody, awaited: boolean): ts.Expression | undefined {
  if (!ts.isBlock(body) || body.statements.length !== 1 || !ts.isExpressionStatement(body.statements[0]!)) return undefined;
  const work = body.statements[0].expression;
  return awaited && ts.isAwaitExpression(work) ? work.expression : work;
}
