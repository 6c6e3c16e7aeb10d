/**
 * The official codemod writes each `tool(...)`, `prompt(...)` or `resource(...)` call it converts anew, and
 * the callback's lines come out indented again by the column its arguments start at: a body at 2 spaces
 * comes out at 12 and its closing `});` at 10, so every line of the handler shows in the diff. A converted
 * call (its text is not in the file as written) whose callback starts on the call's line and closes on a
 * line indented past the call's own gets the callback's lines back by the difference, unless a template
 * literal spans lines inside it (those lines are the string's own).
 *
 * Done on the text, as the import quotes are (importQuotes.ts): only leading whitespace goes, so every line
 * keeps its number and the findings their lines.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { descendantsOfKind } from '../../analysis/descendants.js';

const REGISTER = /^register(?:Tool|Prompt|Resource)$/;

/**
 * `text` (`sf`'s, or one with the same lines and indentation) with the callbacks of the registrations the
 * codemod converted indented as the file was.
 */
export function withRegistrationIndent(sf: SourceFile, original: string, text = sf.getFullText()): string {
  const lines = text.split('\n');
  const dedents = new Map<number, number>();
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !REGISTER.test(callee.getName()) || original.includes(call.getText())) continue;
    const callback = call.getArguments().at(-1);
    if (!callback || !(Node.isArrowFunction(callback) || Node.isFunctionExpression(callback))) continue;
    const first = call.getStartLineNumber() - 1;
    const last = callback.getEndLineNumber() - 1;
    if (callback.getStartLineNumber() - 1 !== first || last === first || spansLinesInTemplate(callback)) continue;
    const extra = extraIndent(lines, first, last);
    if (extra > 0) for (let l = first + 1; l <= last; l++) dedents.set(l, extra);
  }
  if (dedents.size === 0) return text;
  return lines.map((line, i) => (dedents.has(i) && line.trim() !== '' ? line.slice(dedents.get(i)) : line)).join('\n');
}

/** How far the lines after `first`, through `last`, stand past where the closing line belongs (`first`'s indentation); 0 when not all of them do. */
function extraIndent(lines: readonly string[], first: number, last: number): number {
  const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];
  const own = indentOf(lines[first]!);
  const closing = indentOf(lines[last]!);
  if (!lines[last]!.trimStart().startsWith('}') || closing.length <= own.length || !closing.startsWith(own)) return 0;
  const extra = closing.slice(own.length);
  for (let l = first + 1; l <= last; l++) {
    if (lines[l]!.trim() !== '' && !lines[l]!.startsWith(own + extra)) return 0;
  }
  return extra.length;
}

function spansLinesInTemplate(fn: Node): boolean {
  const multiline = (n: Node) => n.getStartLineNumber() !== n.getEndLineNumber();
  return (
    descendantsOfKind(fn, SyntaxKind.TemplateExpression).some(multiline) ||
    descendantsOfKind(fn, SyntaxKind.NoSubstitutionTemplateLiteral).some(multiline)
  );
}
