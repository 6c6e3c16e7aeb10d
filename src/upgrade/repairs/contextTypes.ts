import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { finding, type Repair } from '../repair.js';

/**
 * Where the v1 handler context moved in v2 (`extra.sendRequest` → `ctx.mcpReq.send`, ...), as
 * property paths of `ServerContext`; `http` is optional, so its members are read through NonNullable.
 */
const CONTEXT_TYPE_PATHS: Record<string, string[]> = {
  signal: ['mcpReq', 'signal'],
  requestId: ['mcpReq', 'id'],
  _meta: ['mcpReq', '_meta'],
  sendRequest: ['mcpReq', 'send'],
  sendNotification: ['mcpReq', 'notify'],
  authInfo: ['http', 'authInfo'],
  requestInfo: ['http', 'req'],
  closeSSEStream: ['http', 'closeSSE'],
  closeStandaloneSSEStream: ['http', 'closeStandaloneSSE']
};

/**
 * The official codemod renames `RequestHandlerExtra<...>["sendRequest"]` to
 * `ServerContext["sendRequest"]`, a property v2's context does not have (TS2339): index the member
 * where it now lives instead, so a helper typed by the handler's channel keeps compiling.
 */
function repairContextTypes(sf: SourceFile): Diagnostic[] {
  const notes: Diagnostic[] = [];
  const contextNames = new Set(
    sf
      .getImportDeclarations()
      .filter(d => d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/server'))
      .flatMap(d => d.getNamedImports())
      .filter(n => n.getName() === 'ServerContext')
      .map(n => n.getAliasNode()?.getText() ?? n.getName())
  );
  if (contextNames.size === 0) return notes;
  const broken = sf.getDescendantsOfKind(SyntaxKind.IndexedAccessType).filter(t => {
    const object = t.getObjectTypeNode();
    const index = t.getIndexTypeNode();
    return (
      Node.isTypeReference(object) &&
      contextNames.has(object.getTypeName().getText()) &&
      Node.isLiteralTypeNode(index) &&
      Node.isStringLiteral(index.getLiteral()) &&
      (index.getLiteral() as import('ts-morph').StringLiteral).getLiteralValue() in CONTEXT_TYPE_PATHS
    );
  });
  for (const type of broken.reverse()) {
    const context = type.getObjectTypeNode().getText();
    const member = ((type.getIndexTypeNode() as import('ts-morph').LiteralTypeNode).getLiteral() as import('ts-morph').StringLiteral).getLiteralValue();
    const [outer, inner] = CONTEXT_TYPE_PATHS[member]!;
    const text = outer === 'http' ? `NonNullable<${context}["http"]>["${inner}"]` : `${context}["${outer}"]["${inner}"]`;
    const { line } = sf.getLineAndColumnAtPos(type.getStart());
    type.replaceWithText(text);
    notes.push(finding(sf, line, 'info', `${context}["${member}"] (from the official codemod) does not exist in SDK 2.x: written as ${text}`));
  }
  return notes;
}

export const repairContextTypesRepair: Repair = {
  id: 'context-types',
  name: 'ServerContext members the codemod indexes where v2 has none',
  apply: sf => {
    const diagnostics = repairContextTypes(sf);
    return { changesCount: diagnostics.length, diagnostics };
  },
};
