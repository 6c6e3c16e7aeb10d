/**
 * Import edits as text, in the file's own style: a declaration the rewrite adds to or takes from is written
 * again with `importText` (its quotes, indentation, semicolons and trailing commas), one it adds goes on a
 * line of its own after the last import, and every other line of the file is left as it is.
 */
import { importText, type CodeStyle } from './style.js';

export type ImportKind = 'import' | 'import type' | 'require';

export interface ImportChanges {
  /** Names to import, per module and kind: [exported name, local name]. */
  add: { module: string; kind: ImportKind; names: [string, string][] }[];
  /** Locals of `@modelcontextprotocol/*` imports nothing uses any more: their specifiers go, and a declaration left empty. */
  remove: ReadonlySet<string>;
  /** Locals of the project's other imports whose every use the rewrite took out (the wrapper of a request it unwrapped): they go too. */
  unwrapped?: ReadonlySet<string>;
}

/** A top-level statement of the program as the parser gives it (Babel's AST through jscodeshift). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Statement = any;

interface Edit {
  start: number;
  end: number;
  text: string;
}

export function editImports(text: string, statements: Statement[], changes: ImportChanges, style: CodeStyle): string {
  const edits: Edit[] = [];
  const rewritten = new Map<Statement, string[]>();
  const namesOf = (st: Statement): string[] => rewritten.get(st) ?? specifiersOf(st).map((sp: Statement) => text.slice(sp.start, sp.end));
  for (const st of statements) {
    const gone = isMcpDeclaration(st) ? changes.remove : changes.unwrapped && namedOnly(st) ? changes.unwrapped : undefined;
    if (!gone) continue;
    const kept = specifiersOf(st).filter((sp: Statement) => !gone.has(localOf(sp)));
    if (kept.length < specifiersOf(st).length) rewritten.set(st, kept.map((sp: Statement) => text.slice(sp.start, sp.end)));
  }
  // A file that writes no `import type` of its own gets its added types beside the module's values (`type X`).
  const separateTypes = statements.some(st => st.type === 'ImportDeclaration' && st.importKind === 'type');
  const inserted: { module: string; kind: ImportKind; specifiers: string[] }[] = [];
  for (const { module, kind, names } of changes.add) {
    if (names.length === 0) continue;
    const specifiers = names.map(([name, local]) => (name === local ? name : `${name}${kind === 'require' ? ':' : ' as'} ${local}`));
    const existing = statements.find(st => declares(st, module, kind));
    const beside = kind === 'import type' && !existing && !separateTypes;
    const values = beside ? statements.find(st => declares(st, module, 'import')) : undefined;
    if (existing) rewritten.set(existing, [...namesOf(existing), ...specifiers]);
    else if (values) rewritten.set(values, [...namesOf(values), ...specifiers.map(sp => `type ${sp}`)]);
    // Types of a module whose values this edit imports too go in the same new declaration.
    else if (beside && changes.add.some(a => a.module === module && a.kind === 'import' && a.names.length > 0)) inserted.push({ module, kind: 'import', specifiers: specifiers.map(sp => `type ${sp}`) });
    else inserted.push({ module, kind, specifiers });
  }
  for (const [st, names] of rewritten) {
    const module = moduleOf(st)!;
    if (names.length > 0) edits.push({ start: st.start, end: st.end, text: importText(names, module, kindOf(st), style) });
    else edits.push(wholeLines(text, st.start, st.end));
  }
  if (inserted.length > 0) edits.push(insertion(text, statements, insertedText(inserted, style)));
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** New declarations in the order they were asked for, one per module and kind (a module's values and types together). */
function insertedText(inserted: { module: string; kind: ImportKind; specifiers: string[] }[], style: CodeStyle): string {
  const merged = new Map<string, { module: string; kind: ImportKind; specifiers: string[] }>();
  for (const entry of inserted) {
    const key = `${entry.kind} ${entry.module}`;
    const seen = merged.get(key);
    if (seen) seen.specifiers.push(...entry.specifiers);
    else merged.set(key, { ...entry, specifiers: [...entry.specifiers] });
  }
  return [...merged.values()].map(({ module, kind, specifiers }) => importText(sortedTypesLast(specifiers), module, kind, style)).join('\n');
}

/** Values before `type` specifiers, each group in the order given (as the rewrite writes an existing declaration). */
const sortedTypesLast = (specifiers: string[]) => [...specifiers.filter(sp => !sp.startsWith('type ')), ...specifiers.filter(sp => sp.startsWith('type '))];

/** After the last import or require, on lines of their own; at the top of a file without any. */
function insertion(text: string, statements: Statement[], block: string): Edit {
  const last = [...statements].reverse().find(st => st.type === 'ImportDeclaration' || isRequire(st));
  if (last) return { start: last.end, end: last.end, text: `\n${block}` };
  const first = statements[0];
  const at = first ? (first.comments?.[0]?.start ?? first.start) : text.length;
  return { start: at, end: at, text: `${block}\n\n` };
}

/** A statement's range with its line, when it is alone on it: removed without leaving a blank line. */
function wholeLines(text: string, start: number, end: number): Edit {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const alone = text.slice(lineStart, start).trim() === '' && text.slice(end, lineEnd < 0 ? text.length : lineEnd).trim() === '';
  return alone ? { start: lineStart, end: lineEnd < 0 ? text.length : lineEnd + 1, text: '' } : { start, end, text: '' };
}

function declares(st: Statement, module: string, kind: ImportKind): boolean {
  if (moduleOf(st) !== module || kindOf(st) !== kind) return false;
  return kind === 'require'
    ? st.declarations.length === 1 && st.declarations[0].id.type === 'ObjectPattern'
    : st.specifiers.length > 0 && st.specifiers.every((sp: Statement) => sp.type === 'ImportSpecifier');
}

function isMcpDeclaration(st: Statement): boolean {
  return /^@modelcontextprotocol\//.test(moduleOf(st) ?? '') && namedOnly(st);
}

/** An import or require of named specifiers only: a default or namespace import is left as it is. */
function namedOnly(st: Statement): boolean {
  if (moduleOf(st) === undefined) return false;
  return st.type === 'ImportDeclaration' ? st.specifiers.every((sp: Statement) => sp.type === 'ImportSpecifier') : st.declarations[0].id.type === 'ObjectPattern';
}

function moduleOf(st: Statement): string | undefined {
  if (st.type === 'ImportDeclaration') return st.source.value;
  return isRequire(st) && st.declarations.length === 1 ? st.declarations[0].init.arguments[0]?.value : undefined;
}

function kindOf(st: Statement): ImportKind {
  return st.type !== 'ImportDeclaration' ? 'require' : st.importKind === 'type' ? 'import type' : 'import';
}

function specifiersOf(st: Statement): Statement[] {
  return st.type === 'ImportDeclaration' ? st.specifiers : st.declarations[0].id.properties;
}

function localOf(sp: Statement): string {
  return sp.local?.name ?? sp.value?.name ?? sp.key?.name;
}

export function isRequire(st: Statement): boolean {
  return st.type === 'VariableDeclaration' && st.declarations.some((d: Statement) => d.init?.type === 'CallExpression' && d.init.callee?.name === 'require');
}
