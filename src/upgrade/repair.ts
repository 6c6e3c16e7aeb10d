/**
 * A repair of the official codemod's output: the codemod's own `Transform` shape (id, name, apply on a
 * ts-morph source file, diagnostics), so each could be offered upstream as it is. Repairs run after the
 * codemod's transforms, in the order of `repairs` (src/upgrade/index.ts).
 */
import { DiagnosticLevel, type Diagnostic } from '@modelcontextprotocol/codemod';
import { ts, type Node, type SourceFile } from 'ts-morph';

export type { Transform as Repair } from '@modelcontextprotocol/codemod';

/** A finding of a repair, in the codemod's own form. */
export function finding(sf: SourceFile, line: number, level: 'info' | 'warning' | 'error', message: string): Diagnostic {
  const levels = { info: DiagnosticLevel.Info, warning: DiagnosticLevel.Warning, error: DiagnosticLevel.Error } as const;
  return { file: sf.getFilePath(), line, level: levels[level], message };
}

/**
 * Code a repair recognises and leaves because it cannot be rewritten safely: marked above its line the way
 * the official codemod marks what it leaves (an `@mcp-codemod-error` comment), so `--check` fails on it until
 * it is migrated by hand and the marker removed.
 */
export function leftover(node: Node, message: string): Diagnostic {
  return {
    ...finding(node.getSourceFile(), node.getStartLineNumber(), 'warning', message),
    insertComment: true,
    resolveCurrentLine: () => node.getStartLineNumber(),
  };
}

/** A table keyed by names read from the code: no prototype, so `toString` or `constructor` is never a key of it. */
export function namesTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/**
 * Whether the file gives `name` a meaning of its own at its top level (an import, a declaration), as its binder's
 * locals would say: read from its statements, since binding asks ts-morph for a program, one per file upgraded.
 * A `var` or function declared in a block and hoisted to the top is not seen: the repairs ask about imports.
 */
export function declaredAtTop(sf: SourceFile, name: string): boolean {
  return sf.compilerNode.statements.some(statement => topLevelNames(statement).includes(name));
}

function topLevelNames(statement: ts.Statement): string[] {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    return [
      ...(clause?.name ? [clause.name.text] : []),
      ...(bindings && ts.isNamespaceImport(bindings) ? [bindings.name.text] : []),
      ...(bindings && ts.isNamedImports(bindings) ? bindings.elements.map(e => e.name.text) : []),
    ];
  }
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap(d => boundNames(d.name));
  if (
    ts.isImportEqualsDeclaration(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isModuleDeclaration(statement)
  ) {
    return statement.name && ts.isIdentifier(statement.name) ? [statement.name.text] : [];
  }
  return [];
}

function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap(e => (ts.isOmittedExpression(e) ? [] : boundNames(e.name)));
}
