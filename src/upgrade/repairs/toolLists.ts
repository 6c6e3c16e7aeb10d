import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, VariableDeclarationKind, type SourceFile, type VariableDeclaration } from 'ts-morph';
import { finding, type Repair } from '../repair.js';
import { importServerTypes } from '../serverTypes.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/**
 * A low-level `tools/list` handler returning its tools as a literal array: without a contextual type
 * (2.x's `setRequestHandler` infers the callback before checking it) TypeScript unions tools whose
 * input schemas name different properties, adding `x?: undefined` to the others, which SDK 1.x's
 * `{ [x: string]: unknown }` accepted and 2.x's JSON-valued schema refuses (TS2322). Typing the
 * callback's result `ListToolsResult` gives the literal its contextual type back.
 *
 * A list kept in a constant (`const tools = [{ ..., inputSchema: { type: 'object', ... } }]`, returned as
 * `{ tools }`) was inferred where it is declared, with `type: string`, which 2.x's `type: 'object'` refuses
 * (TS2322): the constant is typed `ListToolsResult['tools']` there, which checks each tool as 2.x reads it.
 */
function annotateToolLists(sf: SourceFile): Diagnostic[] {
  const notes: Diagnostic[] = [];
  if (!/\.[cm]?tsx?$/.test(sf.getFilePath())) return notes;
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const [method, handler] = call.getArguments();
    if (
      !Node.isPropertyAccessExpression(callee) ||
      callee.getName() !== 'setRequestHandler' ||
      !method ||
      !Node.isStringLiteral(method) ||
      method.getLiteralValue() !== 'tools/list'
    )
      continue;
    if (!handler || !(Node.isArrowFunction(handler) || Node.isFunctionExpression(handler)) || handler.getReturnTypeNode()) continue;
    const body = handler.getBody();
    const returned = Node.isBlock(body)
      ? descendantsOfKind(body, SyntaxKind.ReturnStatement)
          .filter(r => r.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) === handler)
          .map(r => r.getExpression())
      : [body];
    const lists = returned.map(value => {
      const object = value && unwrapParentheses(value);
      if (!object || !Node.isObjectLiteralExpression(object)) return undefined;
      // Only the result's own members: a literal with others would newly fail the excess property check.
      if (
        !object
          .getProperties()
          .every(
            p =>
              (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) &&
              ['tools', 'nextCursor', '_meta'].includes(p.getName()),
          )
      )
        return undefined;
      const tools = object.getProperty('tools');
      return Node.isPropertyAssignment(tools) ? tools.getInitializer() : Node.isShorthandPropertyAssignment(tools) ? tools : undefined;
    });
    const literal = (list: Node | undefined) =>
      list !== undefined &&
      Node.isArrayLiteralExpression(list) &&
      list.getElements().filter(e => Node.isObjectLiteralExpression(e)).length >= 2;
    if (lists.length > 0 && lists.every(literal)) {
      handler.setReturnType(handler.isAsync() ? 'Promise<ListToolsResult>' : 'ListToolsResult');
      importServerTypes(sf, new Set(['ListToolsResult']));
      notes.push(
        finding(
          sf,
          handler.getStartLineNumber(),
          'info',
          "the tools/list handler's result is typed ListToolsResult: SDK 2.x infers the callback before checking it, and the literal tool list it returns no longer fits without that type",
        ),
      );
      continue;
    }
    for (const list of lists) if (list && !literal(list)) notes.push(...castComputedSchemas(list));
    for (const constant of new Set(lists.map(list => list && toolListConstant(list)))) {
      if (!constant) continue;
      constant.setType("ListToolsResult['tools']");
      importServerTypes(sf, new Set(['ListToolsResult']));
      notes.push(
        finding(
          sf,
          constant.getStartLineNumber(),
          'info',
          `"${constant.getName()}" is typed ListToolsResult['tools']: the tools/list handler returns it, and the type inferred where it is declared (an input schema's type: string) no longer fits SDK 2.x's tools`,
        ),
      );
    }
  }
  return notes;
}

/**
 * A list the handler computes (`defs.map(d => ({ name: d.name, inputSchema: d.inputSchema }))`) from the project's
 * own tool type, whose schema is often typed `unknown` or a JSON Schema type of its own: SDK 1.x's result type
 * took any object (its union held a passthrough result), 2.x's wants `Tool['inputSchema']` (TS2322). Each schema
 * the list's objects read from elsewhere is cast to the tool's own type, as 1.x let it through unchecked.
 */
function castComputedSchemas(list: Node): Diagnostic[] {
  const notes: Diagnostic[] = [];
  const members = descendantsOfKind(list, SyntaxKind.PropertyAssignment).filter(p => ['inputSchema', 'outputSchema'].includes(p.getName()));
  for (const member of members.reverse()) {
    const value = member.getInitializer();
    const bare = value && unwrapParentheses(value);
    if (!value || !bare || Node.isObjectLiteralExpression(bare) || Node.isAsExpression(bare) || Node.isSatisfiesExpression(bare)) continue;
    const simple =
      Node.isIdentifier(bare) ||
      Node.isPropertyAccessExpression(bare) ||
      Node.isElementAccessExpression(bare) ||
      Node.isCallExpression(bare);
    value.replaceWithText(`${simple ? value.getText() : `(${value.getText()})`} as Tool['${member.getName()}']`);
    importServerTypes(list.getSourceFile(), new Set(['Tool']));
    notes.push(
      finding(
        list.getSourceFile(),
        member.getStartLineNumber(),
        'info',
        `the ${member.getName()} of a tool list the tools/list handler computes is cast to Tool['${member.getName()}']: SDK 1.x's result type took it unchecked, SDK 2.x's wants that type`,
      ),
    );
  }
  return notes;
}

/** The unannotated constant of this file, initialised with a literal array of tools, that `list` (`tools: name` or `{ tools }`) reads. */
function toolListConstant(list: Node): VariableDeclaration | undefined {
  const symbol = Node.isShorthandPropertyAssignment(list) ? list.getValueSymbol() : Node.isIdentifier(list) ? list.getSymbol() : undefined;
  const declarations = symbol?.getDeclarations() ?? [];
  const constant = declarations.length === 1 ? declarations[0] : undefined;
  if (!Node.isVariableDeclaration(constant) || constant.getTypeNode() || constant.getSourceFile() !== list.getSourceFile())
    return undefined;
  if (constant.getVariableStatement()?.getDeclarationKind() !== VariableDeclarationKind.Const) return undefined;
  const literal = constant.getInitializer();
  return literal &&
    Node.isArrayLiteralExpression(literal) &&
    literal.getElements().length > 0 &&
    literal.getElements().every(e => Node.isObjectLiteralExpression(e))
    ? constant
    : undefined;
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
