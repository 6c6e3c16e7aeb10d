import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { finding, type Repair } from '../repair.js';
import type { ContextMembers } from './contextParams.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/**
 * The official codemod renames `RequestHandlerExtra<...>["sendRequest"]` to
 * `ServerContext["sendRequest"]`, a property v2's context does not have (TS2339): index the member
 * where it now lives instead, so a helper typed by the handler's channel keeps compiling.
 */
function repairContextTypes(sf: SourceFile, members: ContextMembers): Diagnostic[] {
  const notes: Diagnostic[] = [];
  const contextNames = new Set(
    sf
      .getImportDeclarations()
      .filter(d => d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/server'))
      .flatMap(d => d.getNamedImports())
      .filter(n => n.getName() === 'ServerContext')
      .map(n => n.getAliasNode()?.getText() ?? n.getName()),
  );
  if (contextNames.size === 0) return notes;
  const broken = descendantsOfKind(sf, SyntaxKind.IndexedAccessType).filter(t => {
    const object = t.getObjectTypeNode();
    const index = t.getIndexTypeNode();
    return (
      Node.isTypeReference(object) &&
      contextNames.has(object.getTypeName().getText()) &&
      Node.isLiteralTypeNode(index) &&
      Node.isStringLiteral(index.getLiteral()) &&
      members.has((index.getLiteral() as import('ts-morph').StringLiteral).getLiteralValue())
    );
  });
  for (const type of broken.reverse()) {
    const context = type.getObjectTypeNode().getText();
    const member = (
      (type.getIndexTypeNode() as import('ts-morph').LiteralTypeNode).getLiteral() as import('ts-morph').StringLiteral
    ).getLiteralValue();
    // `.mcpReq.send`, `.http?.authInfo`: an optional member (`http`) is read through NonNullable.
    const path = members.get(member)!;
    const [outer, inner] = path.split(/\??\./).filter(Boolean);
    const text = path.startsWith(`.${outer}?.`) ? `NonNullable<${context}["${outer}"]>["${inner}"]` : `${context}["${outer}"]["${inner}"]`;
    const { line } = sf.getLineAndColumnAtPos(type.getStart());
    type.replaceWithText(text);
    notes.push(
      finding(sf, line, 'info', `${context}["${member}"] (from the official codemod) does not exist in SDK 2.x: written as ${text}`),
    );
  }
  return notes;
}

export function contextTypesRepair(members: ContextMembers): Repair {
  return {
    id: 'context-types',
    name: 'ServerContext members the codemod indexes where v2 has none',
    apply: sf => {
      const diagnostics = repairContextTypes(sf, members);
      return { changesCount: diagnostics.length, diagnostics };
    },
  };
}
