/**
 * Calls of the requestState module the tool writes (`ask(...)`, `resumable(...)`, `journaled(...)`): code a
 * run migrated already, which a later run leaves as it is.
 */
import { Node, SyntaxKind } from 'ts-morph';
import { unwrap } from '../analysis/mcpSymbols.js';
import { importedAs, onlyImportedAs } from '../analysis/fileBindings.js';
import { isStateModuleFile } from '../stateModule.js';

export type StateFunction = 'ask' | 'resumable' | 'journaled' | 'clientCapabilities';

const NAMES: ReadonlySet<string> = new Set(['ask', 'resumable', 'journaled', 'clientCapabilities']);

/** An import of the module, as the tool writes it (`./mcp-migrate-state.js`, `../mcp-migrate-state`). */
const STATE_SPECIFIER = /(^|\/)mcp-migrate-state(\.[cm]?[jt]s)?$/;

/** The requestState module's function a call makes (whatever the file imports it as), or 'other' for another of its exports. */
export function stateModuleCall(node: Node): StateFunction | 'other' | undefined {
  const call = unwrap(node);
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrap(call.getExpression());
  if (!Node.isIdentifier(callee)) return undefined;
  const file = callee.getSourceFile();
  if (!isStateModuleFile(file.getFilePath())) {
    // From the syntax where it settles the answer: a name no import or require binds is the file's own, and a
    // name bound only by an import of the module is its function. A name imported elsewhere under one of
    // the module's names may be re-exported from it: the checker says.
    const bound = importedAs(file, callee.getText());
    if (!bound) return undefined;
    const fromModule = STATE_SPECIFIER.test(bound.module);
    if (fromModule && onlyImportedAs(file, callee.getText())) return NAMES.has(bound.name) ? (bound.name as StateFunction) : 'other';
    if (!fromModule && !NAMES.has(bound.name)) return undefined;
  }
  const symbol = callee.getSymbol();
  const alias = symbol?.getDeclarations()[0];
  const declared = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
  const specifier = alias?.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)?.getModuleSpecifierValue() ?? requiredFrom(alias);
  const fromState =
    (declared !== undefined && isStateModuleFile(declared.getSourceFile().getFilePath())) ||
    (specifier !== undefined && STATE_SPECIFIER.test(specifier));
  if (!fromState) return undefined;
  const name =
    alias && Node.isImportSpecifier(alias)
      ? alias.getName()
      : alias && Node.isBindingElement(alias)
        ? (alias.getPropertyNameNode()?.getText() ?? alias.getName())
        : callee.getText();
  return NAMES.has(name) ? (name as StateFunction) : 'other';
}

/** `const { ask } = require('./mcp-migrate-state.cjs')`: the module a binding is required from. */
function requiredFrom(alias: Node | undefined): string | undefined {
  const declaration = alias?.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
  const init = declaration?.getInitializer();
  if (!init || !Node.isCallExpression(init) || init.getExpression().getText() !== 'require') return undefined;
  const arg = init.getArguments()[0];
  return arg && Node.isStringLiteral(arg) ? arg.getLiteralValue() : undefined;
}
