/**
 * Import edits in the file's own style, made in its tree: a declaration the rewrite adds to or takes from is
 * written again with `importText` (its quotes, indentation, semicolons and trailing commas) and put in the tree
 * as the statement that text parses to, which recast prints as written; one it adds goes on a line of its own
 * after the last import; every other statement is left as it is.
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

/** What the import edits read of a file and its tree. */
export interface ImportSite {
  /** The program's statements, edited in place. */
  body: TopStatement[];
  /** Those the file was parsed with (their offsets are the file's); the others are the rewrite's. */
  written: ReadonlySet<TopStatement>;
  source: string;
  style: CodeStyle;
  /** The statements of a text, as the file's parser gives them. */
  parse: (text: string) => TopStatement[];
}

/** The imports of a file's tree edited as `changes` asks. */
export function editImports(file: ImportSite, changes: ImportChanges): void {
  const { body, source, style } = file;
  const written = body.filter(st => file.written.has(st));
  const edits = importEdits(source, written, changes, style);
  const replaced = new Map(edits.rewritten);
  const after = edits.inserted?.after;
  if (edits.inserted && after) {
    // recast spaces statements by the lines of the text each was parsed from: the new declarations are parsed with
    // the one they follow, so that a blank line the file had after it stays after them.
    const range = offsetsOf(after)!;
    const kept = replaced.has(after) ? replaced.get(after) : source.slice(range.start, range.end);
    replaced.set(after, kept === undefined ? edits.inserted.text : `${kept}\n${edits.inserted.text}`);
  } else if (edits.inserted) {
    // First in a file that imports nothing, a blank line after them.
    body.splice(0, 0, ...file.parse(`${edits.inserted.text}\n\n`));
  }
  // The comments above a declaration taken out go to the statement after it. A declaration is then written out with
  // them as it was (given a comment, recast would print it anew in its own layout); other code, which other units may
  // have edited, is given them as comments.
  const declarations = new Set(written.filter(st => st.type === 'ImportDeclaration' || isRequire(st)));
  let carried: Comment[] = [];
  for (const [i, statement] of written.entries()) {
    if (!replaced.has(statement) && (carried.length === 0 || !declarations.has(statement))) {
      if (carried.length > 0) statement.comments = [...carried, ...(statement.comments ?? [])];
      carried = [];
      continue;
    }
    const own = offsetsOf(statement)!;
    const text = replaced.has(statement) ? replaced.get(statement) : source.slice(own.start, own.end);
    const leading = [...carried, ...commentsOf(statement, 'leading')];
    carried = text === undefined ? leading : [];
    const nodes = text === undefined ? [] : file.parse(replacementText(file, [written[i - 1], statement, written[i + 1]], leading, text));
    // (A statement another unit took out of the program is not there to replace: splice(-1) would take the last one.)
    const at = body.indexOf(statement);
    if (at >= 0) body.splice(at, 1, ...nodes);
  }
}

type Comment = NonNullable<TopStatement['comments']>[number];

function commentsOf(statement: TopStatement, side: 'leading' | 'trailing'): Comment[] {
  return (statement.comments ?? []).filter(c => c[side]);
}

/**
 * The text a statement is replaced by, to be parsed, its comments written out (a comment of the file on a node
 * of another text cannot be printed). recast puts between two statements the larger of the line breaks each had
 * there in the text it was parsed from: the text has those the statement had in the file, at least one, so that
 * two replaced in a row are not joined.
 */
function replacementText(
  file: ImportSite,
  [before, statement, next]: (TopStatement | undefined)[],
  leading: Comment[],
  text: string,
): string {
  const { source } = file;
  const span = (st: TopStatement) => {
    const parts = [st, ...commentsOf(st, 'leading'), ...commentsOf(st, 'trailing')].map(n => offsetsOf(n)!);
    return { start: Math.min(...parts.map(p => p.start)), end: Math.max(...parts.map(p => p.end)) };
  };
  const breaks = (from: TopStatement | undefined, to: TopStatement | undefined) => {
    const between = from && to ? source.slice(span(from).end, span(to).start) : '';
    return '\n'.repeat(/^\s*$/.test(between) ? Math.min(2, Math.max(1, between.split('\n').length - 1)) : 1);
  };
  const comments = leading.map(c => `${source.slice(offsetsOf(c)!.start, offsetsOf(c)!.end)}\n`).join('');
  const own = offsetsOf(statement!)!;
  const trailing = commentsOf(statement!, 'trailing');
  const after = trailing.length > 0 ? source.slice(own.end, Math.max(...trailing.map(c => offsetsOf(c)!.end))) : '';
  return `${breaks(before, statement)}${comments}${text}${after}${breaks(statement, next)}`;
}

/** What the import edits make of a file: each declaration rewritten (its new text) or removed (none), and the new ones. */
interface ImportEdits {
  rewritten: Map<TopStatement, string | undefined>;
  /** The new declarations' text, put after `after` (the last import or require), or first where the file has none. */
  inserted?: { after?: TopStatement; text: string };
}

/** The edits of the imports of `statements` (their offsets in `text`) that `changes` asks for, in the file's style. */
function importEdits(text: string, statements: TopStatement[], changes: ImportChanges, style: CodeStyle): ImportEdits {
  const imports = statements.flatMap(st =>
    importStatementsOf(st)
      .filter(i => i.whole)
      .map(i => ({ ...i, statement: st })),
  );
  const rewritten = new Map<(typeof imports)[number], string[]>();
  const namesOf = (st: (typeof imports)[number]): string[] => rewritten.get(st) ?? st.names.map(n => text.slice(n.start, n.end));
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
  const edits: ImportEdits = { rewritten: new Map() };
  for (const [st, names] of rewritten)
    edits.rewritten.set(st.statement, names.length > 0 ? importText(names, st.module, st.kind, style) : undefined);
  if (inserted.length > 0) {
    const after = [...statements].reverse().find(st => st.type === 'ImportDeclaration' || isRequire(st));
    edits.inserted = { ...(after ? { after } : {}), text: insertedText(inserted, style) };
  }
  return edits;
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
