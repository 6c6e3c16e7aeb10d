/**
 * Calls of the requestState module the tool writes (`ask(...)`, `resumable(...)`, `journaled(...)`): code a
 * run migrated already, which a later run leaves as it is.
 */
import { Node, SyntaxKind } from 'ts-morph';
import { unwrap } from '../analysis/mcpSymbols.js';
import { isStateModuleFile } from '../stateModule.js';

export type StateFunction = 'ask' | 'resumable' | 'journaled' | 'clientCapabilities';

const NAMES: ReadonlySet<string> = new Set(['ask', 'resumable', 'journaled', 'clientCapabilities']);

/** The requestState module's function a call makes (whatever the file imports it as), or 'other' for another of its exports. */
export function stateModuleCall(node: Node): StateFunction | 'other' | undefined {
  const call = unwrap(node);
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrap(call.getExpression());
  if (!Node.isIdentifier(callee)) return undefined;
  const symbol = callee.getSymbol();
  const alias = symbol?.getDeclarations()[0];
  const declared = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
  const specifier = alias?.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)?.getModuleSpecifierValue() ?? requiredFrom(alias);
  const fromState = (declared !== undefined && isStateModuleFile(declared.getSourceFile().getFilePath())) || (specifier !== undefined && /(^|\/)mcp-migrate-state(\.[cm]?[jt]s)?$/.test(specifier));
  if (!fromState) return undefined;
  const name = alias && Node.isImportSpecifier(alias) ? alias.getName() : alias && Node.isBindingElement(alias) ? (alias.getPropertyNameNode()?.getText() ?? alias.getName()) : callee.getText();
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
