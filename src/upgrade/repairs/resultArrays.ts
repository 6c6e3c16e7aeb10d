import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { finding, type Repair } from '../repair.js';
import { importServerTypes } from '../serverTypes.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/** The array member of each result a low-level handler returns, and the result type naming it. */
const RESULT_ARRAYS: Record<string, { member: string; type: string }> = {
  'tools/call': { member: 'content', type: 'CallToolResult' },
  'prompts/get': { member: 'messages', type: 'GetPromptResult' },
  'resources/read': { member: 'contents', type: 'ReadResourceResult' },
};

/**
 * SDK 1.x typed a `setRequestHandler` callback's result as any server result, so `const content = [];
 * content.push({ type: 'text', ... }); return { content };` compiled; 2.x types it as the method's own
 * result, and the array TypeScript evolved from the pushes (`type: string`) no longer fits (TS2345).
 * Such an unannotated empty array returned as the result's array gets that array's type.
 */
function annotateResultArrays(sf: SourceFile): Diagnostic[] {
  const notes: Diagnostic[] = [];
  if (!/\.[cm]?tsx?$/.test(sf.getFilePath())) return notes;
  const needed = new Set<string>();
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const [method, handler] = call.getArguments();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'setRequestHandler' || !method || !Node.isStringLiteral(method))
      continue;
    const result = RESULT_ARRAYS[method.getLiteralValue()];
    if (!result || !handler || !(Node.isArrowFunction(handler) || Node.isFunctionExpression(handler))) continue;
    for (const ret of descendantsOfKind(handler, SyntaxKind.ReturnStatement)) {
      if (ret.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) !== handler) continue;
      const value = ret.getExpression();
      const member = value && Node.isObjectLiteralExpression(value) ? value.getProperty(result.member) : undefined;
      const name = !member
        ? undefined
        : Node.isShorthandPropertyAssignment(member)
          ? member.getNameNode()
          : Node.isPropertyAssignment(member) && Node.isIdentifier(member.getInitializer() ?? member)
            ? member.getInitializer()
            : undefined;
      // By name within the handler (the binder alone, without the SDK's types, resolves no shorthand):
      // only one declaration of it, so the name cannot mean another.
      const same: import('ts-morph').VariableDeclaration[] =
        name && Node.isIdentifier(name)
          ? descendantsOfKind(handler, SyntaxKind.VariableDeclaration).filter(d => d.getName() === name.getText())
          : [];
      const decl = same.length === 1 ? same[0] : undefined;
      if (!decl || !Node.isVariableDeclaration(decl) || decl.getTypeNode() || !Node.isIdentifier(decl.getNameNode())) continue;
      const init = decl.getInitializer();
      if (!init || !Node.isArrayLiteralExpression(init) || init.getElements().length > 0) continue;
      if (decl.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) !== handler) continue;
      decl.setType(`${result.type}['${result.member}']`);
      needed.add(result.type);
      notes.push(
        finding(
          sf,
          decl.getStartLineNumber(),
          'info',
          `"${decl.getName()}" is typed ${result.type}['${result.member}']: SDK 2.x checks a ${method.getLiteralValue()} handler's result, and the array evolved from its pushes no longer fits`,
        ),
      );
    }
  }
  importServerTypes(sf, needed);
  return notes;
}

export const annotateResultArraysRepair: Repair = {
  id: 'result-arrays',
  name: 'Result arrays a low-level handler fills by pushes',
  apply: sf => {
    const diagnostics = annotateResultArrays(sf);
    return { changesCount: diagnostics.length, diagnostics };
  },
};
