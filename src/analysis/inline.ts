/**
 * Helpers that await a server-initiated request, inlined into the handlers that call them, so the
 * handler's phases can split them: the call becomes a labelled block that binds the parameters,
 * runs the helper's body and turns each `return` into an assignment and a `break`.
 *
 *   const name = await askName(greeting);
 * becomes
 *   let name!: Awaited<ReturnType<typeof askName>>;
 *   mcpInline: {
 *     const mcpGreeting = greeting;   // the helper's parameter, renamed so it cannot capture the argument
 *     ...body, `return x;` → `{ name = x; break mcpInline; }`
 *   }
 *
 * The statement's own variable is the result (a local of the helper's with its name is renamed); any other
 * statement (`return await askName(g)`, `const { a } = await f()`, one with a comment after it) reads a result
 * of its own, `let askNameResult!: ...` declared before the block, where it awaited the call.
 *
 * The helper may be in the same file (at module level, or in a scope around the handler) or imported
 * from another file of the project (directly, as a default export, or through re-exporting barrels).
 * A helper calling a helper is inlined again on the next pass, a few levels deep.
 *
 * A request channel handed to the helper (`extra.sendRequest`, `ctx.mcpReq.send`, `ctx`, a server)
 * is substituted for its parameter rather than bound to a constant, so the request inside becomes a
 * site of the handler (and no function-valued local has to travel in requestState).
 *
 * Only what keeps its meaning when moved: an async helper with a block body and plain parameters
 * (defaults allowed), no `var`, `this` or `arguments`, whose free names mean the same at the call
 * site. An imported helper's free names are imported at the call site (its module's imports,
 * re-specified from the handler's file, and its module's exported declarations); a lone module-level
 * declaration its module does not export is exported for it (src/pipeline.ts does that once the
 * passes are done), and a let or var the helper assigns gets a setter beside it, which the inlined code
 * calls (src/analysis/moduleSetters.ts); any other module-local keeps the helper from being inlined, and said so. Cycles (a helper reaching
 * itself, across files too) are reported with the cycle, never inlined.
 */
import path from 'node:path';
import { Node, SyntaxKind, ts, VariableDeclarationKind, type CallExpression, type ImportDeclaration, type SourceFile, type Statement, type VariableDeclaration, type VariableStatement } from 'ts-morph';
import type { SiteKind } from '../report.js';
import { bindingAt, bindingOf, bindingOfSymbol, declaresName, notAReference, placeAsIs, referencesIn, type DeclarationPlace } from './bindings.js';
import { boundIdentifiers, printableType } from './flow.js';
import { constObjectLiteral, literalString, objectProperty, serverFieldsOf, serverKindOf, unwrap } from './mcpSymbols.js';
import { identifierTexts, nameAllocator } from './names.js';
import { packageDirOf, resolveThroughPaths, specifierThroughPaths } from './tsconfigPaths.js';
import { isStateModuleFile } from '../stateModule.js';
import { codeStyle } from '../rewrite/style.js';
import { callableOnlyHere, methodIneligibility, overridesOf, receiverClass, receiverOf, thisEdits, thisOwner, type Receiver } from './methods.js';
import { delegationOf } from './delegates.js';
import { entriesOf, entryLabel, namedEntry } from './dispatch.js';
import { projectMayDeclareMember } from './projectNames.js';
import { enclosingFunction, findSites, handlerRegistrationOf, registeredWrapperCallOf, isHandlerExtra, isMcpReq, registrationOf, type FunctionLike, type Site } from './sites.js';
import { dynamicLoadOf, moduleValueRead, unusedLoadEdit, type DynamicLoad } from './dynamicImports.js';
import { existingSetter, isModuleVariable, SETTER_CAUSE, setterBinding, setterDeclaration, setterEdits, setterName, setterObstacle, variableWrites, type ModuleSetter } from './moduleSetters.js';
import { hoistAwaitedCalls, type CallHoisting } from './hoist.js';
import { CODEMOD_MARKER } from '../upgrade/markers.js';
import { cacheFillerOf, splitCall, splitNames as splitNamesOf, type CacheFiller, type CallSplit, type SplitNames } from './cacheFiller.js';

/** How deep a chain of helpers calling helpers is inlined. */
export { MAX_INLINE_DEPTH } from '../triggers.js';
import { MAX_INLINE_DEPTH } from '../triggers.js';
import { setText } from './project.js';

export const INLINE_LABEL = /^mcpInline\d*$/;

/** The cause of a refusal to inline a helper whose code would not mean the same in the handler. */
const MISBOUND = 'a name it uses would mean something else in the handler';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
  /** The inlined code names the helper (in a type), so the helper must stay. */
  namesHelper?: boolean;
  /** A stretch of `text` (from `offset`) that is the original text at `start`: the statement that reads the result, as written. */
  kept?: { offset: number; start: number; length: number };
}

/** A helper call that reaches a request but is not inlined: a marker above it says why. */
export interface Refusal {
  reason: string;
  /** The reason without names, what the summary counts refusals by. */
  cause: string;
  kind: SiteKind;
  /** The call as written, e.g. `askName(...)`. */
  call: string;
  /** The handler it is called from (its label). */
  handler: string;
}

export interface Inlining {
  /** The file's new text, already in the project; undefined when this pass changes nothing. */
  text: string | undefined;
  /**
   * Module-level declarations of other files the inlined code imports, which their modules must now
   * export; a setter (src/analysis/moduleSetters.ts) is added, exported, beside its variable first.
   */
  exports: { file: string; name: string; setter?: SetterExport }[];
  /** What the report should say: helpers removed because every call to them was inlined, helpers inlined from other files. */
  notes: string[];
  refusals: Refusal[];
  /** The calls inlined: where each was (in the file as the pass found it) and the label of the block that replaced it. */
  inlined: { call: number; label: string }[];
  /** Per helper (helperKey), how many calls to it this pass inlined. */
  helpers: Map<string, number>;
  /** Cache fillers whose handler calls this pass split (src/analysis/cacheFiller.ts): their modules get the read and the fill. */
  splits: Split[];
  /** The calls not to inline in the next pass, where they are in the new text: `exclude`, and those whose names would change meaning. */
  excluded: Map<number, Exclusion | null>;
}

export interface InlineOptions {
  /** How many more levels of helpers may be inlined after this pass (this pass included). */
  depth?: number;
  /** A path as the report shows it. */
  rel?: (file: string) => string;
  /**
   * The modules the file imported before any pass of inlining: an import an earlier pass added for a
   * helper that this pass inlines goes away entirely; one the user wrote stays as a bare import.
   */
  importedBefore?: ReadonlySet<string>;
  /**
   * Calls not to inline (by position in the file as this pass finds it): with the reason their marker
   * gives, or null for none (a handler not asked for).
   */
  exclude?: ReadonlyMap<number, Exclusion | null>;
  /** The names of each split cache filler's read and fill (by helperKey), the same for every file of the run. */
  splitNames?: Map<string, SplitNames>;
}

/** A setter a module gets beside the variable it sets: the variable's name and the declaration to add. */
export interface SetterExport {
  variable: string;
  text: string;
}

/** A handler call of a cache filler split into a read of its cache and a fill from the answer. */
export interface Split {
  /** The helper (helperKey), its module and name, and the names of its read and fill. */
  key: string;
  module: string;
  helper: string;
  names: SplitNames;
  /** The read as the handler's file calls it. */
  read: string;
  /** Where the call was (in the file as the pass found it), and the handler it is in. */
  call: number;
  handler: string;
}

/** Why a call is not inlined, for its marker: the reason, and the reason without names (what the summary counts by). */
export interface Exclusion {
  reason: string;
  cause: string;
}

export interface Helper {
  fn: FunctionLike;
  name: string;
  /** The node the callee's symbol declares: the function, its variable declaration or the `export default`. */
  decl: Node;
  /** Why a helper that is followed (its requests reach the handler) cannot be inlined (how it is loaded), and what to do. */
  notInlined?: { why: string; fix: string; cause: string };
  /** A method called through `this` that classes of the project override, or a table's property: every body the call may run. */
  overrides?: FunctionLike[];
  /** A function the handler loads when it runs, with `import()` (src/analysis/dynamicImports.ts). */
  load?: DynamicLoad;
  /** The call goes through a property a table's entries share (src/analysis/dispatch.ts): `overrides` are the entries. */
  table?: true;
}

interface HelperEdit extends TextEdit {
  helper?: Helper;
  call: CallExpression | undefined;
  /** What the inlined code's names must be bound to once it is in place. */
  check?: BindingCheck;
}

/**
 * What the names of one inlined call must mean once it is in the handler: each name it uses from
 * outside the pasted code, with the binding it had where it was written (the helper's own free names
 * as renamed, the handler's arguments and statement).
 */
interface BindingCheck {
  label: string;
  expected: Map<string, string>;
  /** The names that must not be bound inside the pasted code (a declaration of the helper would take them). */
  outside: Set<string>;
  /** The statement's own name, which the block declares first and assigns as its result: every use of it in the block must be that one. */
  result?: string;
}

/**
 * Inlines every eligible helper call inside a rewritable handler of this file, in the project; a
 * same-file helper left with no caller (and not exported) is removed, and said so. A helper of
 * another file stays as it is (other callers may use it). Once in place, every name the inlined code
 * uses is checked by symbol to be bound to what it was bound to where it was written: a call that
 * fails is marked with the reason instead, and the pass is made again without it.
 */
export function inlineHelpers(sf: SourceFile, options: InlineOptions = {}): Inlining {
  const steps = inliningSteps(sf, options);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    setText(sf, step.value);
  }
}

/**
 * inlineHelpers as steps: each yields the text the file must have before the next step reads it, which
 * the caller sets. Setting a text throws the type checker away, and the next question builds a new one:
 * a caller inlining many files (src/pipeline.ts) sets every file's text before any step goes on, so all
 * of them share one checker per step instead of building one per file.
 */
export function* inliningSteps(sf: SourceFile, options: InlineOptions = {}): Generator<string, Inlining, void> {
  let refused = new Map<number, Exclusion | null>(options.exclude ?? []);
  let hoisting: { hoisted: CallHoisting; before: string; refused: Map<number, Exclusion | null> } | undefined;
  let triedHoisting = false;
  for (;;) {
    const before = sf.getFullText();
    const { edits, checks, statementless, hoistedRefused, ...found } = passEdits(sf, options, refused, hoisting?.hoisted.sites);
    // Awaited calls inside expressions are hoisted into statements of their own first (once per pass), then inlined.
    if (!triedHoisting && statementless.length > 0) {
      triedHoisting = true;
      const hoisted = hoistStatementless(sf, statementless, refused);
      if (hoisted) {
        hoisting = { hoisted: hoisted.hoisting, before, refused };
        refused = hoisted.refused;
        continue;
      }
    }
    const sites = hoisting?.hoisted.sites;
    if (hoisting && (hoistedRefused.size > 0 || !checks.some(c => sites!.has(c.call)))) {
      // A hoisted call refused all the same is left as written, refused with its reason; the others are
      // hoisted again (each round refuses one more call, so this ends). Hoisted for nothing: left as written.
      yield hoisting.before;
      refused = unhoisted(hoisting, [...refused, ...hoistedRefused]);
      hoisting = undefined;
      triedHoisting = hoistedRefused.size === 0;
      continue;
    }
    const pass = hoisting ? inPassText(found, hoisting.hoisted) : found;
    if (edits.length === 0) return { ...pass, text: undefined, excluded: refused };
    const applied = applyInOrder(before, edits);
    yield applied.text;
    const failed = new Map<number, Exclusion>();
    for (const { call, edit, check } of checks) {
      const why = misbound(sf, check, applied.range(edit), applied.place(sf.getFilePath()));
      if (why) failed.set(call, { reason: why, cause: MISBOUND });
    }
    if (failed.size === 0) {
      const excluded = new Map<number, Exclusion | null>();
      for (const [at, why] of refused) {
        const moved = applied.forward(at);
        if (moved !== undefined) excluded.set(moved, why);
      }
      return { ...pass, text: applied.text, excluded };
    }
    yield before;
    for (const [call, why] of failed) refused.set(call, why);
  }
}

/**
 * Hoists the awaited helper calls that are not statements of their own (src/analysis/hoist.ts), with
 * the refused calls' positions in the new text; undefined when none could be, or a refused call's
 * place would be lost (the file is then left as it was).
 */
function hoistStatementless(sf: SourceFile, calls: CallExpression[], refused: ReadonlyMap<number, Exclusion | null>): { hoisting: CallHoisting; refused: Map<number, Exclusion | null> } | undefined {
  const before = sf.getFullText();
  const names = (call: Node) => `${(call as CallExpression).getExpression().getText().split('.').pop()}Result`;
  const hoisting = hoistAwaitedCalls(sf, calls, awaited => conciseBody(awaited) !== undefined || awaitingStatement(awaited) !== undefined, names);
  if (!hoisting) return undefined;
  const moved = new Map<number, Exclusion | null>();
  for (const [at, why] of refused) {
    const to = hoisting.forward(at);
    if (to === undefined) {
      setText(sf, before);
      return undefined;
    }
    moved.set(to, why);
  }
  return { hoisting, refused: moved };
}

/** The refusals before the hoisting, and those of hoisted calls (`after`, in the hoisted text), where those calls were before it. */
function unhoisted(hoisting: { hoisted: CallHoisting; refused: Map<number, Exclusion | null> }, after: [number, Exclusion | null][]): Map<number, Exclusion | null> {
  const refused = new Map(hoisting.refused);
  for (const [at, why] of after) if (why && hoisting.hoisted.sites.has(at)) refused.set(hoisting.hoisted.back(at), why);
  return refused;
}

/** What a pass found, its calls' positions put back where they were in the file before the hoisting. */
function inPassText<T extends { inlined: { call: number; label: string }[]; splits: Split[] }>(found: T, hoisted: CallHoisting): T {
  return { ...found, inlined: found.inlined.map(i => ({ ...i, call: hoisted.back(i.call) })), splits: found.splits.map(x => ({ ...x, call: hoisted.back(x.call) })) };
}

function passEdits(
  sf: SourceFile,
  options: InlineOptions,
  refused: ReadonlyMap<number, Exclusion | null>,
  hoisted?: ReadonlySet<number>
): Omit<Inlining, 'text' | 'excluded'> & { edits: TextEdit[]; checks: { call: number; edit: TextEdit; check: BindingCheck }[]; statementless: CallExpression[]; hoistedRefused: Map<number, Exclusion> } {
  const rel = options.rel ?? ((p: string) => path.basename(p));
  const { edits, refusals, imports, splits, statementless, hoistedRefused } = inlineEdits(sf, options.depth ?? MAX_INLINE_DEPTH, refused, options.splitNames ?? new Map(), hoisted);
  const checks = edits.flatMap(e => (e.check && e.call ? [{ call: e.call.getStart(), edit: e as TextEdit, check: e.check }] : []));
  const labelled = checks.map(c => ({ call: c.call, label: c.check.label }));
  const helpers = new Map<string, number>();
  for (const e of edits) if (e.helper && e.check) helpers.set(helperKey(e.helper.fn), (helpers.get(helperKey(e.helper.fn)) ?? 0) + 1);
  const notes: string[] = [];
  const inlinedCalls = new Set(edits.map(e => e.call));
  const inlined = new Map<FunctionLike, { helper: Helper; calls: number }>();
  for (const e of edits) {
    if (!e.helper) continue;
    const entry = inlined.get(e.helper.fn) ?? { helper: e.helper, calls: 0 };
    entry.calls++;
    inlined.set(e.helper.fn, entry);
  }
  const importEdits = imports.edits();
  const unusedBindings: Node[] = [];
  for (const { helper, calls } of inlined.values()) {
    const helperFile = helper.fn.getSourceFile();
    if (helperFile !== sf) {
      const keepsName = edits.some(e => e.helper?.fn === helper.fn && e.namesHelper);
      const binding = !keepsName && !helper.load && unusedImport(sf, edits.filter(e => e.helper?.fn === helper.fn), inlinedCalls);
      if (binding) unusedBindings.push(binding);
      const loadEdit = !keepsName && helper.load && unusedLoadEdit(helper.load, inlinedCalls);
      if (loadEdit) edits.push({ ...loadEdit, call: undefined });
      const { line } = helperFile.getLineAndColumnAtPos(helper.fn.getStart());
      notes.push(`${rel(sf.getFilePath())}: ${helper.name}() from ${rel(helperFile.getFilePath())}:${line} inlined into ${calls === 1 ? 'the handler that calls it' : `the ${calls} handler calls to it`}, where it is migrated; ${rel(helperFile.getFilePath())} is left as it is, for its other callers`);
      continue;
    }
    const decl = helper.decl;
    const statement = Node.isVariableDeclaration(decl) ? decl.getVariableStatement() : decl;
    const nameNode = Node.isFunctionDeclaration(decl) || Node.isVariableDeclaration(decl) || (Node.isMethodDeclaration(decl) && callableOnlyHere(decl)) ? decl.getNameNode() : undefined;
    if (!statement || !nameNode || !Node.isIdentifier(nameNode)) continue;
    if ((Node.isFunctionDeclaration(statement) || Node.isVariableStatement(statement)) && statement.isExported()) continue;
    if (Node.isVariableStatement(statement) && statement.getDeclarations().length !== 1) continue;
    const refs = nameNode.findReferencesAsNodes().filter(r => r !== nameNode);
    const name = nameNode.getText();
    // A call through this: its callee is the property access around the name.
    const callOfRef = (r: Node) => (Node.isPropertyAccessExpression(r.getParent()) ? r.getParent()!.getParent() : r.getParent()) as CallExpression;
    const exportedLater =
      sf.getExportDeclarations().some(d => d.getNamedExports().some(n => n.getName() === name)) || sf.getExportAssignments().some(a => a.getExpression().getText() === name);
    if (exportedLater || refs.some(r => r.getSourceFile() !== sf || !inlinedCalls.has(callOfRef(r)))) continue;
    if (edits.some(e => e.helper?.fn === helper.fn && e.namesHelper)) continue;
    const { line } = sf.getLineAndColumnAtPos(statement.getStart());
    edits.push({ ...removalRange(sf.getFullText(), statement), text: '', call: undefined });
    notes.push(`${rel(sf.getFilePath())}:${line}: ${name}() removed: every call to it was inlined into the handlers, where it is migrated`);
  }
  edits.push(...unusedImportEdits(unusedBindings, importEdits, options.importedBefore, imports.reused).map(e => ({ ...e, call: undefined })));
  return { edits: [...edits, ...importEdits], checks, statementless, hoistedRefused, notes, refusals, inlined: labelled, helpers, splits, exports: imports.exports.map(e => ({ file: e.module.getFilePath(), name: e.name, ...(e.setter ? { setter: e.setter } : {}) })) };
}

/**
 * What removing a declaration takes: its lines, and one blank line around it (the one before, when it
 * is the last member of its class).
 */
export function removalRange(full: string, declaration: Node): { start: number; end: number } {
  let start = declaration.getStart(true);
  const lineStart = full.lastIndexOf('\n', start - 1) + 1;
  if (/^[ \t]*$/.test(full.slice(lineStart, start))) start = lineStart;
  const end = declaration.getEnd() + (full.slice(declaration.getEnd()).match(/^[ \t]*\n(?:[ \t]*\n)?/)?.[0].length ?? 0);
  if (/^[ \t]*\}/.test(full.slice(end)) && /\n[ \t]*\n$/.test(full.slice(0, start))) start = full.lastIndexOf('\n', start - 2) + 1;
  return { start, end };
}

/**
 * The edits applied (right to left, as the pipeline always has), with where each one's text is in
 * the result and, for a position of the result outside them, where it was before.
 */
function applyInOrder(before: string, edits: TextEdit[]): { text: string; range(edit: TextEdit): { start: number; end: number }; place(file: string): DeclarationPlace; forward(at: number): number | undefined } {
  const order = [...edits].sort((a, b) => b.start - a.start);
  let text = before;
  for (const e of order) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  // An edit's text moves by what every edit applied after it (to its left) added or removed.
  const starts = new Map<TextEdit, number>();
  let shift = 0;
  for (let i = order.length - 1; i >= 0; i--) {
    const e = order[i]!;
    starts.set(e, e.start + shift);
    shift += e.text.length - (e.end - e.start);
  }
  const ascending = [...order].reverse();
  const toBefore = (at: number): string => {
    let moved = 0;
    for (const [i, e] of ascending.entries()) {
      const start = starts.get(e)!;
      if (at < start) break;
      if (at < start + e.text.length) {
        // A declaration of the statement kept as written (`const size = ` before the result) is where it was.
        const inKept = e.kept && at - start >= e.kept.offset && at - start < e.kept.offset + e.kept.length;
        return inKept ? String(e.kept!.start + (at - start - e.kept!.offset)) : `inserted ${i}:${at - start}`;
      }
      moved += e.text.length - (e.end - e.start);
    }
    return String(at - moved);
  };
  return {
    text,
    range: e => ({ start: starts.get(e)!, end: starts.get(e)! + e.text.length }),
    place: file => decl => (decl.getSourceFile().fileName === file ? `${file}:${toBefore(decl.getStart())}` : placeAsIs(decl)),
    // A position of the text before: where it is now (undefined when an edit replaced it).
    forward: at => {
      let moved = 0;
      for (const e of ascending) {
        if (e.start <= at && at < e.end) return undefined;
        if (e.end <= at) moved += e.text.length - (e.end - e.start);
      }
      return at + moved;
    },
  };
}

/**
 * Why the inlined code in `range` of the edited file does not mean what it meant where it was
 * written, if it does not: a name bound to another declaration than before, or one a declaration
 * of the pasted code now takes.
 */
function misbound(sf: SourceFile, check: BindingCheck, range: { start: number; end: number }, place: DeclarationPlace): string | undefined {
  const ids: Node[] = [];
  sf.forEachDescendant((node, traversal) => {
    if (node.getEnd() <= range.start || node.getStart() >= range.end) traversal.skip();
    else if (Node.isIdentifier(node) && !notAReference(node) && !declaresName(node)) ids.push(node);
  });
  const file = path.basename(sf.getFilePath());
  for (const id of ids) {
    const name = id.getText();
    const parent = id.getParent();
    const symbol = parent && Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
    const decl = symbol?.getDeclarations()[0];
    if (decl && decl.getSourceFile() === sf && decl.getStart() >= range.start && decl.getEnd() <= range.end) {
      if (check.outside.has(name)) return `it declares ${name}, which would hide the ${name} it must use in ${file}`;
      // The result is the block's first declaration (`let name!: T;`): another of that name would take its assignments.
      if (name === check.result && decl.getStart() !== firstDeclaration(sf, range)) return `it declares ${name}, which would hide the ${name} it must use in ${file}`;
      continue;
    }
    const expected = check.expected.get(name);
    if (expected === undefined) return `${name} could not be checked in ${file}`;
    if (bindingOf(id, place) !== expected) return `it uses ${name}, which would mean something else in ${file} (rename one of them)`;
  }
  return undefined;
}

/** Where the first variable declaration of the pasted code starts: the result's. */
function firstDeclaration(sf: SourceFile, range: { start: number; end: number }): number | undefined {
  return sf.getDescendantAtPos(range.start)?.getFirstAncestorByKind(SyntaxKind.VariableStatement)?.getDeclarations()[0]?.getStart();
}

/** The import binding of a helper from another file, when every use of it in this file is inlined. */
function unusedImport(sf: SourceFile, helperEdits: HelperEdit[], inlinedCalls: Set<CallExpression | undefined>): Node | undefined {
  const callee = helperEdits.find(e => e.call)?.call?.getExpression();
  if (!callee || !Node.isIdentifier(callee)) return undefined;
  const binding = callee.getSymbol()?.getDeclarations()[0];
  if (!binding || !(Node.isImportSpecifier(binding) || Node.isImportClause(binding))) return undefined;
  const nameNode = Node.isImportSpecifier(binding) ? (binding.getAliasNode() ?? binding.getNameNode()) : binding.getDefaultImport();
  if (!nameNode || !Node.isIdentifier(nameNode)) return undefined;
  // An import binding is used in its own file only: its uses are the file's identifiers of its name bound to it
  // (asking the language service would search every file of the project).
  const symbol = nameNode.getSymbol();
  const refs = sf.getDescendantsOfKind(SyntaxKind.Identifier).filter(r => r !== nameNode && r.getText() === nameNode.getText() && bindsTo(r, symbol));
  return refs.every(r => inlinedCalls.has(r.getParent() as CallExpression)) ? binding : undefined;
}

/** Whether an identifier of the file reads `symbol` (`{ name }` by its value; an `export { name }` counts, whatever it exports). */
function bindsTo(id: Node, symbol: import('ts-morph').Symbol | undefined): boolean {
  const parent = id.getParent();
  if (parent && Node.isShorthandPropertyAssignment(parent)) return parent.getValueSymbol() === symbol;
  if (parent && Node.isExportSpecifier(parent)) return true;
  return id.getSymbol() === symbol;
}

/**
 * Imports of helpers whose every use was inlined, removed (an unused import fails `noUnusedLocals`
 * and linters); a declaration the user wrote left with no binding becomes `import './helpers.js';`,
 * so the module still loads, in the same order (one an earlier pass added goes). A declaration another edit changes, or whose default import stays
 * beside removed named ones, is left as it is.
 */
export function unusedImportEdits(bindings: Node[], importEdits: TextEdit[], importedBefore: ReadonlySet<string> | undefined, reused: ReadonlySet<string>): TextEdit[] {
  const byDeclaration = new Map<ImportDeclaration, Set<Node>>();
  for (const b of bindings) {
    // Still used: by another helper's inlined code, which imports the same name.
    const local = Node.isImportClause(b) ? b.getDefaultImport() : Node.isImportSpecifier(b) ? (b.getAliasNode() ?? b.getNameNode()) : b;
    if (local && reused.has(local.getText())) continue;
    const decl = b.getFirstAncestorByKind(SyntaxKind.ImportDeclaration);
    if (decl) byDeclaration.set(decl, (byDeclaration.get(decl) ?? new Set()).add(b));
  }
  const edits: TextEdit[] = [];
  for (const [decl, unused] of byDeclaration) {
    // An import added right after the declaration does not change it; names appended to its braces join
    // the names it keeps (`{ confirmSpend }` + `, setApproved` → `{ setApproved }`); any other edit inside it wins.
    const appended = appendedNames(decl, importEdits);
    if (decl.isTypeOnly() || !appended) continue;
    const insertedAfter = importEdits.some(e => e.start === decl.getEnd());
    const clause = decl.getImportClause();
    const named = decl.getNamedImports();
    const keptNamed = [...named.filter(n => !unused.has(n)).map(n => n.getText()), ...appended.names];
    const keepsDefault = decl.getDefaultImport() !== undefined && !(clause && unused.has(clause));
    if (keptNamed.length === 0 && !keepsDefault && !decl.getNamespaceImport()) {
      if (importedBefore && !importedBefore.has(decl.getModuleSpecifierValue())) {
        const source = decl.getSourceFile().getFullText();
        const lineEnd = source.indexOf('\n', decl.getEnd());
        edits.push({ start: decl.getStart(true), end: lineEnd < 0 || insertedAfter ? decl.getEnd() : lineEnd + 1, text: '' });
      } else edits.push({ start: decl.getStart(), end: decl.getEnd(), text: `import ${decl.getModuleSpecifier().getText()};` });
    } else if (named.some(n => unused.has(n)) && !(clause && unused.has(clause))) {
      const braces = decl.getFirstDescendantByKindOrThrow(SyntaxKind.NamedImports);
      const inner = braces.getText().slice(1, -1);
      const spaced = /^\s/.test(inner) ? ' ' : '';
      const text = keptNamed.length === 0 ? '' : `{${spaced}${keptNamed.join(', ')}${spaced}}`;
      if (!text) continue;
      edits.push({ start: braces.getStart(), end: braces.getEnd(), text });
      // The appended names are in the new braces: their own insertion goes.
      for (const e of appended.edits) importEdits.splice(importEdits.indexOf(e), 1);
    }
  }
  return edits;
}

/**
 * The names other edits append to a declaration's braces (the importer adds `, name` after its last named
 * import), and those edits; undefined when another edit changes the declaration otherwise.
 */
function appendedNames(decl: ImportDeclaration, importEdits: TextEdit[]): { names: string[]; edits: TextEdit[] } | undefined {
  const inside = importEdits.filter(e => e.start >= decl.getStart() && e.start < decl.getEnd());
  const last = decl.getNamedImports().at(-1);
  const appendsOnly = inside.every(e => last && e.start === last.getEnd() && e.end === e.start && /^(, [\w$][\w$ ]*)+$/.test(e.text));
  if (!appendsOnly) return undefined;
  return { names: inside.flatMap(e => e.text.split(', ').filter(Boolean)), edits: inside };
}

function inlineEdits(
  sf: SourceFile,
  depth: number,
  refused: ReadonlyMap<number, Exclusion | null>,
  splitNames: Map<string, SplitNames>,
  hoisted: ReadonlySet<number> | undefined
): { edits: HelperEdit[]; refusals: Refusal[]; imports: Importer; splits: Split[]; statementless: CallExpression[]; hoistedRefused: Map<number, Exclusion> } {
  const edits: HelperEdit[] = [];
  const statementless: CallExpression[] = [];
  // Hoisted calls refused all the same: if none is inlined, each is refused where it was, with this reason.
  const hoistedRefused = new Map<number, Exclusion>();
  const splits: Split[] = [];
  const refusals: Refusal[] = [];
  const fresh = nameAllocator(identifierTexts(sf));
  const imports = new Importer(sf, fresh);
  const reach = new Reacher();
  const marked = new Set<Statement>();
  const registrations = new Map<FunctionLike, ReturnType<typeof registrationOf>>();
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isIdentifier(callee) && !Node.isPropertyAccessExpression(callee)) continue;
    const handler = enclosingFunction(call);
    if (!handler) continue;
    if (!registrations.has(handler)) registrations.set(handler, registrationOf(handler));
    const registration = registrations.get(handler);
    if (!registration) continue;
    const helper = helperOf(callee);
    if (!helper || helper.fn === handler) continue;
    const crossFile = helper.fn.getSourceFile() !== sf;
    const reached = reach.of(helper, channelParams(call, helper.fn, () => false), []);
    if (!reached) continue;
    const what = reached.kind === 'request' ? 'request' : `${reached.kind} request`;
    const refuse = (reason: string, cause: string) => {
      const stmt = call.getFirstAncestor(a => Node.isStatement(a) && !Node.isBlock(a)) as Statement | undefined;
      if (!stmt) return;
      refusals.push({ reason, cause, kind: reached.kind, call: `${callee.getText()}(...)`, handler: registration.label });
      const text = `// mcp-migrate: ${reason}`;
      const place = markerPlace(stmt);
      if (marked.has(stmt) || place.above.some(c => c.includes(text))) return;
      marked.add(stmt);
      edits.push({ start: place.at, end: place.at, text: `${text}\n${place.indent}`, call: undefined });
    };
    // A handler that only hands its call on: the callee is migrated in place as its delegate (src/analysis/delegates.ts).
    const delegation = delegationOf(handler);
    // A table's entries that cannot be the handler's delegates: the call keeps the dispatch's marker, saying why.
    const notDelegates = delegation?.call === call ? delegation.table?.refused : undefined;
    if (delegation?.call === call && !notDelegates) {
      if (delegation.refused) refuse(delegation.refused.reason, delegation.refused.cause);
      continue;
    }
    if (reached.cycle) {
      refuse(`${reached.cycle.map(n => `${n}()`).join(' → ')} is a cycle of helpers: not inlined (a recursive helper is never unrolled), so its ${what} is not migrated; break the cycle, or return inputRequired from the handler by hand`, 'a cycle of helpers (never unrolled)');
      continue;
    }
    if (reached.depth > depth) {
      refuse(`${helper.name}() reaches its ${what} through ${reached.depth} levels of helpers, more than the ${MAX_INLINE_DEPTH} that are inlined; call the inner helper from the handler, or migrate by hand`, `more than ${MAX_INLINE_DEPTH} levels of helpers`);
      continue;
    }
    if (helper.table) {
      const asking = helper.overrides!.flatMap(fn => {
        const r = reach.of({ fn, name: helper.name, decl: fn }, new Set(), []);
        return r ? [`${entryLabel(fn)} (${r.kind === 'request' ? 'requests' : r.kind})`] : [];
      });
      refuse(dispatchRefusal(helper, callee as import('ts-morph').PropertyAccessExpression, asking, notDelegates), 'helper not inlined: a call through a table of entries, any of which it may run');
      continue;
    }
    if (helper.overrides) {
      const classes = [...new Set(helper.overrides.map(o => o.getFirstAncestorByKind(SyntaxKind.ClassDeclaration)?.getName() ?? 'a class'))].join(', ');
      refuse(`${helper.name}() is not inlined: ${callee.getText()}(...) runs the ${helper.name}() of whichever class the instance is (${classes}), so no one body can be inlined into the handler, and the requests they make are not migrated; register each class's tool with a handler of its own that calls its ${helper.name}() (that call is inlined), or migrate by hand`, 'helper not inlined: a method that subclasses override');
      continue;
    }
    let receiver: Receiver | undefined;
    if (!Node.isIdentifier(callee)) {
      const bound = Node.isMethodDeclaration(helper.fn) ? receiverOf(callee as import('ts-morph').PropertyAccessExpression, handler) : undefined;
      if (!bound) {
        refuse(`${helper.name}() is not inlined: it is called as ${callee.getText()}(...), a member, not by a name of its own, so its ${what} is not migrated; call a function by its name from the handler, or migrate by hand`, 'helper not inlined: called as a method or member');
        continue;
      }
      const why = 'refused' in bound ? bound : methodIneligibility(helper.fn as import('ts-morph').MethodDeclaration, bound, handler);
      if (why) {
        refuse(`${helper.name}() ${crossFile ? `(${path.basename(helper.fn.getSourceFile().getFilePath())}) ` : ''}is not inlined: ${why.refused}, so its ${what} is not migrated; ${why.fix}`, `helper not inlined: ${why.cause}`);
        continue;
      }
      receiver = bound as Receiver;
    }
    const keptLazy = helper.load && lazyRefusal(helper.load, helper.fn);
    if (helper.notInlined ?? keptLazy) {
      const { why, fix, cause } = (helper.notInlined ?? keptLazy)!;
      refuse(`${helper.name}() (${path.basename(helper.fn.getSourceFile().getFilePath())}) is not inlined: ${why}, so its ${what} is not migrated; ${fix}`, `helper not inlined: ${cause}`);
      continue;
    }
    const filler = receiver ? undefined : cacheFillerOf(helper.fn, helper.name);
    if (filler) {
      const excluded = refused.get(call.getStart());
      if (excluded === null) continue;
      const split = excluded ? { refused: excluded.reason, cause: excluded.cause } : 'refused' in filler ? filler : splitCallOf(call, filler, helperKey(helper.fn), splitNames, crossFile ? imports : undefined);
      if ('refused' in split) {
        const where = crossFile ? ` (${path.basename(helper.fn.getSourceFile().getFilePath())})` : '';
        refuse(`${helper.name}()${where} fills a cache, but is not split into a read of it and a fill from the answer: ${split.refused}, so its ${what} is not migrated; have the tool read the cache and ask only when it is empty (return inputRequired, fill the cache from the answer on the retry), or migrate by hand`, `cache filler not split: ${split.cause}`);
        continue;
      }
      edits.push({ ...split.edit, call });
      splits.push({ key: helperKey(helper.fn), module: helper.fn.getSourceFile().getFilePath(), helper: helper.name, names: split.names, read: split.read, call: call.getStart(), handler: registration.label });
      continue;
    }
    const why = ineligibility(helper, call, sf, receiver !== undefined);
    if (why) {
      refuse(`${helper.name}() ${crossFile ? `(${path.basename(helper.fn.getSourceFile().getFilePath())}) ` : ''}is not inlined: ${why}, so its ${what} is not migrated; migrate it by hand`, `helper not inlined: ${why}`);
      continue;
    }
    const excluded = refused.get(call.getStart());
    if (excluded === null) continue;
    const edit = excluded ? { refused: excluded.reason, cause: excluded.cause } : inlineCall(call, helper, handler, fresh, crossFile ? imports : undefined, receiver);
    if ('statementless' in edit) statementless.push(call);
    if ('refused' in edit && hoisted?.has(call.getStart())) hoistedRefused.set(call.getStart(), { reason: edit.refused, cause: edit.cause ?? edit.refused });
    if ('refused' in edit) {
      refuse(`${helper.name}() ${crossFile ? `(${path.basename(helper.fn.getSourceFile().getFilePath())}) ` : ''}is not inlined: ${edit.refused}, so its ${what} is not migrated`, `helper not inlined: ${edit.cause ?? edit.refused}`);
      continue;
    }
    edits.push({ ...edit, helper, call });
    const stale = forwardingFinding(call, edit.start);
    if (stale) edits.push({ ...stale, call: undefined });
  }
  return { edits, refusals, imports, splits, statementless, hoistedRefused };
}

/**
 * The official codemod's finding above an inlined call that it forwards the handler's context to the helper
 * (`/* @mcp-codemod-error The context object is forwarded to confirm(…) ... *\/`): no longer true once the
 * call is inlined, and left it would keep `--check` red. The comment goes, or only that finding when the
 * comment joins others. `start`: where the inlined statement starts.
 */
function forwardingFinding(call: CallExpression, start: number): TextEdit | undefined {
  const stmt = call.getAncestors().find(a => Node.isStatement(a) && a.getStart() === start);
  const finding = `The context object is forwarded to ${call.getExpression().getText()}(…)`;
  for (const range of stmt?.getLeadingCommentRanges() ?? []) {
    const text = range.getText();
    const at = text.indexOf(CODEMOD_MARKER);
    if (at < 0 || !text.endsWith('*/')) continue;
    const findings = text.slice(at + CODEMOD_MARKER.length, -2).trim().split(' | ');
    const kept = findings.filter(f => !f.startsWith(finding));
    if (kept.length === findings.length) continue;
    if (kept.length > 0) return { start: range.getPos(), end: range.getEnd(), text: `/* ${CODEMOD_MARKER} ${kept.join(' | ')} */` };
    const full = call.getSourceFile().getFullText();
    const lineStart = full.lastIndexOf('\n', range.getPos() - 1) + 1;
    const lineEnd = full.indexOf('\n', range.getEnd());
    // Alone on its line (the codemod writes it so): the line goes, and the statement keeps its indentation.
    if (!/^[ \t]*$/.test(full.slice(lineStart, range.getPos())) || lineEnd < 0 || full.slice(range.getEnd(), lineEnd).trim() !== '') return { start: range.getPos(), end: range.getEnd(), text: '' };
    return { start: lineStart, end: lineEnd + 1, text: '' };
  }
  return undefined;
}

/**
 * Where a marker goes above a statement: before it, or, when it does not start its line (`} else if (...)`),
 * at the start of that line, so it is not a trailing comment of what precedes it; with the comment lines above.
 */
function markerPlace(stmt: Statement): { at: number; indent: string; above: string[] } {
  const full = stmt.getSourceFile().getFullText();
  const lineStart = stmt.getStartLinePos();
  const indent = /^[ \t]*/.exec(full.slice(lineStart))![0];
  const at = lineStart + indent.length;
  const above: string[] = [];
  for (const line of full.slice(0, lineStart).split('\n').reverse().slice(1)) {
    if (!line.trim().startsWith('//')) break;
    above.push(line);
  }
  return { at, indent, above };
}

/** Why a call through a table's property is not inlined: the entries it may run, and those of them that ask. */
/**
 * The marker of a call through a table; `notDelegates` says why the handler, which only returns the
 * call, does not have the entries that ask migrated as its delegates (src/analysis/tableDelegates.ts).
 */
function dispatchRefusal(helper: Helper, callee: import('ts-morph').PropertyAccessExpression, asking: string[], notDelegates?: { why: string; fix: string }): string {
  const entries = helper.overrides!.length;
  const receiver = unwrap(callee.getExpression()).getText();
  const which = entries === 1 ? `of whatever ${receiver} is (one entry of the project declares it)` : `of whichever of ${entries} entries ${receiver} is`;
  const ask = asking.length === 1 ? (entries === 1 ? 'it asks' : '1 of them asks') : `${asking.length} of them ask`;
  const those = asking.length === 1 ? 'that entry' : 'those entries';
  const delegates = notDelegates ? `; nor ${asking.length === 1 ? 'is it' : 'are they'} migrated as the handler's delegates: ${notDelegates.why}` : '';
  const fix = notDelegates ? `${notDelegates.fix}, or migrate ${those} by hand` : `migrate ${those} by hand`;
  return `${helper.name}() is not inlined: ${callee.getText()}(...) dispatches to the ${helper.name}() ${which}, and ${ask} the client (${asking.join(', ')}), so no body can be inlined into the handler (the call does not name one), and ${asking.length === 1 ? 'its request is' : 'their requests are'} not migrated${delegates}; ${fix} (${asking.length === 1 ? 'it returns' : 'each returns'} inputRequired, and this handler returns that result as it is)`;
}

/**
 * A handler's call of a cache filler, split (src/analysis/cacheFiller.ts): the read and the fill
 * imported from the helper's module when it is another one, under the names the run gave them.
 */
function splitCallOf(call: CallExpression, filler: CacheFiller, key: string, splitNames: Map<string, SplitNames>, imports: Importer | undefined): { edit: TextEdit; names: SplitNames; read: string } | { refused: string; cause: string } {
  const names = splitNames.get(key) ?? splitNames.set(key, splitNamesOf(filler)).get(key)!;
  // Checked before anything is imported: a call refused here adds no import.
  const form = splitCall(call, filler, names, undefined);
  if ('refused' in form) return form;
  const module = filler.fn.getSourceFile();
  const specifier = imports && importableAs(call.getSourceFile(), module.getFilePath(), specifierFor(call.getSourceFile(), module.getFilePath()));
  if (imports && !specifier) return { refused: `its module could only be imported by a path into another package; map it in the tsconfig.json paths of the handler's package`, cause: 'its module could only be imported by a path into another package' };
  // The local is typed as the cache is, its names imported where they are another module's.
  const cacheType = filler.cache.getTypeNode();
  const renames = new Map<Node, string>();
  const problem = cacheType && imports ? importFreeNames({ fn: filler.fn, name: filler.name, decl: filler.fn }, [cacheType], call, imports, renames) : undefined;
  if (problem) return { refused: problem, cause: /means something else/.test(problem) ? MISBOUND : 'its cache\'s type cannot be imported at the call' };
  const renamed = cacheType && applyEdits(cacheType.getText(), cacheType.getStart(), referencesIn(cacheType).flatMap(id => {
    const to = renames.get(declarationOf(id)!);
    return to ? [{ start: id.getStart(), end: id.getEnd(), text: to }] : [];
  }));
  const split = splitCall(call, filler, names, renamed) as CallSplit;
  const local = (name: string) =>
    imports ? imports.local({ specifier: specifier!, target: module, kind: 'named', name, typeOnly: false, binding: `${module.getFilePath()}: the split's ${name}` }, name, call) : name;
  const locals = { read: local(names.read), fill: local(names.fill) };
  return { edit: { start: split.start, end: split.end, text: split.text(locals) }, names, read: locals.read };
}

/** A helper function as the report knows it, whatever the edits around it: its file and the name it is declared by. */
export function helperKey(fn: FunctionLike): string {
  const parent = fn.getParent();
  const name = Node.isFunctionDeclaration(fn)
    ? (fn.getName() ?? 'default')
    : Node.isMethodDeclaration(fn)
      ? `${fn.getParentIfKind(SyntaxKind.ClassDeclaration)?.getName() ?? ''}.${fn.getName()}`
      : parent && Node.isVariableDeclaration(parent)
        ? parent.getName()
        : parent && Node.isExportAssignment(parent)
          ? 'default'
          : `@${fn.getStart()}`;
  return `${fn.getSourceFile().getFilePath()}\0${name}`;
}

/** The project function a callee names, through imports, re-exports and default exports. */
export function helperOf(callee: Node): Helper | undefined {
  const e = unwrap(callee);
  if (Node.isPropertyAccessExpression(e)) return memberOf(e);
  if (!Node.isIdentifier(e)) return undefined;
  const loaded = dynamicLoadOf(e);
  // Declared like any helper of its module (what makes it one that can be inlined), loaded by the binding.
  if (loaded) return { fn: loaded.fn, name: e.getText(), decl: Node.isFunctionDeclaration(loaded.fn) ? loaded.fn : (loaded.fn.getParent() ?? loaded.fn), load: loaded.load };
  let decl: Node | undefined = resolved(e);
  let fn: Node | undefined;
  for (let i = 0; i < 4 && decl && Node.isExportAssignment(decl); i++) {
    const x = unwrap(decl.getExpression());
    if (Node.isArrowFunction(x) || Node.isFunctionExpression(x)) {
      fn = x;
      break;
    }
    decl = Node.isIdentifier(x) ? resolved(x) : undefined;
  }
  if (!fn && decl) fn = Node.isVariableDeclaration(decl) ? (decl.getInitializer() && unwrap(decl.getInitializer()!)) : decl;
  if (!fn || !decl || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
  const file = fn.getSourceFile();
  if (file.isDeclarationFile() || file.isInNodeModules()) return undefined;
  // The module the tool writes is the migrated code's runtime, not a helper of the user's to inline.
  if (isStateModuleFile(file.getFilePath())) return undefined;
  const name = Node.isFunctionDeclaration(decl) ? (decl.getName() ?? e.getText()) : Node.isVariableDeclaration(decl) ? decl.getName() : e.getText();
  return { fn: fn as FunctionLike, name, decl, notInlined: outsideTheRun(file) };
}

/**
 * A module the type checker read from disk (not one of the files this run migrates, which the
 * pipeline gives it, upgraded): its code is not pasted as it is, un-upgraded, into a handler.
 */
function outsideTheRun(file: SourceFile): Helper['notInlined'] {
  if (!file.isSaved()) return undefined;
  return { why: `${path.basename(file.getFilePath())} is not one of the files this run migrates`, fix: 'run mcp-migrate over its files and the handler\'s together, or migrate by hand', cause: 'its module is not one of the files the run migrates' };
}

/**
 * A method or a function-valued member a call reaches through `this.ask`, `obj.ask` or `ns.ask`: never
 * inlined, but followed; through a table's property (`t.invoke`), every entry the call may run.
 */
function memberOf(access: import('ts-morph').PropertyAccessExpression): Helper | undefined {
  if (!projectMayDeclareMember(access, access.getName()) || libraryObject(access.getExpression())) return undefined;
  const entries = entriesOf(access);
  if (entries) return { fn: entries[0]!, name: access.getName(), decl: entries[0]!, overrides: entries, table: true };
  const decl = namedEntry(access) ?? resolved(access.getNameNode());
  if (!decl) return undefined;
  const value = Node.isPropertyAssignment(decl) || Node.isPropertyDeclaration(decl) || Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
  const fn = value && unwrap(value);
  if (!fn || !(Node.isMethodDeclaration(fn) || Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
  if (fn.getSourceFile().isDeclarationFile() || fn.getSourceFile().isInNodeModules()) return undefined;
  const overrides = Node.isMethodDeclaration(fn) ? overridesOf(fn, receiverClass(access.getExpression())) : [];
  if (Node.isMethodDeclaration(fn) && (overrides.length > 0 || !fn.getBody())) {
    return { fn: fn as FunctionLike, name: access.getName(), decl, overrides: [...(fn.getBody() ? [fn as FunctionLike] : []), ...overrides] };
  }
  return { fn: fn as FunctionLike, name: access.getName(), decl };
}

/**
 * `z.object(...)`, `JSON.stringify(...)`, `path.join(...)`: a member of an object a package or the
 * standard library declares (a global, or a name imported from a package), never a function of the
 * project. Said from the name's declaration alone, without the object's type, which for zod's `z` alone
 * instantiates a good part of zod's types.
 */
function libraryObject(receiver: Node): boolean {
  const e = unwrap(receiver);
  if (!Node.isIdentifier(e)) return false;
  const symbol = e.getSymbol();
  const declarations = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
  return declarations.length > 0 && declarations.every(d => d.getSourceFile().isInNodeModules() || d.getSourceFile().isFromExternalLibrary());
}

/**
 * What a name declares, through imports; through a tsconfig.json `paths` alias too, which the analysis
 * does not resolve (the module is read from disk when it is not one of the run's files).
 */
function resolved(id: Node): Node | undefined {
  const symbol = id.getSymbol();
  if (!symbol?.isAlias()) return symbol?.getDeclarations()[0];
  const target = symbol.getAliasedSymbol()?.getDeclarations()[0];
  if (target) return target;
  const alias = symbol.getDeclarations()[0];
  const importDecl = alias?.getFirstAncestorByKind(SyntaxKind.ImportDeclaration);
  if (!alias || !importDecl || !(Node.isImportSpecifier(alias) || Node.isImportClause(alias))) return undefined;
  const file = resolveThroughPaths(id.getSourceFile().getFilePath(), importDecl.getModuleSpecifierValue());
  const project = id.getProject();
  const module = file ? (project.getSourceFile(file) ?? project.addSourceFileAtPathIfExists(file)) : undefined;
  return module?.getExportedDeclarations().get(Node.isImportSpecifier(alias) ? alias.getName() : 'default')?.[0];
}

/** Why a helper loaded with `import()` is not inlined: its body reads its own module, which inlining would import up front. */
function lazyRefusal(load: DynamicLoad, fn: FunctionLike): Helper['notInlined'] {
  const read = moduleValueRead(fn);
  if (!read) return undefined;
  return {
    why: `it is loaded with import(${load.specifier}) when the handler runs and uses ${read} of its module, which inlining would import up front`,
    fix: 'import it with an import declaration to have it inlined, or migrate by hand',
    cause: 'loaded with import() when the handler runs',
  };
}

/** Which parameters of `fn` receive a request channel (or a server) at this call. */
function channelParams(call: CallExpression, fn: FunctionLike, outerChannel: (decl: Node) => boolean): Set<Node> {
  const params = fn.getParameters();
  const found = new Set<Node>();
  call.getArguments().forEach((arg, i) => {
    const p = params[i];
    if (!p || p.getDotDotDotToken()) return;
    if (isChannel(arg, outerChannel)) found.add(p);
    else heldServers(p, arg, found);
    // `ask({ server: mcp.server, ... })` received as `ask({ server, ... })`: the binding is the channel.
    const pattern = p.getNameNode();
    if (!Node.isObjectBindingPattern(pattern)) return;
    for (const element of pattern.getElements()) {
      if (element.getDotDotDotToken()) continue;
      const key = element.getPropertyNameNode()?.getText() ?? element.getName();
      const value = objectProperty(arg, key);
      if (value && isChannel(value, outerChannel)) found.add(element);
    }
  });
  return found;
}

/**
 * The fields through which a parameter reaches a server: `askUser(this, q)` received as `ctx`, where
 * `this.mcp` is an McpServer, and read as `ctx.mcp.server.elicitInput(...)`. Only those fields lead to a
 * request, so `ctx.logger.request(...)` stays what it is.
 */
const serverHolders = new WeakMap<Node, Set<string>>();

function heldServers(param: Node, arg: Node, found: Set<Node>): void {
  const a = unwrap(arg);
  if (!Node.isIdentifier(a) && !Node.isThisExpression(a) && !Node.isPropertyAccessExpression(a)) return;
  const fields = serverFieldsOf(a);
  if (fields.length === 0) return;
  serverHolders.set(param, new Set(fields));
  found.add(param);
}

/** `extra.sendRequest`, `ctx.mcpReq.send`, `ctx.mcpReq`, the handler's `extra`/`ctx`, an SDK server, or a parameter that received one. */
function isChannel(arg: Node, outerChannel: (decl: Node) => boolean): boolean {
  const a = unwrap(arg);
  if (Node.isIdentifier(a)) {
    const decl = a.getSymbol()?.getDeclarations()[0];
    if (decl && outerChannel(decl)) return true;
  }
  if (Node.isPropertyAccessExpression(a)) {
    const name = a.getName();
    if (name === 'sendRequest' && (isHandlerExtra(a.getExpression()) || serverKindOf(a.getExpression()) !== undefined)) return true;
    if (name === 'send' && isMcpReq(a.getExpression())) return true;
  }
  if (isHandlerExtra(a) || isMcpReq(a)) return true;
  return (Node.isIdentifier(a) || Node.isPropertyAccessExpression(a)) && serverKindOf(a) !== undefined;
}

const REQUEST_NAMES = new Set(['createMessage', 'elicitInput', 'listRoots', 'sendRequest', 'request', 'requestSampling', 'send']);

const KIND_BY_NAME: Record<string, SiteKind> = { createMessage: 'sampling', requestSampling: 'sampling', elicitInput: 'elicitation', listRoots: 'roots' };

/** The request a body makes through one of these parameters (calls it, or a request method on it, its `server` or `mcpReq`), if any. */
function channelUse(body: Node, channels: Set<Node>): SiteKind | undefined {
  for (const id of body.getDescendantsOfKind(SyntaxKind.Identifier)) {
    const decl = id.getSymbol()?.getDeclarations()[0];
    if (!decl || !channels.has(decl)) continue;
    let n: Node = id;
    const parent = n.getParent();
    const holds = serverHolders.get(decl);
    if (!holds && parent && Node.isCallExpression(parent) && parent.getExpression() === n) return kindOfRequest(parent);
    for (let hops = 0; hops < (holds ? 3 : 2); hops++) {
      const access = n.getParent();
      if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== n) break;
      // A holder of a server: its first hop must be one of the fields that hold one.
      if (holds && hops === 0) {
        if (!holds.has(access.getName())) break;
        n = access;
        continue;
      }
      const call = access.getParent();
      if (REQUEST_NAMES.has(access.getName()) && call && Node.isCallExpression(call) && call.getExpression() === access) return KIND_BY_NAME[access.getName()] ?? kindOfRequest(call);
      if (access.getName() !== 'server' && access.getName() !== 'mcpReq') break;
      n = access;
    }
  }
  return undefined;
}

/** The kind of a `send({ method, params })` call, from its method where it is written out. */
function kindOfRequest(call: CallExpression): SiteKind {
  const method = literalString(objectProperty(constObjectLiteral(call.getArguments()[0]), 'method'));
  return method === 'sampling/createMessage' ? 'sampling' : method === 'elicitation/create' ? 'elicitation' : method === 'roots/list' ? 'roots' : 'request';
}

interface Reached {
  kind: SiteKind;
  /** How many helpers deep the deepest request is (1: in the helper itself). */
  depth: number;
  /** The helpers of a cycle, the first repeated at the end. */
  cycle?: string[];
}

/**
 * Whether a helper reaches a server-initiated request, itself or through the helpers it calls. A
 * recursion counts only when a member of the cycle reaches a request: a recursive tree walk is no site.
 */
class Reacher {
  private readonly sites = new Map<SourceFile, Site[]>();
  private readonly reachesMemo = new Map<FunctionLike, boolean>();

  of(helper: Helper, channels: Set<Node>, stack: Helper[]): Reached | undefined {
    const at = stack.findIndex(s => s.fn === helper.fn);
    if (at >= 0) {
      // Every member of a cycle reaches every other: the cycle matters when one of them reaches a request.
      if (!this.reaches(helper, channels, new Set())) return undefined;
      return { kind: 'request', depth: stack.length, cycle: [...stack.slice(at), helper].map(s => s.name) };
    }
    if (stack.length > MAX_INLINE_DEPTH + 2) return undefined;
    if (helper.overrides) return this.ofAny(helper, stack);
    const body = helper.fn.getBody();
    if (!body) return undefined;
    let kind = this.ownKind(helper, channels);
    let depth = kind ? 1 : 0;
    for (const call of this.callsIn(helper.fn)) {
      const inner = helperOf(call.getExpression());
      if (!inner) continue;
      const r = this.of(inner, channelParams(call, inner.fn, d => channels.has(d)), [...stack, helper]);
      if (!r) continue;
      if (r.cycle) return { ...r, kind: kind ?? r.kind };
      kind ??= r.kind;
      depth = Math.max(depth, r.depth + 1);
    }
    return kind ? { kind, depth } : undefined;
  }

  /** What a call of a method its subclasses override reaches: the deepest request of any body it may run. */
  private ofAny(helper: Helper, stack: Helper[]): Reached | undefined {
    let found: Reached | undefined;
    for (const fn of helper.overrides!) {
      const r = this.of({ fn, name: helper.name, decl: fn }, new Set(), stack);
      if (r?.cycle) return r;
      // Bodies making requests of different kinds: the call reaches a request, of no one kind.
      if (r) found = { kind: found && found.kind !== r.kind ? 'request' : r.kind, depth: Math.max(found?.depth ?? 0, r.depth) };
    }
    return found;
  }

  /** Whether any path of calls from the helper reaches a request, however deep, cycles walked once. */
  private reaches(helper: Helper, channels: Set<Node>, visiting: Set<FunctionLike>): boolean {
    const memoised = channels.size === 0 ? this.reachesMemo.get(helper.fn) : undefined;
    if (memoised !== undefined) return memoised;
    if (helper.overrides) return helper.overrides.some(fn => this.reaches({ fn, name: helper.name, decl: fn }, new Set(), visiting));
    if (visiting.has(helper.fn) || !helper.fn.getBody()) return false;
    visiting.add(helper.fn);
    let found = this.ownKind(helper, channels) !== undefined;
    for (const call of found ? [] : this.callsIn(helper.fn)) {
      const inner = helperOf(call.getExpression());
      if (inner && this.reaches(inner, channelParams(call, inner.fn, d => channels.has(d)), visiting)) {
        found = true;
        break;
      }
    }
    // Only a complete answer is kept: one cut short by a cycle in progress may change.
    if (channels.size === 0 && (found || visiting.size === 1)) this.reachesMemo.set(helper.fn, found);
    return found;
  }

  /** The request the helper makes itself, or through a request channel it was handed. */
  private ownKind(helper: Helper, channels: Set<Node>): SiteKind | undefined {
    // A request in a callback the helper runs (`lock.runExclusive(async () => ...)`) is the helper's too.
    const own = this.sitesOf(helper.fn.getSourceFile()).find(s => s.fn !== undefined && runBy(s.fn, helper.fn));
    if (own) return own.kind;
    return channels.size > 0 ? channelUse(helper.fn.getBody()!, channels) : undefined;
  }

  private callsIn(fn: FunctionLike): CallExpression[] {
    return fn.getBody()!.getDescendantsOfKind(SyntaxKind.CallExpression).filter(call => enclosingFunction(call) === fn);
  }

  private sitesOf(sf: SourceFile): Site[] {
    let found = this.sites.get(sf);
    if (!found) this.sites.set(sf, (found = findSites(sf)));
    return found;
  }
}

/** The kind of request a function makes, itself or through the helpers it calls (a table's entry, say), if it makes one. */
export function requestReached(fn: FunctionLike, name: string): SiteKind | undefined {
  return new Reacher().of({ fn, name, decl: fn }, new Set(), [])?.kind;
}

/**
 * Whether `fn` is `helper` or a callback written in it that the helper runs: not a handler it registers
 * (`registerTools()` holding `server.registerTool(..., async () => ...)` makes no request of its own).
 */
function runBy(fn: FunctionLike, helper: FunctionLike): boolean {
  for (let f: FunctionLike | undefined = fn; f; f = enclosingFunction(f)) {
    if (f === helper) return true;
    if (handlerRegistrationOf(f) || registeredWrapperCallOf(f)) return false;
  }
  return false;
}

/** Why a helper cannot be moved into the handler as it is, or undefined when it can. */
function ineligibility(helper: Helper, call: CallExpression, sf: SourceFile, throughReceiver: boolean): string | undefined {
  const { fn, decl } = helper;
  const body = fn.getBody();
  if (!body || !Node.isBlock(body) || !(fn as unknown as { isAsync(): boolean }).isAsync()) return 'it is not an async function with a block body';
  const helperFile = fn.getSourceFile();
  if (helperFile !== sf) {
    if (/\.c[jt]s$/.test(helperFile.getFilePath()) || /\.c[jt]s$/.test(sf.getFilePath()) || isCommonJsFile(sf)) return 'CommonJS modules are not inlined across files';
    if (/\.[cm]?tsx?$/.test(helperFile.getFilePath()) && /\.[cm]?jsx?$/.test(sf.getFilePath())) return 'its TypeScript would not be JavaScript in the handler\'s file';
  }
  let container: Node | undefined;
  if (Node.isFunctionDeclaration(decl)) container = decl.getParent();
  else if (Node.isVariableDeclaration(decl)) {
    const statement = decl.getVariableStatement();
    if (statement?.getDeclarationKind() !== 'const') return 'it is not declared with const';
    container = statement.getParent();
  } else if (Node.isExportAssignment(decl)) container = decl.getParent();
  else if (Node.isMethodDeclaration(decl) && throughReceiver) container = decl.getParent().getParent();
  else return 'it is not a function declaration or a const';
  const atModuleLevel = container !== undefined && Node.isSourceFile(container);
  if (helperFile !== sf && !atModuleLevel) return 'it is not declared at module level';
  if (!atModuleLevel && !(container && call.getFirstAncestor(a => a === container))) return 'it is not declared in a scope around the handler';
  if (fn.getParameters().some(p => !Node.isIdentifier(p.getNameNode()) || p.getDotDotDotToken())) return 'a parameter is destructured or a rest parameter';
  for (const d of body.getDescendants()) {
    if (d.getKind() === SyntaxKind.ThisKeyword && !(throughReceiver && thisOwner(d) === fn)) return 'it uses this';
    if (Node.isIdentifier(d) && d.getText() === 'arguments') return 'it uses arguments';
    if (Node.isVariableDeclarationList(d) && d.getDeclarationKind() === 'var') return 'it declares a var';
    if (Node.isYieldExpression(d)) return 'it is a generator';
    if (Node.isLabeledStatement(d)) return 'it has a labelled statement';
  }
  return undefined;
}

function isCommonJsFile(sf: SourceFile): boolean {
  return sf.getImportDeclarations().length === 0 && sf.getDescendantsOfKind(SyntaxKind.CallExpression).some(c => c.getExpression().getText() === 'require');
}

/**
 * The statement forms a call can be inlined from: the statement then reads the helper's result from a fresh
 * variable, or, declaring a variable of its own with the call's value (`const name = await f(...)`, one hoisted
 * out of an expression by src/analysis/hoist.ts too), has the block assign that variable as the result.
 */
function inlineCall(
  call: CallExpression,
  helper: Helper,
  handler: FunctionLike,
  fresh: (base: string) => string,
  imports: Importer | undefined,
  receiver: Receiver | undefined
): (TextEdit & { check: BindingCheck }) | { refused: string; cause?: string; statementless?: true } {
  const fn = helper.fn;
  const helperName = call.getExpression().getText();
  const awaited = call.getParent();
  if (!awaited || !Node.isAwaitExpression(awaited)) return { refused: 'the call is not awaited where it is made' };
  // `async args => await f(...)`: read as `async args => { return await f(...); }`, the body it becomes.
  const concise = conciseBody(awaited);
  const stmt = concise ?? awaitingStatement(awaited);
  if (!stmt) return { refused: STATEMENTLESS, cause: 'the awaited call is not a statement of its own, nor hoisted into one', statementless: true };
  const crossFile = imports !== undefined;
  const args = call.getArguments();
  if (args.some(a => Node.isSpreadElement(a))) return { refused: 'an argument is spread' };
  const javascript = /\.[cm]?jsx?$/.test(call.getSourceFile().getFilePath());

  // What the inlined text calls differently: parameters (bound or substituted), locals that would
  // capture the handler's names, and (across files) the names imported at the call site.
  const renames = new Map<Node, string>();
  const substituted = new Set<Node>();
  // The handler's names the pasted code reads: a local of the helper's with one of them is renamed.
  const guarded = new Set([...handler.getParameters().flatMap(p => boundIdentifiers(p.getNameNode())), ...args.flatMap(referencesIn)].map(id => id.getText()));
  // `const name = await f(...)`: the block assigns `name` itself, so a local of the helper's named so is renamed too.
  const own = concise ? undefined : readingName(stmt, awaited);
  if (own) guarded.add(own.name);
  const params = fn.getParameters();
  params.forEach((p, i) => {
    const arg = args[i];
    const stable: { text: string; root: string; roots?: string[] } | undefined = arg && (substitutable(arg, p, fn) ?? plainArgument(arg, p, fn, [call.getExpression(), ...args.filter(a => a !== arg)]));
    if (stable) {
      renames.set(p, stable.text);
      substituted.add(p);
      for (const root of stable.roots ?? [stable.root]) guarded.add(root);
    } else {
      // The parameter's own name where the handler names nothing so (the block it is bound in is the only scope it enters).
      renames.set(p, mentionsName(handler.compilerNode, p.getName()) ? fresh(`mcp${p.getName()[0]!.toUpperCase()}${p.getName().slice(1)}`) : p.getName());
    }
  });
  const body = fn.getBody() as import('ts-morph').Block;
  for (const d of body.getDescendants()) {
    const names = Node.isVariableDeclaration(d) ? boundIdentifiers(d.getNameNode()) : (Node.isFunctionDeclaration(d) || Node.isClassDeclaration(d)) && d.getNameNode() ? [d.getNameNode()!] : [];
    for (const id of names) {
      if (!guarded.has(id.getText())) continue;
      const owner = Node.isFunctionDeclaration(d) || Node.isClassDeclaration(d) ? enclosingFunction(d) : enclosingFunction(id);
      if (owner !== fn) continue;
      const key = declarationOf(id);
      if (key) renames.set(key, fresh(id.getText()));
    }
  }
  // Every identifier the moved text holds: the body, parameter types and defaults, the declared return type.
  const returnType = (fn as unknown as { getReturnTypeNode?(): Node | undefined }).getReturnTypeNode?.();
  // (A substituted parameter's type and default are not moved.)
  const bound = params.filter(p => !substituted.has(p));
  const pieces: Node[] = [body, ...bound.flatMap(p => [p.getTypeNode(), p.getInitializer()].filter((n): n is NonNullable<typeof n> => n !== undefined)), ...(returnType ? [returnType] : [])];
  const setters: ModuleSetter[] = [];
  if (crossFile) {
    const problem = importFreeNames(helper, pieces, call, imports!, renames, setters);
    if (problem) return { refused: problem, cause: /means something else/.test(problem) ? MISBOUND : /^it (assigns|increments) [\w$]+, a module-level/.test(problem) ? SETTER_CAUSE : undefined };
  }
  const idEdits: TextEdit[] = [];
  for (const piece of pieces) {
    for (const id of [piece, ...piece.getDescendants()].filter(Node.isIdentifier)) {
      // A property's name is never renamed (nor resolved: that can mean typing its object).
      const key = notAReference(id) ? undefined : declarationOf(id);
      const renamed = key && renames.get(key);
      if (!renamed || renamed === id.getText()) continue;
      const parent = id.getParent();
      const keepsKey = Node.isShorthandPropertyAssignment(parent) || (Node.isBindingElement(parent) && parent.getNameNode() === id && !parent.getPropertyNameNode() && Node.isObjectBindingPattern(parent.getParent()));
      idEdits.push({ start: id.getStart(), end: id.getEnd(), text: keepsKey ? `${id.getText()}: ${renamed}` : renamed });
    }
  }
  // The method's `this`, bound to the receiver.
  if (receiver) idEdits.push(...thisEdits(fn as import('ts-morph').MethodDeclaration, receiver, handler));
  const textOf = (n: Node) => applyEdits(n.getText(), n.getStart(), idEdits.filter(e => e.start >= n.getStart() && e.end <= n.getEnd()));
  // Assignments of another module's variables: calls of its setters.
  setterEdits(setters, idEdits, renames, textOf);

  const label = fresh('mcpInline');
  // The statement's annotation, which the value it read was checked against, types the result it now is.
  const type = own?.type !== undefined ? { text: `!: ${own.type}`, namesHelper: false } : resultType(stmt, awaited, returnType && textOf(returnType), helperName);
  // The statement's own name is the result itself (`let name!: T; ... name = x;`), unless it is read through a cast (readResult).
  const reused = own && readResult('r', type.text, awaited) === 'r' ? own.name : undefined;
  const result = reused ?? fresh(`${helper.name}Result`);
  const bindings: string[] = [];
  params.forEach((p, i) => {
    if (substituted.has(p)) return;
    const local = renames.get(p)!;
    // An optional parameter's annotation leaves out the undefined it may hold.
    const type = p.getTypeNode() && !javascript ? `: ${textOf(p.getTypeNode()!)}${p.hasQuestionToken() ? ' | undefined' : ''}` : '';
    const arg = args[i];
    const init = p.getInitializer();
    // A parameter the helper assigns (`prompt = prompt.trim()`, in a nested function too) is a let: a const would throw there.
    const kind = assigned(p, fn) ? 'let' : 'const';
    if (!init) {
      bindings.push(`${kind} ${local}${type} = ${arg?.getText() ?? 'undefined'};`);
    } else if (!arg) {
      bindings.push(`${kind} ${local}${type} = ${textOf(init)};`);
    } else if (Node.isIdentifier(unwrap(arg)) || Node.isLiteralExpression(arg)) {
      bindings.push(`${kind} ${local}${type} = ${arg.getText()} === undefined ? ${textOf(init)} : ${arg.getText()};`);
    } else {
      const given = fresh(`${local}Arg`);
      bindings.push(`const ${given} = ${arg.getText()};`, `${kind} ${local}${type} = ${given} === undefined ? ${textOf(init)} : ${given};`);
    }
  });
  // The helper's body text, renamed, with each return turned into an assignment and a break.
  const edits: TextEdit[] = idEdits.filter(e => e.start >= body.getStart() && e.end <= body.getEnd());
  for (const ret of body.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    if (ret.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a)) !== fn) continue;
    const value = ret.getExpression();
    let valueText = value ? textOf(value) : 'undefined';
    // An async function's return unwraps a promise; the assignment does not.
    if (value && !Node.isAwaitExpression(value) && thenable(value)) {
      const plain = Node.isCallExpression(value) || Node.isIdentifier(value) || Node.isPropertyAccessExpression(value);
      valueText = `await ${plain ? valueText : `(${valueText})`}`;
    }
    for (let i = edits.length - 1; i >= 0; i--) if (edits[i]!.start >= ret.getStart() && edits[i]!.end <= ret.getEnd()) edits.splice(i, 1);
    edits.push({ start: ret.getStart(), end: ret.getEnd(), text: `{ ${result} = ${valueText}; break ${label}; }` });
  }
  const inner = applyEdits(body.getText().slice(1, -1), body.getStart() + 1, edits);
  const source = stmt.getSourceFile().getFullText();
  const lineIndent = /^[ \t]*/.exec(source.slice(stmt.getStartLinePos()))![0];
  const indent = concise ? lineIndent + codeStyle(source).unit : lineIndent;
  // The statement itself, reading the result where it awaited the call.
  const reading = reused
    ? ''
    : concise
    ? `\n${indent}return ${readResult(result, type.text, awaited)}${codeStyle(source).semicolons ? ';' : ''}`
    : Node.isExpressionStatement(stmt) && stmt.getExpression() === awaited
      ? ''
      : `\n${indent}${stmt.getText().slice(0, awaited.getStart() - stmt.getStart())}${readResult(result, type.text, awaited)}${stmt.getText().slice(awaited.getEnd() - stmt.getStart())}`;
  const binding = bindings.length > 0 ? `\n${indent}  ${bindings.join(`\n${indent}  `)}` : '';
  const block = `let ${result}${type.text};\n${indent}${label}: {${binding}${inner}\n${indent}}${reading}`;
  const text = concise ? `{\n${indent}${block}\n${lineIndent}}` : block;
  const check = { ...bindingCheck(fn, pieces, renames, call, stmt, awaited, type.text), ...(reused ? { result: reused } : {}) };
  // The setters the inlined code calls: imported, from a module that declares them only once the passes are done.
  for (const s of setters) {
    check.expected.set(s.local, s.binding);
    check.outside.add(s.local);
  }
  const prefix = awaited.getStart() - stmt.getStart();
  // The statement's declaration, as written after the block or as the result declared before it (`let name`), is where it was.
  const declared = reused ? (stmt as VariableStatement).getDeclarations()[0]!.getStart() : undefined;
  const kept = declared !== undefined ? { offset: 'let '.length, start: declared, length: reused!.length } : reading && !concise ? { offset: text.length - reading.length + 1 + indent.length, start: stmt.getStart(), length: prefix } : undefined;
  return { start: stmt.getStart(), end: stmt.getEnd(), text, namesHelper: type.namesHelper, kept, check: { ...check, label } };
}

/**
 * Why a call awaited inside an expression is not inlined: hoist.ts did not hoist it into a statement
 * of its own, where that would change what runs when or is a place it does not rewrite.
 */
const STATEMENTLESS =
  'the awaited call is not a statement of its own (const x = await f(...), x = await f(...), await f(...), return await f(...) or => await f(...)), nor hoisted into one where it is (a loop condition, an else-if condition, an optional call\'s arguments, a nested assignment)';

/**
 * The name of `const <name> = await f(...)` (or `let`), a plain variable the inlined block can declare with
 * `let` and assign in place of a result of its own, with its annotation (`const name: T = ...`) if it has one.
 * Not a `var` (scoped to the function, not the block) nor a destructuring.
 */
function readingName(stmt: Node, awaited: Node): { name: string; type?: string } | undefined {
  if (!Node.isVariableStatement(stmt) || !['const', 'let'].includes(stmt.getDeclarationKind())) return undefined;
  const decl = stmt.getDeclarations()[0]!;
  const name = decl.getNameNode();
  const init = decl.getInitializer();
  if (!Node.isIdentifier(name) || !init || unwrap(init) !== awaited || decl.hasExclamationToken()) return undefined;
  // A comment after it on its line (`const ok = await confirm(q); // once per path`) is about the statement, which goes.
  if (/^[ \t]*(\/\/|\/\*)/.test(stmt.getSourceFile().getFullText().slice(stmt.getEnd()))) return undefined;
  const type = decl.getTypeNode();
  return { name: name.getText(), ...(type ? { type: type.getText() } : {}) };
}

/** The statement an awaited call is the whole of: `const x = await f(...)`, `x = await f(...)`, `await f(...)`, `return await f(...)`. */
function awaitingStatement(awaited: Node): Statement | undefined {
  const parent = awaited.getParent();
  if (Node.isVariableDeclaration(parent) && unwrap(parent.getInitializer()!) === awaited) {
    const vs = parent.getVariableStatement();
    return vs && vs.getDeclarations().length === 1 ? vs : undefined;
  }
  if (Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken && parent.getRight() === awaited) {
    return Node.isExpressionStatement(parent.getParent()) ? (parent.getParent() as Statement) : undefined;
  }
  return Node.isExpressionStatement(parent) || Node.isReturnStatement(parent) ? parent : undefined;
}

/** The expression body an awaited call is, parenthesized or not (`async args => await f(...)`), which the inlined block replaces. */
function conciseBody(awaited: Node): Node | undefined {
  let body = awaited;
  while (Node.isParenthesizedExpression(body.getParent())) body = body.getParent()!;
  const arrow = body.getParent();
  return arrow && Node.isArrowFunction(arrow) && arrow.getBody() === body ? body : undefined;
}

/**
 * What the names of the inlined text must be bound to once it replaces `stmt`: the helper's free
 * names (as renamed) what they are bound to in the helper; the handler's own (its arguments, the rest
 * of its statement) what they are bound to at the call; the names the text adds (`undefined`, the
 * result's type) what they mean at the call.
 */
function bindingCheck(fn: FunctionLike, pieces: Node[], renames: Map<Node, string>, call: CallExpression, stmt: Node, awaited: Node, typeText: string): Omit<BindingCheck, 'label'> {
  const expected = new Map<string, string>();
  const outside = new Set<string>();
  const expect = (name: string, binding: string) => {
    const had = expected.get(name);
    // Two bindings under one name cannot both be kept: one equal to neither fails the check.
    expected.set(name, had === undefined || had === binding ? binding : `two bindings of ${name}`);
    outside.add(name);
  };
  for (const piece of pieces) {
    for (const id of referencesIn(piece)) {
      const decl = declarationOf(id);
      if (decl && decl !== fn && decl.getFirstAncestor(a => a === fn)) continue; // the helper's own
      expect((decl && renames.get(decl)) ?? id.getText(), bindingOf(id, placeAsIs));
    }
  }
  const inCall = (id: Node) => id.getStart() >= awaited.getStart() && id.getEnd() <= awaited.getEnd();
  for (const id of [...referencesIn(stmt).filter(id => !inCall(id)), ...call.getArguments().flatMap(referencesIn)]) expect(id.getText(), bindingOf(id, placeAsIs));
  for (const name of [...typeText.matchAll(/[A-Za-z_$][\w$]*/g)].map(m => m[0]).concat('undefined')) {
    if (!expected.has(name)) expected.set(name, bindingAt(name, call, placeAsIs));
  }
  return { expected, outside };
}

/** The node a name's symbol is declared by (the value's, for a shorthand property). */
function declarationOf(id: Node): Node | undefined {
  const parent = id.getParent();
  if (parent && Node.isShorthandPropertyAssignment(parent)) return parent.getValueSymbol()?.getDeclarations()[0];
  return id.getSymbol()?.getDeclarations()[0];
}

/**
 * A channel argument put in place of its parameter: `extra.sendRequest`, `ctx.mcpReq.send`, `ctx`, a
 * server: names that mean the same wherever the body uses them (a parameter or const, read again).
 */
function substitutable(arg: Node, param: import('ts-morph').ParameterDeclaration, fn: FunctionLike): { text: string; root: string } | undefined {
  if (!isChannel(arg, () => false)) return undefined;
  const a = unwrap(arg);
  let root: Node = a;
  while (Node.isPropertyAccessExpression(root)) root = root.getExpression();
  if (!Node.isIdentifier(root)) return undefined;
  const decl = root.getSymbol()?.getDeclarations()[0];
  const stable =
    decl !== undefined &&
    (Node.isParameterDeclaration(decl) ||
      Node.isImportSpecifier(decl) ||
      Node.isImportClause(decl) ||
      (Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const'));
  if (!stable) return undefined;
  if (Node.isParameterDeclaration(decl) && assigned(decl, decl.getParent() as Node)) return undefined;
  if (assigned(param, fn)) return undefined;
  return { text: a.getText(), root: root.getText() };
}

/**
 * An argument the helper's parameter can be replaced by, as a person inlining it would write it: a name
 * that holds its value all along (a const, a parameter nothing assigns, an import) that the helper uses
 * for nothing else; or, where the helper reads the parameter once as a property's value,
 * a literal or a template of such names that the call hands the helper in no other argument. Not for a parameter
 * with a default, or one the helper assigns.
 */
function plainArgument(arg: Node, param: import('ts-morph').ParameterDeclaration, fn: FunctionLike, others: Node[]): { text: string; root: string; roots?: string[] } | undefined {
  if (param.getInitializer() || param.hasQuestionToken() || assigned(param, fn)) return undefined;
  const a = unwrap(arg);
  if (Node.isIdentifier(a)) {
    if (!holdsItsValue(a) || !onlyNamesParam(fn, a.getText(), param)) return undefined;
    return { text: a.getText(), root: a.getText() };
  }
  const pure = Node.isStringLiteral(a) || Node.isNoSubstitutionTemplateLiteral(a) || Node.isNumericLiteral(a) || Node.isTrueLiteral(a) || Node.isFalseLiteral(a) ||
    (Node.isTemplateExpression(a) && a.getTemplateSpans().every(span => Node.isIdentifier(span.getExpression()) && holdsItsValue(span.getExpression())));
  if (!pure || a !== arg) return undefined;
  const reads = fn.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => id.getText() === param.getName() && id !== param.getNameNode() && declarationOf(id) === param);
  const read = reads.length === 1 ? reads[0]!.getParent() : undefined;
  // (Not into a template's span: `Mood ${'today'}?` is no one's code.)
  const asValue = read && (Node.isShorthandPropertyAssignment(read) || (Node.isPropertyAssignment(read) && read.getInitializer() === reads[0]));
  if (!asValue) return undefined;
  const roots = Node.isTemplateExpression(a) ? a.getTemplateSpans().map(span => span.getExpression().getText()) : [];
  if (roots.some(root => !onlyNamesParam(fn, root, undefined))) return undefined;
  // A name the call also hands the helper otherwise (`confirm(items, \`Confirm ${items}?\`)`) may be changed by it
  // (items.push) before the read: the template is then made at the call, as the call made it.
  if (roots.some(root => others.some(other => mentionsName(other.compilerNode, root)))) return undefined;
  // A template is made where the helper reads it, not at the call: only where nothing runs in between (a call, an
  // assignment, in the helper or in the other arguments, could change what its names hold: `${seen}` after seen.push).
  if (roots.length > 0 && !(readFirst(fn, reads[0]!) && others.slice(1).every(other => !runsCode(other)))) return undefined;
  return { text: a.getText(), root: roots[0] ?? '', roots };
}

/** Whether the helper reads `id` once, before anything of its own runs that could change a value (outside a loop or nested function). */
function readFirst(fn: FunctionLike, id: Node): boolean {
  for (let up = id.getParent(); up && up !== fn; up = up.getParent()) {
    if (Node.isIterationStatement(up) || (Node.isFunctionLikeDeclaration(up) && (up as Node) !== fn)) return false;
  }
  const body = fn.getBody();
  if (!body) return false;
  const before = (n: Node): boolean => n.getEnd() <= id.getStart();
  let ran = false;
  body.forEachDescendant((n, traversal) => {
    if (ran || n.getStart() >= id.getStart()) return traversal.skip();
    if (Node.isFunctionLikeDeclaration(n)) return traversal.skip();
    if (before(n) && runsCode(n, false)) ran = true;
    return undefined;
  });
  return !ran;
}

/** Whether evaluating a node may run code that changes a value: a call, `new`, an await, an assignment, `++`, `delete`. */
function runsCode(node: Node, deep = true): boolean {
  const changes = (n: Node): boolean =>
    Node.isCallExpression(n) || Node.isNewExpression(n) || Node.isAwaitExpression(n) || Node.isTaggedTemplateExpression(n) || Node.isDeleteExpression(n) ||
    (Node.isBinaryExpression(n) && n.getOperatorToken().getKind() >= SyntaxKind.FirstAssignment && n.getOperatorToken().getKind() <= SyntaxKind.LastAssignment) ||
    ((Node.isPrefixUnaryExpression(n) || Node.isPostfixUnaryExpression(n)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(n.getOperatorToken()));
  if (changes(node)) return true;
  return deep && node.getDescendants().some(d => changes(d) && !d.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a) && a.getPos() >= node.getPos() && a.getEnd() <= node.getEnd()));
}

/** Whether a name read at the call holds the same value wherever the helper's code reads it: a const, an import, a parameter (or a name destructured from one) nothing assigns. */
function holdsItsValue(id: Node): boolean {
  const decl = id.getSymbol()?.getDeclarations()[0];
  if (!decl) return false;
  // An import is a live binding: one of a module's `export let` changes when the module assigns it (the helper may call
  // what does), so the argument's value at the call is not what a later read would see.
  if (Node.isImportSpecifier(decl) || Node.isImportClause(decl)) return !importsVariable(id);
  const param = Node.isParameterDeclaration(decl) ? decl : Node.isBindingElement(decl) ? decl.getFirstAncestorByKind(SyntaxKind.Parameter) : undefined;
  if (param) return !writtenIn(decl, param.getParent() as Node);
  const list = Node.isVariableDeclaration(decl) || Node.isBindingElement(decl) ? decl.getFirstAncestorByKind(SyntaxKind.VariableDeclarationList) : undefined;
  return list !== undefined && list.getDeclarationKind() === 'const';
}

/** Whether an imported name is a module's `let` or `var` (as far as the import resolves). */
function importsVariable(id: Node): boolean {
  const symbol = id.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  const decl = target?.getDeclarations()[0];
  const list = decl && (Node.isVariableDeclaration(decl) || Node.isBindingElement(decl)) ? decl.getFirstAncestorByKind(SyntaxKind.VariableDeclarationList) : undefined;
  return list !== undefined && list.getDeclarationKind() !== 'const';
}

/** Whether a declared name is assigned (or incremented) anywhere in `scope`. */
function writtenIn(decl: Node, scope: Node): boolean {
  const name = (decl as unknown as { getName?(): string }).getName?.();
  if (!name) return true;
  return scope.getDescendantsOfKind(SyntaxKind.Identifier).some(ref => ref.getText() === name && writtenAt(ref) && declarationOf(ref) === decl);
}

function writtenAt(ref: Node): boolean {
  const parent = ref.getParent();
  if ((Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(parent.getOperatorToken())) return true;
  // Through a destructuring target too: `[a, b] = [b, a]`, `({ text: label } = parsed)`, `for (item of items)`.
  let target: Node = ref;
  for (let up = target.getParent(); up; up = target.getParent()) {
    const valueOf = Node.isPropertyAssignment(up) ? up.getInitializer() === target : Node.isShorthandPropertyAssignment(up) || Node.isSpreadElement(up) || Node.isSpreadAssignment(up) || Node.isArrayLiteralExpression(up) || Node.isObjectLiteralExpression(up) || Node.isParenthesizedExpression(up);
    if (!valueOf) break;
    target = up;
  }
  const holder = target.getParent();
  if (Node.isBinaryExpression(holder) && holder.getLeft() === target) {
    const op = holder.getOperatorToken().getKind();
    return op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment && (target === ref || op === SyntaxKind.EqualsToken);
  }
  return (Node.isForOfStatement(holder) || Node.isForInStatement(holder)) && holder.getInitializer() === target;
}

/** Whether every identifier `name` in the helper is the parameter (or a property's name): the argument's name would capture nothing. */
function onlyNamesParam(helper: FunctionLike, name: string, param: import('ts-morph').ParameterDeclaration | undefined): boolean {
  return helper.getDescendantsOfKind(SyntaxKind.Identifier).every(id => id.getText() !== name || notAReference(id) || (param !== undefined && (id === param.getNameNode() || declarationOf(id) === param)));
}

/** Whether an identifier `name` occurs anywhere under a node (syntax only). */
function mentionsName(node: ts.Node, name: string): boolean {
  if (ts.isIdentifier(node) && node.text === name) return true;
  return ts.forEachChild(node, child => mentionsName(child, name) || undefined) ?? false;
}

/** Whether a parameter is assigned anywhere in its function. */
function assigned(param: Node, fn: Node): boolean {
  return writtenIn(param, fn);
}

function thenable(value: Node): boolean {
  try {
    const type = value.getType();
    return (type.isUnion() ? type.getUnionTypes() : [type]).some(t => t.getProperty('then') !== undefined);
  } catch {
    return false;
  }
}

/** `T` of a return type written `Promise<T>`, as a person would annotate the awaited value. */
function promised(declared: string): string | undefined {
  const inner = /^Promise<([\s\S]*)>$/.exec(declared.trim())?.[1];
  if (inner === undefined) return undefined;
  let depth = 0;
  for (const c of inner) {
    depth += c === '<' ? 1 : c === '>' ? -1 : 0;
    if (depth < 0) return undefined;
  }
  return depth === 0 ? inner : undefined;
}

/**
 * The result read where the call was awaited. A union of objects (`{ ok: true; ... } | { ok: false; ... }`) is
 * read as its declared type: the checker narrows it to what the block's early returns assigned, and the
 * phase that suspends in the block leaves only those, so the reads after it would not typecheck.
 */
function readResult(result: string, typeText: string, awaited: Node): string {
  const type = awaited.getType();
  if (!typeText.startsWith('!: ') || !type.isUnion() || type.getUnionTypes().filter(t => t.isObject()).length < 2) return result;
  const cast = `${result} as ${typeText.slice(3)}`;
  const parent = awaited.getParent();
  return parent && Node.isVariableDeclaration(parent) && parent.getInitializer() === awaited ? cast : `(${cast})`;
}

/**
 * The result variable's annotation (`!`: it is assigned inside the block before any read, which the
 * checker cannot see through the break): the helper's declared return type, else the call's type
 * where it prints, else one that names the helper (which then has to stay).
 */
function resultType(stmt: Node, awaited: Node, declared: string | undefined, helperName: string): { text: string; namesHelper: boolean } {
  if (/\.[cm]?jsx?$/.test(stmt.getSourceFile().getFilePath())) return { text: '', namesHelper: false };
  if (declared) return { text: `!: ${promised(declared) ?? `Awaited<${declared}>`}`, namesHelper: false };
  const handler = stmt.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a)) as FunctionLike | undefined;
  const printed = handler && printableType(awaited, handler);
  if (printed) return { text: `!: ${printed}`, namesHelper: false };
  return { text: `!: Awaited<ReturnType<typeof ${helperName}>>`, namesHelper: true };
}

/**
 * An imported helper's free names, made to mean the same in the handler's file: its module's imports
 * and its module's exported declarations are imported there (renamed where the name is taken); globals
 * must not be shadowed at the call site. Why not, when a name cannot be brought over: then the file
 * gets none of the imports (the helper is not inlined, so nothing would use them).
 */
function importFreeNames(helper: Helper, pieces: Node[], call: CallExpression, imports: Importer, renames: Map<Node, string>, setters?: ModuleSetter[]): string | undefined {
  const before = imports.checkpoint();
  const problem = bringFreeNames(helper, pieces, call, imports, renames, setters);
  if (problem) imports.rollback(before);
  return problem;
}

/**
 * (With `setters`, a module-level let or var the moved code assigns is set through a setter its module
 * gets, collected there; without, it keeps the helper from being inlined.)
 */
function bringFreeNames(helper: Helper, pieces: Node[], call: CallExpression, imports: Importer, renames: Map<Node, string>, setters?: ModuleSetter[]): string | undefined {
  const module = helper.fn.getSourceFile();
  const moduleName = path.basename(module.getFilePath());
  const seen = new Set<Node | string>();
  // Exported only once the whole helper can be brought over.
  const toExport: string[] = [];
  const toSet: { setter: ModuleSetter; name: string; text: string | undefined }[] = [];
  for (const piece of pieces) {
    for (const id of [piece, ...piece.getDescendants()].filter(Node.isIdentifier)) {
      if (notAReference(id) || declaresName(id)) continue;
      const decl = declarationOf(id);
      if (decl && (decl === helper.fn || decl.getFirstAncestor(a => a === helper.fn))) continue; // the helper's own
      const name = id.getText();
      if (seen.has(decl ?? name)) continue;
      seen.add(decl ?? name);
      const binding = bindingOf(id, placeAsIs);
      if (!decl || decl.getSourceFile() !== module) {
        // A global, or a declaration of another file it does not import: the same name must mean it at the call.
        if (bindingAt(name, call, placeAsIs) !== binding) return `it uses ${name}, which means something else at the call site (rename one of them)`;
        continue;
      }
      const importDecl = decl.getFirstAncestorByKind(SyntaxKind.ImportDeclaration);
      if (importDecl && (Node.isImportSpecifier(decl) || Node.isImportClause(decl) || Node.isNamespaceImport(decl))) {
        const spec = importDecl.getModuleSpecifierValue();
        // A module of the project (by a relative path or a paths alias) is imported as the handler's package can; a package by its name.
        const target = spec.startsWith('.') ? (importDecl.getModuleSpecifierSourceFile()?.getFilePath() ?? path.resolve(path.dirname(module.getFilePath()), spec)) : resolveThroughPaths(module.getFilePath(), spec);
        const specifier = target ? importableAs(call.getSourceFile(), target, spec.startsWith('.') ? respecified(module.getFilePath(), call.getSourceFile().getFilePath(), spec) : undefined) : spec;
        if (!specifier) return `it uses ${name} from ${spec}, which the handler's package could only import by a path into another package; map that module in the tsconfig.json paths of the handler's package, or migrate by hand`;
        const need: ImportNeed = {
          specifier,
          target: importDecl.getModuleSpecifierSourceFile(),
          kind: Node.isImportSpecifier(decl) ? 'named' : Node.isImportClause(decl) ? 'default' : 'namespace',
          name: Node.isImportSpecifier(decl) ? decl.getName() : name,
          typeOnly: importDecl.isTypeOnly() || (Node.isImportSpecifier(decl) && decl.isTypeOnly()),
          binding,
        };
        const local = imports.local(need, name, call);
        if (local !== name) renames.set(decl, local);
        continue;
      }
      const top = Node.isSourceFile(decl.getParent()) ? decl : decl.getFirstAncestor(a => Node.isSourceFile(a.getParent()));
      if (!top || Node.isImportDeclaration(top)) return `it uses ${name}, which is not at the module level of ${moduleName}`;
      if (setters && isModuleVariable(decl, top)) {
        const set = bringSetter(helper, pieces, call, imports, decl as VariableDeclaration, top);
        if ('refused' in set) return set.refused;
        if (set.setter) toSet.push(set.setter);
        // Only written: the inlined code calls the setter, and needs no import of the variable.
        if (!set.reads) continue;
      }
      let exported = exportedName(module, top, name);
      if (!exported) {
        if (!setters && Node.isVariableStatement(top) && top.getDeclarationKind() !== VariableDeclarationKind.Const && assigned(decl, helper.fn)) {
          return `it assigns ${name}, a module-level ${top.getDeclarationKind()} of ${moduleName}, which the handler's file could not assign through an import; have ${moduleName} export a function that makes the change and call that from the helper, or move the request into the handler`;
        }
        const why = unexportable(module, top);
        if (why) return `it uses ${name}, which ${moduleName} does not export (${why}); export it from ${moduleName} (the handler's file then imports it), or move the request into the handler`;
        toExport.push(name);
        exported = name;
      }
      const specifier = importableAs(call.getSourceFile(), module.getFilePath(), specifierFor(call.getSourceFile(), module.getFilePath()));
      if (!specifier) return `it uses ${name}, which the handler's package could only import from ${moduleName} by a path into another package; map that module in the tsconfig.json paths of the handler's package, or migrate by hand`;
      const need: ImportNeed = {
        specifier,
        target: module,
        kind: 'named',
        name: exported,
        typeOnly: Node.isInterfaceDeclaration(top) || Node.isTypeAliasDeclaration(top),
        binding,
      };
      const local = imports.local(need, name, call);
      if (local !== name) renames.set(decl, local);
    }
  }
  for (const name of toExport) imports.exportFrom(module, name);
  for (const { setter, name, text } of toSet) {
    imports.exportFrom(setter.decl.getSourceFile(), name, text === undefined ? undefined : { variable: setter.decl.getName(), text });
    setters!.push(setter);
  }
  return undefined;
}

/**
 * A module variable the moved code assigns (src/analysis/moduleSetters.ts): the setter its module is to
 * get, imported at the call, and whether the code also reads the variable (then it is imported too);
 * or why no setter can stand in for its assignments. No setter when the code only reads it.
 */
function bringSetter(helper: Helper, pieces: Node[], call: CallExpression, imports: Importer, decl: VariableDeclaration, top: VariableStatement): { refused: string } | { reads: boolean; setter?: { setter: ModuleSetter; name: string; text: string | undefined } } {
  const found = variableWrites(decl, pieces, helper.fn);
  if ('refused' in found || found.writes.length === 0) return found;
  const module = decl.getSourceFile();
  const moduleName = path.basename(module.getFilePath());
  const what = `${decl.getName()}, a module-level ${top.getDeclarationKind()} of ${moduleName}`;
  const name = setterName(decl.getName());
  // One the module has already (an earlier run's) is reused, exported if it is not.
  const existing = existingSetter(module, name, decl);
  const barrel = existing?.isExported() ? undefined : barrelOf(module);
  const obstacle = setterObstacle(module, what, name, existing !== undefined) ?? (barrel && `it assigns ${what}, whose setter ${moduleName} cannot export (${path.basename(barrel.getFilePath())} re-exports all of it); have ${moduleName} export a function that makes the change and call that from the helper, or migrate by hand`);
  if (obstacle) return { refused: obstacle };
  const specifier = importableAs(call.getSourceFile(), module.getFilePath(), specifierFor(call.getSourceFile(), module.getFilePath()));
  if (!specifier) return { refused: `it assigns ${what}, whose setter the handler's package could only import by a path into another package; map that module in the tsconfig.json paths of the handler's package, or migrate by hand` };
  const binding = setterBinding(module, name, existing);
  const local = imports.local({ specifier, target: module, kind: 'named', name, typeOnly: false, binding }, name, call);
  const text = existing ? undefined : setterDeclaration(decl, name, helper.fn);
  return { reads: found.reads, setter: { setter: { decl, writes: found.writes, local, binding }, name, text } };
}

/**
 * Why a module-level declaration a helper uses cannot simply be exported for the handler's file to
 * import: only a lone declaration of its own statement can be, and not where a barrel's
 * `export * from` that module would then re-export a name another module also gives it.
 */
function unexportable(module: SourceFile, top: Node): string | undefined {
  const declaration =
    Node.isFunctionDeclaration(top) || Node.isClassDeclaration(top) || Node.isEnumDeclaration(top) || Node.isInterfaceDeclaration(top) || Node.isTypeAliasDeclaration(top)
      ? !top.isDefaultExport()
      : Node.isVariableStatement(top) && top.getDeclarations().length === 1;
  if (!declaration) return 'not a declaration of its own';
  // A let or var is exported like a const: an import reads its current value (a live binding); one
  // the helper assigns is assigned through a setter its module gets (an imported binding is read-only).
  const barrel = barrelOf(module);
  if (barrel) return `${path.basename(barrel.getFilePath())} re-exports all of it`;
  return undefined;
}

/** A file of the project that re-exports all of `module` (`export * from`), where a new export could clash. */
function barrelOf(module: SourceFile): SourceFile | undefined {
  return module
    .getProject()
    .getSourceFiles()
    .find(f => !f.isDeclarationFile() && f.getExportDeclarations().some(d => !d.getNamedExports().length && !d.getNamespaceExport() && d.getModuleSpecifierSourceFile() === module));
}

/** The name a module exports a top-level declaration as, if it does. */
function exportedName(module: SourceFile, top: Node, name: string): string | undefined {
  if ((Node.isFunctionDeclaration(top) || Node.isVariableStatement(top) || Node.isClassDeclaration(top) || Node.isEnumDeclaration(top) || Node.isInterfaceDeclaration(top) || Node.isTypeAliasDeclaration(top)) && top.isExported() && !top.isDefaultExport()) return name;
  for (const d of module.getExportDeclarations()) {
    if (d.getModuleSpecifier()) continue;
    for (const n of d.getNamedExports()) if (n.getName() === name) return n.getAliasNode()?.getText() ?? name;
  }
  return undefined;
}

/**
 * How the handler's file imports a module file: by the relative path given, within its own package;
 * from another package, only through its tsconfig.json `paths` (a relative path into another package
 * would leave the package's own sources), or not at all (undefined).
 */
function importableAs(sf: SourceFile, target: string, relative: string | undefined): string | undefined {
  const file = sf.getFilePath();
  if (relative && packageDirOf(file) === packageDirOf(target)) return relative;
  const like = sf.getImportDeclarations().map(d => d.getModuleSpecifierValue()).find(spec => resolveThroughPaths(file, spec) !== undefined) ?? '.js';
  return specifierThroughPaths(file, target, like);
}

/** A relative specifier written in `fromModule`, as the file `toFile` would write it. */
function respecified(fromModule: string, toFile: string, spec: string): string {
  const target = path.resolve(path.dirname(fromModule), spec);
  const r = path.relative(path.dirname(toFile), target).split(path.sep).join('/');
  return r.startsWith('.') ? r : `./${r}`;
}

/** How `sf` imports the file at `target`: extensionless when its relative imports are, else with the runtime extension. */
function specifierFor(sf: SourceFile, target: string): string {
  const relImports = sf.getImportDeclarations().map(d => d.getModuleSpecifierValue()).filter(s => s.startsWith('.'));
  const extensionless = relImports.length > 0 && relImports.every(s => !/\.[cm]?[jt]sx?$/.test(s));
  const r = respecified(sf.getFilePath(), sf.getFilePath(), path.relative(path.dirname(sf.getFilePath()), target));
  if (extensionless) return r.replace(/\.[cm]?[jt]sx?$/, '');
  return r.replace(/\.tsx?$/, '.js').replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs');
}

interface ImportNeed {
  specifier: string;
  target: SourceFile | undefined;
  kind: 'named' | 'default' | 'namespace';
  /** The exported name (named), or the module's local name for a default or namespace import. */
  name: string;
  typeOnly: boolean;
  /** What it is bound to (src/analysis/bindings.ts), to find a binding the file already has. */
  binding: string;
}

/** The imports a pass adds to the handler's file, merged into its existing ones where it can. */
class Importer {
  private readonly added = new Map<string, { need: ImportNeed; local: string; reused: boolean }>();
  /** The file's own names the inlined code uses: their imports stay. */
  readonly reused = new Set<string>();
  /** Module-level declarations of helpers' modules to export, so that the handler's file can import them. */
  readonly exports: { module: SourceFile; name: string; setter?: SetterExport }[] = [];

  exportFrom(module: SourceFile, name: string, setter?: SetterExport): void {
    if (!this.exports.some(e => e.module === module && e.name === name)) this.exports.push({ module, name, ...(setter ? { setter } : {}) });
  }

  /** What the pass has asked for so far, to go back to when a helper turns out not to be inlined after all. */
  checkpoint(): { added: Set<string>; reused: Set<string> } {
    return { added: new Set(this.added.keys()), reused: new Set(this.reused) };
  }

  rollback(to: { added: Set<string>; reused: Set<string> }): void {
    for (const key of [...this.added.keys()]) if (!to.added.has(key)) this.added.delete(key);
    for (const name of [...this.reused]) if (!to.reused.has(name)) this.reused.delete(name);
  }

  constructor(
    private readonly sf: SourceFile,
    private readonly fresh: (base: string) => string
  ) {}

  /**
   * The name `need` has at `call` in this file: a module-level name of the file bound to the same
   * thing (its own declaration, or an import it has) and not hidden at the call, else a new import.
   */
  local(need: ImportNeed, preferred: string, call: Node): string {
    const known = this.added.get(need.binding);
    if (known) return known.local;
    const project = this.sf.getProject();
    for (const symbol of this.sf.getLocals()) {
      const name = symbol.getName();
      if (bindingOfSymbol(symbol.compilerSymbol, name, project, placeAsIs) !== need.binding || bindingAt(name, call, placeAsIs) !== need.binding) continue;
      this.added.set(need.binding, { need, local: name, reused: true });
      this.reused.add(name);
      return name;
    }
    const local = this.fresh(preferred);
    this.added.set(need.binding, { need, local, reused: false });
    return local;
  }

  edits(): TextEdit[] {
    if (this.added.size === 0) return [];
    const edits: TextEdit[] = [];
    const declarations = this.sf.getImportDeclarations();
    // The user's quotes: the SDK's imports may have been rewritten by the official codemod, in its own.
    const own = declarations.find(d => !d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/')) ?? declarations[0];
    const quote = own?.getModuleSpecifier().getText().startsWith('"') ? '"' : "'";
    const fresh: string[] = [];
    const bySpecifier = new Map<string, { need: ImportNeed; local: string }[]>();
    for (const entry of this.added.values()) {
      if (entry.reused || entry.need.target === this.sf) continue;
      bySpecifier.set(entry.need.specifier, [...(bySpecifier.get(entry.need.specifier) ?? []), entry]);
    }
    for (const [specifier, entries] of bySpecifier) {
      const spec = (e: { need: ImportNeed; local: string }) => `${e.need.typeOnly ? 'type ' : ''}${e.need.name === e.local ? e.local : `${e.need.name} as ${e.local}`}`;
      const named = entries.filter(e => e.need.kind === 'named');
      const existing = declarations.find(d => d.getModuleSpecifierValue() === specifier && !d.isTypeOnly() && d.getNamedImports().length > 0);
      if (named.length > 0 && existing) {
        const last = existing.getNamedImports().at(-1)!;
        edits.push({ start: last.getEnd(), end: last.getEnd(), text: named.map(e => `, ${spec(e)}`).join('') });
      } else if (named.length > 0) {
        const allTypes = named.every(e => e.need.typeOnly);
        const list = named.map(e => (allTypes ? spec(e).replace(/^type /, '') : spec(e))).join(', ');
        fresh.push(`import ${allTypes ? 'type ' : ''}{ ${list} } from ${quote}${specifier}${quote};`);
      }
      for (const e of entries.filter(x => x.need.kind !== 'named')) {
        fresh.push(`import ${e.need.typeOnly ? 'type ' : ''}${e.need.kind === 'namespace' ? `* as ${e.local}` : e.local} from ${quote}${specifier}${quote};`);
      }
    }
    if (fresh.length > 0) {
      const last = declarations.at(-1);
      if (last) edits.push({ start: last.getEnd(), end: last.getEnd(), text: fresh.map(t => `\n${t}`).join('') });
      else edits.push({ start: 0, end: 0, text: fresh.map(t => `${t}\n`).join('') });
    }
    return edits;
  }
}

function bindingsOf(decl: ImportDeclaration): Node[] {
  const found: Node[] = [];
  const def = decl.getDefaultImport();
  if (def) found.push(def);
  const ns = decl.getNamespaceImport();
  if (ns) found.push(ns);
  for (const n of decl.getNamedImports()) found.push(n.getAliasNode() ?? n.getNameNode());
  return found;
}

function applyEdits(text: string, offset: number, edits: TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) {
    if (e.start < offset || e.end > offset + text.length) continue;
    out = out.slice(0, e.start - offset) + e.text + out.slice(e.end - offset);
  }
  return out;
}
