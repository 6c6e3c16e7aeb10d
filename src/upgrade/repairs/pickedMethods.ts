/**
 * A type that names SDK 1.x's `tool`, `prompt` or `resource` member of McpServer: a registrar typed
 * `Pick<McpServer, 'tool'>`. The official codemod converts the `server.tool(...)` calls made through it into
 * `server.registerTool(...)` and leaves the type, which then names a member SDK 2.x's McpServer does not have
 * (TS2344), and offers none of the members the calls now use (TS2339). Where every value of that type is
 * declared here and no use through it still names the old member, the key is renamed to its register method;
 * otherwise (an exported type, a use left on `tool`, `McpServer['tool']`) the type is left, marked, and said.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type Identifier, type LiteralTypeNode, type SourceFile, type TypeReferenceNode } from 'ts-morph';
import { finding, leftover, namesTable, type Repair } from '../repair.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

const RENAMED = namesTable({ tool: 'registerTool', prompt: 'registerPrompt', resource: 'registerResource' });

/** The names SDK 2.x's McpServer is imported as. */
function mcpServerNames(sf: SourceFile): Set<string> {
  return new Set(
    sf
      .getImportDeclarations()
      .filter(d => d.getModuleSpecifierValue() === '@modelcontextprotocol/server')
      .flatMap(d => d.getNamedImports())
      .filter(n => n.getName() === 'McpServer')
      .map(n => n.getAliasNode()?.getText() ?? 'McpServer'),
  );
}

function stringLiteralType(n: Node): LiteralTypeNode | undefined {
  return Node.isLiteralTypeNode(n) && Node.isStringLiteral(n.getLiteral()) ? n : undefined;
}

/** The keys of `Pick<McpServer, 'a' | 'b'>` naming a 1.x member; undefined when the type is no such Pick or its keys are not all written out. */
function legacyKeys(pick: TypeReferenceNode, servers: Set<string>): LiteralTypeNode[] | undefined {
  const [object, keys, ...rest] = pick.getTypeArguments();
  if (pick.getTypeName().getText() !== 'Pick' || !object || !keys || rest.length > 0) return undefined;
  if (!Node.isTypeReference(object) || !servers.has(object.getTypeName().getText())) return undefined;
  const literals = (Node.isUnionTypeNode(keys) ? keys.getTypeNodes() : [keys]).map(stringLiteralType);
  if (literals.some(l => l === undefined)) return undefined;
  return (literals as LiteralTypeNode[]).filter(l => l.getLiteral().getText().slice(1, -1) in RENAMED);
}

/** The names of the values typed with `type`: a parameter, variable or field it is the type of; undefined when there may be others. */
function typedNames(type: Node): Identifier[] | undefined {
  const owner = type.getParent();
  if (
    (Node.isParameterDeclaration(owner) || Node.isVariableDeclaration(owner) || Node.isPropertyDeclaration(owner)) &&
    owner.getTypeNode() === type
  ) {
    const name = owner.getNameNode();
    return Node.isIdentifier(name) ? [name] : undefined;
  }
  // A type alias of this file only: every value of it is typed in this file.
  if (Node.isTypeAliasDeclaration(owner) && !owner.isExported()) {
    const uses = owner
      .getNameNode()
      .findReferencesAsNodes()
      .filter(r => r !== owner.getNameNode());
    const names = uses.map(r =>
      r.getSourceFile() === type.getSourceFile() && Node.isTypeReference(r.getParent()) ? typedNames(r.getParentOrThrow()) : undefined,
    );
    return names.every(n => n !== undefined) ? names.flat() : undefined;
  }
  return undefined;
}

/** The members read through a name (`server.tool`, `this.server.tool`, `const { tool } = server`); undefined when one is computed. */
function membersRead(name: Identifier): string[] | undefined {
  const read: string[] = [];
  for (const reference of name.findReferencesAsNodes()) {
    if (reference === name) continue;
    // `this.server` for a field: the value is the member read, not its name.
    const parent = reference.getParent();
    const value = Node.isPropertyAccessExpression(parent) && parent.getNameNode() === reference ? parent : reference;
    const use = value.getParent();
    if (Node.isPropertyAccessExpression(use) && use.getExpression() === value) read.push(use.getName());
    else if (Node.isElementAccessExpression(use) && use.getExpression() === value) return undefined;
    else if (Node.isVariableDeclaration(use) && Node.isObjectBindingPattern(use.getNameNode())) {
      for (const element of descendantsOfKind(use.getNameNode(), SyntaxKind.BindingElement))
        read.push(element.getPropertyNameNode()?.getText() ?? element.getName());
    }
  }
  return read;
}

/** Renames the Pick's 1.x keys when nothing still reads those members through it; true when it did. */
function renameKeys(pick: TypeReferenceNode, keys: LiteralTypeNode[]): boolean {
  const names = typedNames(pick);
  const read = names?.map(membersRead);
  if (!read || read.some(r => r === undefined || r.some(member => member in RENAMED))) return false;
  for (const key of keys) {
    const literal = key.getLiteral().getText();
    key.replaceWithText(`${literal[0]}${RENAMED[literal.slice(1, -1)]}${literal[0]}`);
  }
  return true;
}

export const pickedMethodsRepair: Repair = {
  id: 'picked-methods',
  name: "types naming McpServer's 1.x tool, prompt and resource members",
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    const servers = mcpServerNames(sf);
    if (servers.size === 0) return { changesCount: 0, diagnostics };
    for (const pick of descendantsOfKind(sf, SyntaxKind.TypeReference).reverse()) {
      if (pick.wasForgotten()) continue;
      const keys = legacyKeys(pick, servers);
      if (!keys || keys.length === 0) continue;
      const line = pick.getStartLineNumber();
      const written = pick.getText();
      const old = keys.map(k => k.getLiteral().getText().slice(1, -1));
      if (renameKeys(pick, keys)) {
        diagnostics.push(
          finding(
            sf,
            line,
            'info',
            `${written} written as ${pick.getText()}: SDK 2.x's McpServer has no ${old.join(', ')}, and every call through this type is now ${old.map(k => RENAMED[k]).join(', ')}`,
          ),
        );
      } else {
        diagnostics.push(
          leftover(
            pick,
            `${written} names ${old.join(', ')}, which SDK 2.x's McpServer does not have (TS2344): once every call through this type, here and wherever it is imported, is ${old.map(k => `${RENAMED[k]}(...)`).join(', ')}, write ${old.map(k => `'${RENAMED[k]}'`).join(' | ')} here, then remove this marker`,
          ),
        );
      }
    }
    for (const access of descendantsOfKind(sf, SyntaxKind.IndexedAccessType)) {
      const object = access.getObjectTypeNode();
      const index = stringLiteralType(access.getIndexTypeNode());
      const member = index?.getLiteral().getText().slice(1, -1);
      if (!Node.isTypeReference(object) || !servers.has(object.getTypeName().getText()) || !member || !(member in RENAMED)) continue;
      diagnostics.push(
        leftover(
          access,
          `${access.getText()} is SDK 1.x's ${member}(), which SDK 2.x's McpServer does not have: type it after ${object.getText()}['${RENAMED[member]}'], whose arguments differ (name, a config object, the callback), then remove this marker`,
        ),
      );
    }
    return { changesCount: diagnostics.filter(d => !d.insertComment).length, diagnostics };
  },
};
