/**
 * Import edits as text, in the file's own style: a declaration the rewrite adds to or takes from is written
 * again with `importText` (its quotes, indentation, semicolons and trailing commas), one it adds goes on a
 * line of its own after the last import, and every other line of the file is left as it is.
 */
import type { Program } from 'jscodeshift';
import { offsetsOf } from './parsers.js';
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
export type TopStatement = Program['body'][number];

/** A specifier of an import or a property of a require's pattern: its text's range, the name the module exports, the local. */
export interface ImportedName {
  start: number;
  end: number;
  /** `default` for a default import, `*` for a namespace import; none for a property not named by an identifier or a string. */
  imported?: string;
  /** None for a property destructured further (`{ a: { b } }`) or a rest element. */
  local?: string;
  /** The identifiers the binding writes (a require's `{ a }` writes its key and its value): uses of the local beyond them are uses. */
  ownIdentifiers: number;
}

/** An import declaration, or one `const { a, b: c } = require('m')`, as the edits read it. */
export interface ImportStatement {
  start: number;
  end: number;
  module: string;
  kind: ImportKind;
  names: ImportedName[];
  /** Named specifiers only: no default or namespace import; a require destructured with an object pattern. */
  namedOnly: boolean;
  /** The statement declares nothing else (a require's statement declares one variable). */
  whole: boolean;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

export function editImports(text: string, statements: TopStatement[], changes: ImportChanges, style: CodeStyle): string {
  const imports = statements.flatMap(st => importStatementsOf(st).filter(i => i.whole));
  const edits: Edit[] = [];
  const rewritten = new Map<ImportStatement, string[]>();
  const namesOf = (st: ImportStatement): string[] => rewritten.get(st) ?? st.names.map(n => text.slice(n.start, n.end));
  for (const st of imports) {
    const gone = isMcpDeclaration(st) ? changes.remove : changes.unwrapped && st.namedOnly ? changes.unwrapped : undefined;
    if (!gone) continue;
    const kept = st.names.filter(n => n.local === undefined || !gone.has(n.local));
    if (kept.length < st.names.length)
      rewritten.set(
        st,
        kept.map(n => text.slice(n.start, n.end)),
      );
  }
  // A file that writes no `import type` of its own gets its added types beside the module's values (`type X`).
  const separateTypes = imports.some(st => st.kind === 'import type');
  const inserted: { module: string; kind: ImportKind; specifiers: string[] }[] = [];
  for (const { module, kind, names } of changes.add) {
    if (names.length === 0) continue;
    const specifiers = names.map(([name, local]) => (name === local ? name : `${name}${kind === 'require' ? ':' : ' as'} ${local}`));
    const existing = imports.find(st => declares(st, module, kind));
    const beside = kind === 'import type' && !existing && !separateTypes;
    const values = beside ? imports.find(st => declares(st, module, 'import')) : undefined;
    if (existing) rewritten.set(existing, [...namesOf(existing), ...specifiers]);
    else if (values) rewritten.set(values, [...namesOf(values), ...specifiers.map(sp => `type ${sp}`)]);
    // Types of a module whose values this edit imports too go in the same new declaration.
    else if (beside && changes.add.some(a => a.module === module && a.kind === 'import' && a.names.length > 0))
      inserted.push({ module, kind: 'import', specifiers: specifiers.map(sp => `type ${sp}`) });
    else inserted.push({ module, kind, specifiers });
  }
  for (const [st, names] of rewritten) {
    if (names.length > 0) edits.push({ start: st.start, end: st.end, text: importText(names, st.module, st.kind, style) });
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
  return [...merged.values()]
    .map(({ module, kind, specifiers }) => importText(sortedTypesLast(specifiers), module, kind, style))
    .join('\n');
}

/** Values before `type` specifiers, each group in the order given (as the rewrite writes an existing declaration). */
const sortedTypesLast = (specifiers: string[]) => [
  ...specifiers.filter(sp => !sp.startsWith('type ')),
  ...specifiers.filter(sp => sp.startsWith('type ')),
];

/** After the last import or require, on lines of their own; at the top of a file without any. */
function insertion(text: string, statements: TopStatement[], block: string): Edit {
  const last = [...statements].reverse().find(st => st.type === 'ImportDeclaration' || isRequire(st));
  const lastEnd = last && offsetsOf(last)?.end;
  if (lastEnd !== undefined) return { start: lastEnd, end: lastEnd, text: `\n${block}` };
  const first = statements[0];
  const comment = first?.comments?.[0];
  const at = (comment && offsetsOf(comment)?.start) ?? (first && offsetsOf(first)?.start) ?? text.length;
  return { start: at, end: at, text: `${block}\n\n` };
}

/** A statement's range with its line, when it is alone on it: removed without leaving a blank line. */
function wholeLines(text: string, start: number, end: number): Edit {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const alone = text.slice(lineStart, start).trim() === '' && text.slice(end, lineEnd < 0 ? text.length : lineEnd).trim() === '';
  return alone ? { start: lineStart, end: lineEnd < 0 ? text.length : lineEnd + 1, text: '' } : { start, end, text: '' };
}

function declares(st: ImportStatement, module: string, kind: ImportKind): boolean {
  return st.module === module && st.kind === kind && st.namedOnly && st.names.length > 0;
}

function isMcpDeclaration(st: ImportStatement): boolean {
  return /^@modelcontextprotocol\//.test(st.module) && st.namedOnly;
}

/** A `const`, `let` or `var` one of whose declarators calls `require(...)`. */
export function isRequire(st: TopStatement): boolean {
  return (
    st.type === 'VariableDeclaration' &&
    st.declarations.some(
      d =>
        d.type === 'VariableDeclarator' &&
        d.init?.type === 'CallExpression' &&
        d.init.callee.type === 'Identifier' &&
        d.init.callee.name === 'require',
    )
  );
}

/** What a top-level statement imports: an import declaration's names, or each declarator's of a require. */
export function importStatementsOf(st: TopStatement): ImportStatement[] {
  const range = offsetsOf(st);
  if (!range) return [];
  if (st.type === 'ImportDeclaration') {
    const module = st.source.value;
    if (typeof module !== 'string') return [];
    const names = (st.specifiers ?? []).flatMap((sp): ImportedName[] => {
      const at = offsetsOf(sp);
      if (!at) return [];
      const local = identifierName(sp.local);
      const imported = sp.type === 'ImportSpecifier' ? identifierName(sp.imported) : sp.type === 'ImportDefaultSpecifier' ? 'default' : '*';
      return [{ ...at, imported, local, ownIdentifiers: 0 }];
    });
    const namedOnly = (st.specifiers ?? []).every(sp => sp.type === 'ImportSpecifier');
    return [{ ...range, module, kind: st.importKind === 'type' ? 'import type' : 'import', names, namedOnly, whole: true }];
  }
  if (st.type !== 'VariableDeclaration') return [];
  return st.declarations.flatMap(d => {
    const module = d.type === 'VariableDeclarator' ? requiredModule(d.init) : undefined;
    if (d.type !== 'VariableDeclarator' || module === undefined) return [];
    const pattern = d.id.type === 'ObjectPattern' ? d.id : undefined;
    const names = pattern ? pattern.properties.flatMap(prop => destructuredName(prop)) : [];
    return [{ ...range, module, kind: 'require' as const, names, namedOnly: pattern !== undefined, whole: st.declarations.length === 1 }];
  });
}

function identifierName(node: { name?: unknown } | null | undefined): string | undefined {
  return typeof node?.name === 'string' ? node.name : undefined;
}

/** The module of `require('m')`. */
function requiredModule(init: unknown): string | undefined {
  const call = init as { type?: string; callee?: { type: string; name?: string }; arguments?: { value?: unknown }[] } | null;
  if (call?.type !== 'CallExpression' || call.callee?.type !== 'Identifier' || call.callee.name !== 'require') return undefined;
  const value = call.arguments?.[0]?.value;
  return typeof value === 'string' ? value : undefined;
}

/** A property of a require's object pattern, `{ a }` or `{ a: b }`, as the name it binds. */
function destructuredName(prop: unknown): ImportedName[] {
  const p = prop as { type: string; key?: { type: string; name?: string; value?: unknown }; value?: { type: string; name?: string } };
  const at = offsetsOf(prop as never);
  if (!at) return [];
  const property = p.type === 'ObjectProperty' || p.type === 'Property';
  const local = property && p.value?.type === 'Identifier' ? p.value.name : undefined;
  const imported = !property
    ? undefined
    : p.key?.type === 'Identifier'
      ? p.key.name
      : typeof p.key?.value === 'string'
        ? p.key.value
        : undefined;
  return [{ ...at, imported, local, ownIdentifiers: (p.key?.type === 'Identifier' && p.key.name === local ? 1 : 0) + 1 }];
}
