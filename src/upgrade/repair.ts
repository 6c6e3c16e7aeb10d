/**
 * A repair of the official codemod's output: the codemod's own `Transform` shape (id, name, apply on a
 * ts-morph source file, diagnostics), so each could be offered upstream as it is. Repairs run after the
 * codemod's transforms, in the order of `repairs` (src/upgrade/index.ts).
 */
import { DiagnosticLevel, type Diagnostic } from '@modelcontextprotocol/codemod';
import type { Node, SourceFile } from 'ts-morph';

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
