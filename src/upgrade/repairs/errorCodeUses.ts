/**
 * SDK 1.x's `ErrorCode` enum split in 2.x into `ProtocolErrorCode` and `SdkErrorCode`. The official codemod
 * rewrites each `ErrorCode.Member` expression to its enum and removes the import, but leaves every other use
 * of the name: a type (`code: ErrorCode`, `ErrorCode.InvalidParams` in a type, `keyof typeof ErrorCode`) or a
 * value (`Object.values(ErrorCode)`), which then name nothing (TS2304, TS2503), unmarked when some member
 * access was rewritten. A member named in a type goes where the codemod sends that member as a value; the
 * name standing for one value in a type (`code: ErrorCode`) was written by errorCodeTypesRepair before this
 * runs; any other use names both enums at once in 1.x and one of them in 2.x, so it is left, marked, and said.
 */
import type { Diagnostic, Migration, TransformContext } from '@modelcontextprotocol/codemod';
import { Node, Project, type Identifier, type SourceFile } from 'ts-morph';
import { identifiersNamed } from '../../analysis/names.js';
import { declaredAtTop, finding, leftover, type Repair } from '../repair.js';
import type { SdkSides } from './typeImports.js';

/** Where the codemod sends `ErrorCode.Member`: the enum it names instead, and the module it imports it from. */
export interface ErrorCodeHome {
  name: string;
  module: string;
}

/** The local names SDK 1.x's ErrorCode is imported as, read before the official codemod removes the import. */
export function errorCodeNames(sf: SourceFile): string[] {
  return sf
    .getImportDeclarations()
    .filter(d => d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/sdk'))
    .flatMap(d => d.getNamedImports())
    .filter(n => n.getName() === 'ErrorCode')
    .map(n => n.getAliasNode()?.getText() ?? 'ErrorCode');
}

/**
 * Where the official codemod sends `ErrorCode.<member>` in a file importing the given sides of the SDK: its
 * mapping is not exported, so the codemod is asked, once per question, with a probe of that member alone.
 */
export function codemodErrorCodeHomes(migration: Migration, projectType: TransformContext['projectType']) {
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  const answers = new Map<string, ErrorCodeHome | undefined>();
  return (member: string, sides: SdkSides): ErrorCodeHome | undefined => {
    const key = JSON.stringify([member, sides]);
    if (answers.has(key)) return answers.get(key);
    const probe = [
      ...(sides.client ? [`import '@modelcontextprotocol/sdk/client/index.js';`] : []),
      ...(sides.server ? [`import '@modelcontextprotocol/sdk/server/index.js';`] : []),
      `import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';`,
      `export const probe = ErrorCode.${member};`,
    ].join('\n');
    const sf = project.createSourceFile('/probe.ts', probe, { overwrite: true });
    for (const transform of migration.transforms) transform.apply(sf, { projectType });
    const value = sf.getVariableDeclaration('probe')?.getInitializer();
    const name = Node.isPropertyAccessExpression(value) && value.getName() === member ? value.getExpression().getText() : undefined;
    const module = sf
      .getImportDeclarations()
      .find(d => d.getNamedImports().some(n => n.getName() === name))
      ?.getModuleSpecifierValue();
    const answer = name && name !== 'ErrorCode' && module && !module.startsWith('@modelcontextprotocol/sdk') ? { name, module } : undefined;
    answers.set(key, answer);
    return answer;
  };
}

/** Whether an identifier reads a binding (not a member's name, not a declaration's name). */
export function isReference(id: Identifier): boolean {
  const parent = id.getParent();
  if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) return false;
  if (Node.isQualifiedName(parent) && parent.getRight() === id) return false;
  if (Node.isShorthandPropertyAssignment(parent) || Node.isExportSpecifier(parent)) return true;
  return !(Node.hasName(parent) && parent.getNameNode() === id) && !Node.isPropertyAssignment(parent) && !Node.isImportSpecifier(parent);
}

/** Adds `name` from `module` to the file's value import of that module, or a new one. */
export function importName(sf: SourceFile, name: string, module: string): void {
  const existing = sf
    .getImportDeclarations()
    .filter(d => d.getModuleSpecifierValue() === module && !d.getNamespaceImport() && !d.getDefaultImport());
  if (existing.some(d => d.getNamedImports().some(n => n.getName() === name && !n.getAliasNode()))) return;
  const target = existing.find(d => !d.isTypeOnly()) ?? existing[0];
  if (target) target.addNamedImport(target.isTypeOnly() ? name : { name, isTypeOnly: true });
  else sf.addImportDeclaration({ moduleSpecifier: module, isTypeOnly: true, namedImports: [name] });
}

export function errorCodeUsesRepair(
  names: string[],
  sides: SdkSides,
  homeOf: (member: string, sides: SdkSides) => ErrorCodeHome | undefined,
): Repair {
  return {
    id: 'error-code-uses',
    name: 'uses of ErrorCode the official codemod leaves naming nothing',
    apply: sf => {
      const diagnostics: Diagnostic[] = [];
      for (const name of names) {
        // Still declared (the codemod kept the import): not ours.
        if (declaredAtTop(sf, name)) continue;
        const what = name === 'ErrorCode' ? "SDK 1.x's ErrorCode" : `${name} (SDK 1.x's ErrorCode)`;
        const uses = identifiersNamed(sf, new Set([name])).filter(id => id.getText() === name && isReference(id));
        for (const use of uses.reverse()) {
          const qualified = use.getParent();
          const member = Node.isQualifiedName(qualified) && qualified.getLeft() === use ? qualified.getRight().getText() : undefined;
          const home = member === undefined ? undefined : homeOf(member, sides);
          if (!home) {
            diagnostics.push(
              leftover(
                use,
                `${what} names nothing here: SDK 2.x split it into ProtocolErrorCode (the numeric JSON-RPC codes a ProtocolError carries) and SdkErrorCode (string codes of errors the SDK raises itself); name the one meant here, then remove this marker`,
              ),
            );
            continue;
          }
          importName(sf, home.name, home.module);
          const line = use.getStartLineNumber();
          use.replaceWithText(home.name);
          diagnostics.push(
            finding(
              sf,
              line,
              'info',
              `${name}.${member} in a type written as ${home.name}.${member}, where the official codemod sends ${name}.${member} in an expression (SDK 2.x has no ErrorCode)`,
            ),
          );
        }
      }
      return { changesCount: diagnostics.filter(d => !d.insertComment).length, diagnostics };
    },
  };
}

/** The official codemod's finding that ErrorCode is gone, which this repair's own findings, one per use left, replace. */
export function isErrorCodeSplitFinding(d: Diagnostic): boolean {
  return / is not exported by the v2 packages — it split into ProtocolErrorCode/.test(d.message);
}
