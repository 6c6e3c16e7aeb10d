import { ts } from 'ts-morph';

/** The work a file journals: the body of each `journaled(() => ...)`, as written. */
export function journaledWork(text: string): string[] {
  const sf = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const [work] =
      ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'journaled' ? node.arguments : [];
    if (work && ts.isArrowFunction(work)) found.push(work.body.getText(sf));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
