import type { Diagnostic } from '@modelcontextprotocol/codemod';

export const CODEMOD_MARKER = '@mcp-codemod-error';

/**
 * Said by a repair's marker on code that throws as the migrated server starts (src/upgrade/repair.ts
 * `leftover`): the run's exit status then says the server will not start (src/format-report.ts exitCodeOf),
 * not merely that something is left.
 */
export const FAILS_AT_START = 'the server throws at start-up until this is migrated';

/**
 * The official codemod's markers on code that throws as the server starts: a registration it could not key by a
 * method string (a project's own schema, a task schema), which SDK 2.x's setRequestHandler and
 * setNotificationHandler refuse at once.
 */
const CODEMOD_START_FAILURES = /(?:^|\| )(?:Custom method handler|Task handler registration): set(?:Request|Notification)Handler\(/;

/** Whether a marker's message says its code throws as the server starts. */
export function failsAtStart(message: string): boolean {
  return message.includes(FAILS_AT_START) || CODEMOD_START_FAILURES.test(message);
}

/** Per 1-based line of the current text, the messages of the findings on it (a finding that follows its node, where it is now). */
export function markerLines(diagnostics: Diagnostic[]): Map<number, string[]> {
  const byLine = new Map<number, string[]>();
  for (const d of diagnostics) {
    let line = d.line;
    try {
      line = d.resolveCurrentLine?.() ?? d.line;
    } catch {
      // the node moved or vanished; keep the line it was found on
    }
    byLine.set(line, [...(byLine.get(line) ?? []), d.message]);
  }
  return byLine;
}

/**
 * The official runner writes a `/* @mcp-codemod-error … *\/` comment above each finding that needs
 * the user's action; called transform by transform, we write them the same way (one per line,
 * findings on one line joined, none twice), so they show in the diff and stay greppable.
 */
export function withCodemodMarkers(text: string, byLine: ReadonlyMap<number, string[]>): string {
  const lines = text.split('\n');
  for (const [line, messages] of [...byLine].sort((a, b) => b[0] - a[0])) {
    const index = line - 1;
    if (index < 0 || index >= lines.length || (index > 0 && lines[index - 1]!.includes(CODEMOD_MARKER))) continue;
    const indent = /^\s*/.exec(lines[index]!)![0];
    lines.splice(index, 0, `${indent}/* ${CODEMOD_MARKER} ${messages.join(' | ').replaceAll('*/', '* /')} */`);
  }
  return lines.join('\n');
}
