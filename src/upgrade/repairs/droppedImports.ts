/**
 * The official codemod removes an import of a path SDK 2.x dropped (`@modelcontextprotocol/sdk/experimental/tasks`)
 * with a warning, and leaves the code that uses what it imported: `new InMemoryTaskStore()` is then a
 * ReferenceError, at start-up where it runs at module level, and in JavaScript nothing else says so. This
 * repair rewrites nothing: each name an SDK 1.x import bound before the codemod ran that nothing binds after it,
 * yet is still read as a value, is marked at its first such read (as failing at start-up when that read runs
 * as the module loads), so `--check` and the run's exit status say what the warning alone did not.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type Identifier, type SourceFile } from 'ts-morph';
import { identifiersNamed } from '../../analysis/names.js';
import { FAILS_AT_START } from '../markers.js';
import { leftover, type Repair } from '../repair.js';

const V1_PATH = /^@modelcontextprotocol\/sdk(?:\/|$)/;

/** The local names the file's SDK 1.x imports bind (named, default and namespace), read before the codemod runs. */
export function v1ImportNames(sf: SourceFile): string[] {
  return sf
    .getImportDeclarations()
    .filter(d => V1_PATH.test(d.getModuleSpecifierValue()) && !d.isTypeOnly())
    .flatMap(d => [
      ...d
        .getNamedImports()
        .filter(n => !n.isTypeOnly())
        .map(n => (n.getAliasNode() ?? n.getNameNode()).getText()),
      d.getDefaultImport()?.getText(),
      d.getNamespaceImport()?.getText(),
    ])
    .filter((n): n is string => n !== undefined);
}

/** Whether an identifier is read as a value (not a type, a member's name, or a name being declared). */
function readsValue(id: Identifier): boolean {
  const parent = id.getParent();
  if (!parent) return false;
  if ((Node.isPropertyAccessExpression(parent) || Node.isQualifiedName(parent)) && parent.getChildAtIndex(2) === id) return false;
  if (
    Node.isPropertyAssignment(parent) ||
    Node.isMethodDeclaration(parent) ||
    Node.isPropertyDeclaration(parent) ||
    Node.isPropertySignature(parent) ||
    Node.isBindingElement(parent)
  ) {
    if (parent.getNameNode() === id || (Node.isBindingElement(parent) && parent.getPropertyNameNode() === id)) return false;
  }
  // `class A extends Store` reads Store; `implements`, annotations and `typeof Store` in a type do not.
  for (const a of id.getAncestors()) {
    if (Node.isHeritageClause(a))
      return (
        a.getToken() === SyntaxKind.ExtendsKeyword && (Node.isClassDeclaration(a.getParent()) || Node.isClassExpression(a.getParent()))
      );
    if (Node.isTypeNode(a) || Node.isImportDeclaration(a) || Node.isExportDeclaration(a) || Node.isJSDoc(a)) return false;
  }
  return true;
}

/** Whether a node runs as its module loads: in no function (a class's static members and decorators run then too, but are rare here). */
function runsAtLoad(n: Node): boolean {
  return !n.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a) || Node.isArrowFunction(a) || Node.isFunctionExpression(a));
}

export function droppedImportsRepair(names: readonly string[]): Repair {
  return {
    id: 'dropped-imports',
    name: 'Names of SDK 1.x imports the codemod removed, still read',
    apply: sf => {
      const diagnostics: Diagnostic[] = [];
      if (names.length === 0) return { changesCount: 0, diagnostics };
      const wanted = new Set(names);
      const reads = identifiersNamed(sf, wanted).filter(id => wanted.has(id.getText()) && readsValue(id) && id.getSymbol() === undefined);
      for (const name of wanted) {
        const uses = reads.filter(id => id.getText() === name);
        const first = uses.find(runsAtLoad) ?? uses[0];
        if (!first) continue;
        const more = uses.length > 1 ? ` (read ${uses.length} times in this file)` : '';
        const when = runsAtLoad(first) ? `a ReferenceError as the module loads, so ${FAILS_AT_START}` : 'a ReferenceError when it runs';
        diagnostics.push(
          leftover(
            first,
            `${name}${more} was imported from SDK 1.x by an import the official codemod removed (SDK 2.x has no such export): this read is ${when}; replace what it gave, then remove this marker`,
          ),
        );
      }
      return { changesCount: 0, diagnostics };
    },
  };
}
