/**
 * The inliner's plumbing taken out of a handler's generated phases, so an inlined helper reads as the
 * code a person would have written in its place (src/analysis/inline.ts explains the plumbing):
 *
 *   let confirmResult!: boolean;                  const answer = elicitResult(ctx, 'answer', okSchema);
 *   mcpInline: {                                  const confirmResult: boolean = answer.action === 'accept';
 *     const answer = elicitResult(ctx, ...);  →
 *     { confirmResult = answer.action === 'accept'; break mcpInline; }
 *   }
 *
 * - a `break` that ends the block goes (with the braces around it), and an early exit
 *   `if (c) { r = a; break L; } rest` becomes `if (c) { r = a; } else { rest }` (exits in a row, one
 *   `if (c) { ... } else if (d) { ... } else { rest }` chain);
 * - a block no `break` leaves any more loses its label and, when none of the names it declares is named
 *   elsewhere in the block around it, its braces;
 * - the result variable declared before it is dropped where nothing reads it (the round that suspends
 *   inside the block), and declared where it is assigned when that is its one assignment.
 * A block any other `break` leaves (from a loop, a try) keeps its label. Syntax only, on the phases' text:
 * every step is re-parsed, and what a step cannot prove it leaves as it is.
 */
import { ts } from 'ts-morph';
import { INLINE_LABEL } from '../analysis/inline.js';
import { reindent, trailingEnd } from './text.js';

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** How a handler body's text is parsed: as an arrow function's body, positions shifted by the prefix. */
const PREFIX = 'async () => ';

/** `body`: a handler's new body (`{ ... }`) in its generated text; `unit`: the file's indentation step. */
export function tidyInlinedBlocks(body: string, unit: string, jsx: boolean): string {
  if (!/\bmcpInline\d*:/.test(body)) return body;
  const results = new Set<string>();
  let text = body;
  // Each step changes one block; a handler has a few of them.
  for (let step = 0; step < 500; step++) {
    const sf = ts.createSourceFile(jsx ? 'tidy.tsx' : 'tidy.ts', PREFIX + text, ts.ScriptTarget.Latest, true, jsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const edits = nextTidying(sf, unit, results);
    if (!edits) return text;
    const next = applyEdits(text, edits.map(e => ({ ...e, start: e.start - PREFIX.length, end: e.end - PREFIX.length })));
    // Tidying takes plumbing out (an else adds a line and an indentation): a step that goes round, or
    // text that grows, is a fault of this module; the phases are then printed as they were generated.
    if (next === text || next.length > body.length * 1.5) return body;
    text = next;
  }
  return body;
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The edits of the next tidying step, or none when nothing is left to tidy. */
function nextTidying(sf: ts.SourceFile, unit: string, results: Set<string>): Edit[] | undefined {
  for (const labelled of inlineBlocks(sf)) {
    const result = resultBefore(labelled);
    if (result) results.add(result);
    const edits = unbreak(sf, labelled, unit) ?? (breaksOf(labelled).length === 0 ? unlabel(sf, labelled, unit) : undefined);
    if (edits) return edits;
  }
  for (const name of results) {
    const edits = resultTidying(sf, name);
    if (edits) return edits;
  }
  return undefined;
}

type InlineBlock = ts.LabeledStatement & { statement: ts.Block };

function inlineBlocks(sf: ts.SourceFile): InlineBlock[] {
  const found: InlineBlock[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isLabeledStatement(node) && INLINE_LABEL.test(node.label.text) && ts.isBlock(node.statement)) found.push(node as InlineBlock);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The `let r!: T;` the inliner declared right before the block, for the value the block assigns. */
function resultBefore(labelled: InlineBlock): string | undefined {
  const list = statementList(labelled);
  const previous = list?.[list.indexOf(labelled) - 1];
  return previous && uninitializedLet(previous);
}

/** The name of `let name;` / `let name!: T;` (one declarator, no value), else undefined. */
function uninitializedLet(statement: ts.Statement): string | undefined {
  if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Let)) return undefined;
  const [decl, ...more] = statement.declarationList.declarations;
  return decl && more.length === 0 && ts.isIdentifier(decl.name) && !decl.initializer ? decl.name.text : undefined;
}

function statementList(node: ts.Node): readonly ts.Statement[] | undefined {
  const parent = node.parent;
  return ts.isBlock(parent) || ts.isSourceFile(parent) || ts.isCaseClause(parent) || ts.isDefaultClause(parent) ? parent.statements : undefined;
}

function breaksOf(labelled: InlineBlock): ts.BreakStatement[] {
  const found: ts.BreakStatement[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBreakStatement(node) && node.label?.text === labelled.label.text) found.push(node);
    if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  visit(labelled.statement);
  return found;
}

/** Whether `statement` is `break label;` or a block whose last statement ends so. */
function endsInBreak(statement: ts.Statement, label: string): boolean {
  if (ts.isBreakStatement(statement)) return statement.label?.text === label;
  return ts.isBlock(statement) && statement.statements.length > 0 && endsInBreak(statement.statements.at(-1)!, label);
}

function containsBreak(node: ts.Node, label: string): boolean {
  if (ts.isBreakStatement(node) && node.label?.text === label) return true;
  return !ts.isFunctionLike(node) && (ts.forEachChild(node, child => containsBreak(child, label) || undefined) ?? false);
}

/**
 * One `break` out of the block removed. First those in its tail (the last statement, the branches of a
 * last `if`, the blocks of a last `try` without finally), where leaving and falling through are the same:
 * `{ r = v; break L; }` → `r = v;`. Then an early exit, `if (c) { r = a; break L; } rest` in a list in
 * the tail: the statements after it become its else, the last exit first, so that exits in a row make one
 * flat chain (`if (a) { ... } else if (b) { ... } else { rest }`). Only where the chain nests at most two
 * deep, so that the code does not nest deeper than a person would write it.
 */
function unbreak(sf: ts.SourceFile, labelled: InlineBlock, unit: string): Edit[] | undefined {
  const label = labelled.label.text;
  for (const brk of tailBreaks(labelled.statement, label).reverse()) {
    const edit = removeTailBreak(sf, brk, unit);
    if (edit) return [edit];
  }
  for (const list of tailLists(labelled.statement)) {
    const exits = list.statements.filter(s => containsBreak(s, label));
    const last = exits.at(-1);
    if (!last || !exits.every(e => ts.isIfStatement(e) && !e.elseStatement && endsInBreak(e.thenStatement, label) && countBreaks(e, label) === 1)) continue;
    if (chainDepth(list.statements, exits) > 2) continue;
    return earlyExit(sf, last as ts.IfStatement, list.statements.slice(list.statements.indexOf(last) + 1), label, unit);
  }
  return undefined;
}

/**
 * How deep the if/else the exits of a list become nests: a level for the statements after the last exit (none
 * when there are none, or they are one `if`, which becomes an else-if), and one for each run of statements
 * between two exits (the exit before them takes them into its else); exits in a row chain as else-ifs.
 */
function chainDepth(statements: readonly ts.Statement[], exits: ts.Statement[]): number {
  const at = exits.map(e => statements.indexOf(e));
  const after = statements.slice(at.at(-1)! + 1);
  let depth = after.length === 0 || (after.length === 1 && ts.isIfStatement(after[0]!)) ? 0 : 1;
  for (let i = 1; i < at.length; i++) if (at[i]! - at[i - 1]! > 1) depth++;
  return depth;
}

/** The `break label;` statements in the tail of a statement: leaving there is falling through. */
function tailBreaks(node: ts.Statement, label: string): ts.BreakStatement[] {
  if (ts.isBreakStatement(node)) return node.label?.text === label ? [node] : [];
  if (ts.isBlock(node)) return node.statements.length > 0 ? tailBreaks(node.statements.at(-1)!, label) : [];
  if (ts.isIfStatement(node)) return [...tailBreaks(node.thenStatement, label), ...(node.elseStatement ? tailBreaks(node.elseStatement, label) : [])];
  if (ts.isTryStatement(node) && !node.finallyBlock) return [...tailBreaks(node.tryBlock, label), ...(node.catchClause ? tailBreaks(node.catchClause.block, label) : [])];
  return [];
}

/** The blocks in the tail of a statement, itself first: where the end of the list is the end of the labelled block. */
function tailLists(node: ts.Statement): ts.Block[] {
  if (ts.isBlock(node)) return [node, ...(node.statements.length > 0 ? tailLists(node.statements.at(-1)!) : [])];
  if (ts.isIfStatement(node)) return [...tailLists(node.thenStatement), ...(node.elseStatement ? tailLists(node.elseStatement) : [])];
  if (ts.isTryStatement(node) && !node.finallyBlock) return [...tailLists(node.tryBlock), ...(node.catchClause ? tailLists(node.catchClause.block) : [])];
  return [];
}

function countBreaks(node: ts.Node, label: string): number {
  let count = 0;
  const visit = (n: ts.Node): void => {
    if (ts.isBreakStatement(n) && n.label?.text === label) count++;
    if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  visit(node);
  return count;
}

/**
 * A break in the tail taken out: the inliner's `{ r = v; break L; }`, a block of its own in a list that
 * declares nothing, becomes its statements (`r = v;`); elsewhere (a branch, a try's block) the break goes.
 * None for a break that is a branch itself (`if (c) break L;`).
 */
function removeTailBreak(sf: ts.SourceFile, brk: ts.BreakStatement, unit: string): Edit | undefined {
  const block = brk.parent;
  if (!ts.isBlock(block)) return undefined;
  const kept = block.statements.slice(0, -1);
  if (ts.isBlock(block.parent) && topLevelNames(block)?.size === 0) {
    return kept.length === 0 ? wholeLines(sf, block, '') : { start: block.getStart(sf), end: block.getEnd(), text: blockContent(sf, block, kept.at(-1)!.getEnd(), unit) };
  }
  const alone = wholeLines(sf, brk, '');
  if (alone.start !== brk.getStart(sf)) return alone;
  return { start: kept.length > 0 ? kept.at(-1)!.getEnd() : block.getStart(sf) + 1, end: brk.getEnd(), text: kept.length > 0 ? '' : ' ' };
}

/**
 * `if (c) { X; break L; } rest` → `if (c) { X } else { rest }`: the same statements run, and the block is
 * left at the same places (rest reaches the block's end, or its own last break). When rest is one `if` (an
 * exit made so already), `else if`. A comment after the exit on its line (`if (free) { r = ok; break L; } // free`)
 * goes after the branch's last statement, which it is then about, as it was about the exit.
 */
function earlyExit(sf: ts.SourceFile, exit: ts.IfStatement, rest: readonly ts.Statement[], label: string, unit: string): Edit[] | undefined {
  if (rest.some(s => ts.isFunctionDeclaration(s))) return undefined;
  // A name rest declares that a closure before it reads (`const f = () => suffix; if (c) ...; const suffix = ...`) would
  // not be in that closure's scope once rest is in the else.
  const list = exit.parent as ts.Block;
  const before = list.statements.slice(0, list.statements.indexOf(exit) + 1);
  const declared = rest.flatMap(s => (ts.isVariableStatement(s) ? s.declarationList.declarations.flatMap(d => bindingNames(d.name)) : (ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name ? [s.name.text] : []));
  if (declared.some(name => before.some(s => mentions(s, name)))) return undefined;
  const indent = lineIndent(sf.text, exit.getStart(sf));
  if (rest.length === 0) {
    const then = thenWithoutBreak(sf, exit.thenStatement, label, indent, unit, '');
    return then === undefined ? undefined : [{ start: exit.thenStatement.getStart(sf), end: exit.thenStatement.getEnd(), text: then }];
  }
  const restStart = ownLinesStart(sf, rest[0]!);
  const trailing = trailingComment(sf, exit.getEnd(), restStart);
  if (trailing === undefined) return undefined;
  const then = thenWithoutBreak(sf, exit.thenStatement, label, indent, unit, trailing);
  if (then === undefined) return undefined;
  const thenEdit = { start: exit.thenStatement.getStart(sf), end: exit.thenStatement.getEnd(), text: then };
  const restEnd = trailingEnd(sf.text, rest.at(-1)!.getEnd());
  const alone = rest.length === 1 && ts.isIfStatement(rest[0]!) && sf.text.slice(restStart, rest[0]!.getStart(sf)).trim() === '';
  if (alone) return [thenEdit, { start: exit.getEnd(), end: restEnd, text: ` else ${sf.text.slice(rest[0]!.getStart(sf), restEnd)}` }];
  const restText = reindent(sf.text.slice(restStart, restEnd), indent, indent + unit);
  const elseText = ` else {\n${restText.startsWith(indent) ? indent + unit + restText.slice(indent.length) : restText}\n${indent}}`;
  return [thenEdit, { start: exit.getEnd(), end: restEnd, text: elseText }];
}

/** The comment after a statement on its line, up to `to` (`''` for none); undefined for anything else there (one over several lines). */
function trailingComment(sf: ts.SourceFile, from: number, to: number): string | undefined {
  const between = sf.text.slice(from, to);
  if (between.trim() === '') return '';
  const ranges = ts.getTrailingCommentRanges(sf.text, from) ?? [];
  const text = ranges.map(r => sf.text.slice(r.pos, r.end)).join(' ');
  const rest = ranges.reduce((t, r) => t.replace(sf.text.slice(r.pos, r.end), ''), between);
  return rest.trim() === '' && !text.includes('\n') ? text : undefined;
}

/** The branch of an early exit as a multi-line block, its final `break` gone, `trailing` (a comment) after its last statement. */
function thenWithoutBreak(sf: ts.SourceFile, branch: ts.Statement, label: string, indent: string, unit: string, trailing: string): string | undefined {
  const statements: string[] = [];
  const collect = (s: ts.Statement): boolean => {
    if (ts.isBreakStatement(s)) return true;
    if (!ts.isBlock(s)) return false;
    s.statements.forEach((inner, i) => {
      if (i < s.statements.length - 1) statements.push(sf.text.slice(inner.getStart(sf), inner.getEnd()));
    });
    return collect(s.statements.at(-1)!);
  };
  if (!collect(branch)) return undefined;
  // A comment in the branch, which only its statements are taken from, would be lost: left as it is.
  if (/\/\/|\/\*/.test(statements.reduce((text, st) => text.replace(st, ''), sf.text.slice(branch.getStart(sf), branch.getEnd())))) return undefined;
  if (statements.length === 0) return trailing === '' ? '{}' : `{\n${indent}${unit}${trailing}\n${indent}}`;
  const body = statements.map(s => `${indent}${unit}${reindent(s, lineIndent(sf.text, branch.getStart(sf)) + unit, indent + unit)}`).join('\n');
  return `{\n${body}${trailing === '' ? '' : ` ${trailing}`}\n${indent}}`;
}

/** The label taken off a block no break leaves, and its braces too when nothing around it can tell. */
function unlabel(sf: ts.SourceFile, labelled: InlineBlock, unit: string): Edit[] {
  const block = labelled.statement;
  if (block.statements.length === 0) return [wholeLines(sf, labelled, '')];
  // What follows it first, so that it does not keep the braces on.
  const dead = unreachableAfter(sf, labelled);
  if (dead.length > 0) return dead;
  if (!canUnwrap(labelled)) return [{ start: labelled.getStart(sf), end: block.getStart(sf), text: '' }];
  const contentEnd = block.getEnd() - 1 - /\s*$/.exec(sf.text.slice(0, block.getEnd() - 1))![0].length;
  return [{ start: labelled.getStart(sf), end: block.getEnd(), text: blockContent(sf, block, contentEnd, unit) }];
}

/**
 * The statements after a block no break leaves and that always returns (or throws): the phases printed
 * them for the way out the break was, which is gone. Kept when one of them is hoisted (a function, a var).
 */
function unreachableAfter(sf: ts.SourceFile, labelled: InlineBlock): Edit[] {
  const list = statementList(labelled);
  const after = list ? list.slice(list.indexOf(labelled) + 1) : [];
  if (after.length === 0 || !exits(labelled.statement)) return [];
  if (after.some(s => ts.isFunctionDeclaration(s) || (ts.isVariableStatement(s) && !(s.declarationList.flags & ts.NodeFlags.BlockScoped)))) return [];
  // (A comment after the block on its line is the block's: it stays.)
  const from = Math.max(ownLinesStart(sf, after[0]!), trailingEnd(sf.text, labelled.getEnd()));
  return [{ start: from, end: wholeLines(sf, after.at(-1)!, '').end, text: '' }];
}

/** Whether a statement certainly ends by returning or throwing (syntax only: a try, a loop or a switch is not known to). */
function exits(statement: ts.Statement): boolean {
  if (ts.isReturnStatement(statement) || ts.isThrowStatement(statement)) return true;
  if (ts.isBlock(statement)) return statement.statements.some(exits);
  if (ts.isIfStatement(statement)) return statement.elseStatement !== undefined && exits(statement.thenStatement) && exits(statement.elseStatement);
  return false;
}

/**
 * The statements of a block up to `end`, moved out of it by one indentation step: the first at the
 * block's own place, with the comments that lead it.
 */
function blockContent(sf: ts.SourceFile, block: ts.Block, end: number, unit: string): string {
  const indent = lineIndent(sf.text, block.getStart(sf));
  const first = block.statements[0]!;
  const lead = first.getFullStart() + leadingBlank(sf.text, first.getFullStart());
  const multiline = sf.text.slice(block.getStart(sf), block.getEnd()).includes('\n');
  if (!multiline) return sf.text.slice(first.getStart(sf), end);
  // `{ r = f({` with the rest on the lines below: from the statement, not from its line's start (the brace), and
  // its lines where they are (they continue a statement that stays on the brace's line).
  if (!sf.text.slice(block.getStart(sf) + 1, lead).includes('\n')) return sf.text.slice(lead, end);
  const text = sf.text.slice(lineStartOf(sf.text, lead), end);
  const moved = reindent('\n' + text, indent + unit, indent).slice(1);
  return moved.startsWith(indent) ? moved.slice(indent.length) : moved.trimStart();
}

/**
 * A block can lose its braces when the names it declares mean nothing else in the block around it (nor
 * the parameters of the function, or the catch clause, whose body that is) and it declares no function
 * (hoisted differently).
 */
function canUnwrap(labelled: InlineBlock): boolean {
  const parent = labelled.parent;
  if (!ts.isBlock(parent)) return false;
  const declared = topLevelNames(labelled.statement);
  if (declared === undefined) return false;
  if (declared.size === 0) return true;
  const around = parent.parent;
  const outer: string[] = [];
  if (ts.isFunctionLike(around)) for (const p of around.parameters) outer.push(...bindingNames(p.name));
  if (ts.isCatchClause(around) && around.variableDeclaration) outer.push(...bindingNames(around.variableDeclaration.name));
  if (outer.some(n => declared.has(n))) return false;
  return ![...declared].some(name => mentions(parent, name, labelled));
}

function topLevelNames(block: ts.Block): Set<string> | undefined {
  const names = new Set<string>();
  for (const s of block.statements) {
    if (ts.isFunctionDeclaration(s)) return undefined;
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) bindingNames(d.name).forEach(n => names.add(n));
    if ((ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) names.add(s.name.text);
    if (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) names.add(s.name.text);
  }
  return names;
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap(e => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** Whether an identifier `name` (not a property's name) occurs in `node`, outside `except`. */
function mentions(node: ts.Node, name: string, except?: ts.Node): boolean {
  const visit = (n: ts.Node): boolean => {
    if (n === except) return false;
    if (ts.isIdentifier(n) && n.text === name && !isPropertyName(n)) return true;
    return ts.forEachChild(n, child => visit(child) || undefined) ?? false;
  };
  return visit(node);
}

/**
 * Whether `node` names the variable `name` declared around it: an identifier of that name outside `except` and
 * outside the scopes inside `node` that declare a `name` of their own (an inlined helper's local may be called
 * as the handler's result is).
 */
function refersTo(node: ts.Node, name: string, except?: ts.Node): boolean {
  const visit = (n: ts.Node): boolean => {
    if (n === except || (n !== node && declaresOwn(n, name))) return false;
    if (ts.isIdentifier(n) && n.text === name && !isPropertyName(n)) return true;
    return ts.forEachChild(n, child => visit(child) || undefined) ?? false;
  };
  return visit(node);
}

/** Whether a scope declares `name` itself: a block's let, const, class or function, a function's parameter, a catch's or a for's variable. */
function declaresOwn(n: ts.Node, name: string): boolean {
  const inList = (list: ts.VariableDeclarationList) => !!(list.flags & ts.NodeFlags.BlockScoped) && list.declarations.some(d => bindingNames(d.name).includes(name));
  if (ts.isBlock(n)) {
    return n.statements.some(st => (ts.isVariableStatement(st) && inList(st.declarationList)) || ((ts.isClassDeclaration(st) || ts.isFunctionDeclaration(st)) && st.name?.text === name));
  }
  if (ts.isFunctionLike(n)) return n.parameters.some(p => bindingNames(p.name).includes(name)) || (ts.isFunctionExpression(n) && n.name?.text === name);
  if (ts.isCatchClause(n)) return n.variableDeclaration !== undefined && bindingNames(n.variableDeclaration.name).includes(name);
  if (ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n)) return n.initializer !== undefined && ts.isVariableDeclarationList(n.initializer) && inList(n.initializer);
  return false;
}

function isPropertyName(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return true;
  if (ts.isQualifiedName(parent) && parent.right === id) return true;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === id) return true;
  return ts.isBindingElement(parent) && parent.propertyName === id;
}

/**
 * The inliner's result variable once its block is plain code: gone where nothing names it (the round
 * that suspends in the block), `const` where one statement of its own list assigns it once and nothing
 * reads it before (`let r!: T; ... r = v;` → `const r: T = v;`).
 */
function resultTidying(sf: ts.SourceFile, name: string): Edit[] | undefined {
  for (const declaration of resultDeclarations(sf, name)) {
    const list = statementList(declaration)!;
    const scope = declaration.parent;
    if (!refersTo(scope, name, declaration)) return [wholeLines(sf, declaration, '')];
    const next = list.slice(list.indexOf(declaration) + 1).find(s => refersTo(s, name));
    const assigned = next && soleAssignment(next, name);
    if (!assigned || writes(scope, name) !== 1) continue;
    const decl = declaration.declarationList.declarations[0]!;
    const type = decl.type ? `: ${decl.type.getText(sf)}` : '';
    return [wholeLines(sf, declaration, ''), { start: next.getStart(sf), end: assigned.right.getStart(sf), text: `const ${name}${type} = ` }];
  }
  return undefined;
}

function resultDeclarations(sf: ts.SourceFile, name: string): ts.VariableStatement[] {
  const found: ts.VariableStatement[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableStatement(node) && uninitializedLet(node) === name && statementList(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** `name = value;` as a statement of its own. */
function soleAssignment(statement: ts.Statement, name: string): ts.BinaryExpression | undefined {
  if (!ts.isExpressionStatement(statement)) return undefined;
  const e = statement.expression;
  return ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(e.left) && e.left.text === name && !mentions(e.right, name) ? e : undefined;
}

/** How many times `name` is written in `scope`; an unknown kind of write counts as many. */
function writes(scope: ts.Node, name: string): number {
  let count = 0;
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && n.text === name && !isPropertyName(n) && !ts.isVariableDeclaration(n.parent)) count += writeWeight(n);
    ts.forEachChild(n, visit);
  };
  visit(scope);
  return count;
}

function writeWeight(id: ts.Identifier): number {
  let node: ts.Node = id;
  // Through destructuring targets (`({ a: name } = x)`, `[name] = x`): a write we do not count precisely.
  while (ts.isParenthesizedExpression(node.parent) || ts.isArrayLiteralExpression(node.parent) || ts.isObjectLiteralElementLike(node.parent) || ts.isObjectLiteralExpression(node.parent) || ts.isSpreadElement(node.parent)) {
    if (node.parent === id.parent && ts.isPropertyAssignment(node.parent) && node.parent.name === id) return 0;
    node = node.parent;
  }
  const parent = node.parent;
  if (ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return node === id ? 1 : 2;
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) && (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)) return 2;
  if ((ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === node) return 2;
  return 0;
}

/** A statement replaced, taking its whole lines when it has them to itself. */
function wholeLines(sf: ts.SourceFile, node: ts.Node, text: string): Edit {
  const start = node.getStart(sf);
  const lineStart = lineStartOf(sf.text, start);
  const after = /^[ \t]*\r?\n/.exec(sf.text.slice(node.getEnd()));
  if (/^[ \t]*$/.test(sf.text.slice(lineStart, start)) && after) return { start: lineStart, end: node.getEnd() + after[0].length, text };
  return { start, end: node.getEnd(), text };
}

/**
 * Where a statement's own lines start: with the comments that lead it on lines of their own, not the
 * comment that trails the statement before it on that one's line.
 */
function ownLinesStart(sf: ts.SourceFile, statement: ts.Statement): number {
  const fullStart = statement.getFullStart();
  const own = (ts.getLeadingCommentRanges(sf.text, fullStart) ?? []).find(c => sf.text.slice(fullStart, c.pos).includes('\n'));
  return lineStartOf(sf.text, own ? own.pos : statement.getStart(sf));
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** How far the blank lines before a statement's leading comments go (its full start is after the previous token). */
function leadingBlank(text: string, fullStart: number): number {
  return /^\s*/.exec(text.slice(fullStart))![0].length;
}

function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStartOf(text, offset)))![0];
}
