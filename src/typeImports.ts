/**
 * `import('…')` types: in TypeScript a type node like any other, in JavaScript checked with JSDoc the
 * way a module's types are named (`@param {import('m').Name} x`). The JSDoc ones hang off the node
 * they document, where a walk of the syntax tree does not go.
 */
import { ts } from 'ts-morph';

/** Every `import('…')` type of a file, those in JSDoc comments included, outermost first. */
export function importTypes(sf: ts.SourceFile): ts.ImportTypeNode[] {
  const found: ts.ImportTypeNode[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportTypeNode(node)) found.push(node);
    for (const doc of (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) visit(doc);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The module an `import('…')` type names, when it is written as a string. */
export function importTypeSpecifier(node: ts.ImportTypeNode): ts.StringLiteral | undefined {
  const argument = node.argument;
  return ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal) ? argument.literal : undefined;
}
