import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { finding, type Repair } from '../repair.js';
import { importServerTypes } from '../serverTypes.js';

/**
 * A low-level `tools/list` handler returning its tools as a literal array: without a contextual type
 * (2.x's `setRequestHandler` infers the callback before checking it) TypeScript unions tools whose
 * input schemas name different properties, adding `x?: undefined` to the others, which SDK 1.x's
 * `{ [x: string]: unknown }` accepted and 2.x's JSON-valued schema refuses (TS2322). Typing the
 * callback's result `ListToolsResult` gives the literal its contextual type back.
 */
function annotateToolLists(sf: SourceFile): Diagnostic[] {
  const notes: Diagnostic[] = [];
  if (!/\.[cm]?tsx?$/.test(sf.getFilePath())) return notes;
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const [method, handler] = call.getArguments();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'setRequestHandler' || !method || !Node.isStringLiteral(method) || method.getLiteralValue() !== 'tools/list') continue;
    if (!handler || !(Node.isArrowFunction(handler) || Node.isFunctionExpression(handler)) || handler.getReturnTypeNode()) continue;
    const body = handler.getBody();
    const returned = Node.isBlock(body)
      ? body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter(r => r.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) === handler).map(r => r.getExpression())
      : [body];
    const literalLists = returned.filter(value => {
      const object = value && unwrapParentheses(value);
      if (!object || !Node.isObjectLiteralExpression(object)) return false;
      // Only the result's own members: a literal with others would newly fail the excess property check.
      if (!object.getProperties().every(p => Node.isPropertyAssignment(p) && ['tools', 'nextCursor', '_meta'].includes(p.getName()))) return false;
      const tools = object.getProperty('tools');
      const list = tools && Node.isPropertyAssignment(tools) ? tools.getInitializer() : undefined;
      return list !== undefined && Node.isArrayLiteralExpression(list) && list.getElements().filter(e => Node.isObjectLiteralExpression(e)).length >= 2;
    });
    if (literalLists.length === 0 || literalLists.length !== returned.length) continue;
    handler.setReturnType(handler.isAsync() ? 'Promise<ListToolsResult>' : 'ListToolsResult');
    importServerTypes(sf, new Set(['ListToolsResult']));
    notes.push(finding(sf, handler.getStartLineNumber(), 'info', "the tools/list handler's result is typed ListToolsResult: SDK 2.x infers the callback before checking it, and the literal tool list it returns no longer fits without that type"));
  }
  return notes;
}

function unwrapParentheses(node: Node): Node {
  return Node.isParenthesizedExpression(node) ? unwrapParentheses(node.getExpression()) : node;
}

export const annotateToolListsRepair: Repair = {
  id: 'tool-lists',
  name: 'Literal tool lists of a low-level tools/list handler',
  apply: sf => {
    const diagnostics = annotateToolLists(sf);
    return { changesCount: diagnostics.length, diagnostics };
  },
};
