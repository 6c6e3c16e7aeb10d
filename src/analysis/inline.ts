/**
 * Helpers that await a server-initiated request, inlined into the handlers that call them, so the
 * handler's phases can split them: the call becomes a labelled block that binds the parameters,
 * runs the helper's body and turns each `return` into an assignment and a `break`.
 *
 *   const name = await askName(greeting);
 * becomes
 *   let askNameResult!: Awaited<ReturnType<typeof askName>>;
 *   mcpInline: {
 *     const mcpGreeting = greeting;   // the helper's parameter, renamed so it cannot capture the argument
 *     ...body, `return x;` → `{ askNameResult = x; break mcpInline; }`
 *   }
 *   const name = askNameResult;
 *
 * Only what keeps its meaning when moved: a helper in the same file, at module level, async, with
 * a block body and plain parameters, no `var`, `this`, `arguments` or recursion, whose other free
 * names mean the same at the call site.
 */
import { Node, SyntaxKind, type CallExpression, type SourceFile, type Statement } from 'ts-morph';
import { printableType } from './flow.js';
import { unwrap } from './mcpSymbols.js';
import { nameAllocator } from './names.js';
import { findSites, registrationOf, type FunctionLike } from './sites.js';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
  /** The inlined code names the helper (in a type), so the helper must stay. */
  namesHelper?: boolean;
}

export interface Inlining {
  edits: TextEdit[];
  /** What the report should say: helpers removed because every call to them was inlined. */
  notes: string[];
}

/**
 * The edits that inline every eligible helper call inside a rewritable handler of this file; a
 * helper left with no caller (and not exported) is removed, and said so.
 */
export function inlineHelpers(sf: SourceFile): Inlining {
  const edits = inlineEdits(sf);
  const notes: string[] = [];
  const inlinedCalls = new Set(edits.map(e => e.call));
  for (const helper of new Set(edits.map(e => e.helper))) {
    const decl = declarationOf(helper);
    const statement = Node.isVariableDeclaration(decl) ? decl.getVariableStatement() : decl;
    const nameNode = (decl as import('ts-morph').FunctionDeclaration | import('ts-morph').VariableDeclaration).getNameNode();
    if (!statement || !nameNode || !Node.isIdentifier(nameNode)) continue;
    if ((Node.isFunctionDeclaration(statement) || Node.isVariableStatement(statement)) && statement.isExported()) continue;
    const refs = nameNode.findReferencesAsNodes().filter(r => r !== nameNode);
    const name = nameNode.getText();
    const exportedLater =
      sf.getExportDeclarations().some(d => d.getNamedExports().some(n => n.getName() === name)) || sf.getExportAssignments().some(a => a.getExpression().getText() === name);
    if (exportedLater || refs.some(r => !inlinedCalls.has(r.getParent() as CallExpression))) continue;
    if (edits.some(e => e.helper === helper && e.namesHelper)) continue;
    const { line } = sf.getLineAndColumnAtPos(statement.getStart());
    const after = sf.getFullText().slice(statement.getEnd()).match(/^[ \t]*\n(?:[ \t]*\n)?/)?.[0].length ?? 0;
    edits.push({ start: statement.getStart(true), end: statement.getEnd() + after, text: '', helper, call: undefined });
    notes.push(`${sf.getBaseName()}:${line}: ${nameNode.getText()}() removed: every call to it was inlined into the handlers, where it is migrated`);
  }
  return { edits, notes };
}

interface HelperEdit extends TextEdit {
  helper: FunctionLike;
  call: CallExpression | undefined;
}

function inlineEdits(sf: SourceFile): HelperEdit[] {
  const helpers = new Map<Node, FunctionLike>();
  for (const site of findSites(sf)) {
    const fn = site.fn;
    if (fn && !registrationOf(fn) && eligibleHelper(fn)) helpers.set(declarationOf(fn), fn);
  }
  if (helpers.size === 0) return [];
  const edits: HelperEdit[] = [];
  const fresh = nameAllocator(sf.getDescendantsOfKind(SyntaxKind.Identifier).map(i => i.getText()));
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isIdentifier(callee)) continue;
    const decl = callee.getSymbol()?.getDeclarations()[0];
    const helper = decl && helpers.get(decl);
    if (!helper) continue;
    const handler = call.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a)) as FunctionLike | undefined;
    if (!handler || !registrationOf(handler)) continue;
    const edit = inlineCall(call, helper, callee.getText(), fresh);
    if (edit) edits.push({ ...edit, helper, call });
  }
  return edits;
}

function declarationOf(fn: FunctionLike): Node {
  const parent = fn.getParent();
  return Node.isVariableDeclaration(parent) ? parent : fn;
}

function eligibleHelper(fn: FunctionLike): boolean {
  const body = fn.getBody();
  if (!body || !Node.isBlock(body) || !(fn as unknown as { isAsync(): boolean }).isAsync()) return false;
  const decl = declarationOf(fn);
  if (!Node.isFunctionDeclaration(decl) && !Node.isVariableDeclaration(decl)) return false;
  const atModuleLevel = Node.isFunctionDeclaration(decl) ? Node.isSourceFile(decl.getParent()) : Node.isSourceFile(decl.getFirstAncestorByKind(SyntaxKind.VariableStatement)?.getParent());
  if (!atModuleLevel) return false;
  if (Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() !== 'const') return false;
  if (fn.getParameters().some(p => !Node.isIdentifier(p.getNameNode()) || p.getInitializer() || p.getDotDotDotToken())) return false;
  const name = decl.getName();
  return !body.getDescendants().some(
    d =>
      d.getKind() === SyntaxKind.ThisKeyword ||
      (Node.isIdentifier(d) && (d.getText() === 'arguments' || d.getText() === name)) ||
      (Node.isVariableDeclarationList(d) && d.getDeclarationKind() === 'var') ||
      Node.isYieldExpression(d) ||
      Node.isLabeledStatement(d)
  );
}

/** The statement forms a call can be inlined from: the statement then reads the helper's result from a fresh variable. */
function inlineCall(call: CallExpression, helper: FunctionLike, helperName: string, fresh: (base: string) => string): TextEdit | undefined {
  const awaited = call.getParent();
  if (!awaited || !Node.isAwaitExpression(awaited)) return undefined;
  const parent = awaited.getParent();
  let stmt: Statement | undefined;
  if (Node.isVariableDeclaration(parent) && unwrap(parent.getInitializer()!) === awaited) {
    const vs = parent.getVariableStatement();
    if (vs && vs.getDeclarations().length === 1) stmt = vs;
  } else if (Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken && parent.getRight() === awaited) {
    if (Node.isExpressionStatement(parent.getParent())) stmt = parent.getParent() as Statement;
  } else if (Node.isExpressionStatement(parent) || Node.isReturnStatement(parent)) {
    stmt = parent;
  }
  if (!stmt || !sameMeaningAt(helper, call)) return undefined;
  const args = call.getArguments();
  if (args.some(a => Node.isSpreadElement(a))) return undefined;

  const label = fresh('mcpInline');
  const result = fresh(`${helperName}Result`);
  const renames = new Map<Node, string>();
  const bindings = helper.getParameters().map((p, i) => {
    const local = fresh(`mcp${p.getName()[0]!.toUpperCase()}${p.getName().slice(1)}`);
    renames.set(p, local);
    const type = p.getTypeNode() ? `: ${p.getTypeNode()!.getText()}` : '';
    return `const ${local}${type} = ${args[i]?.getText() ?? 'undefined'};`;
  });
  // The helper's body text, with parameters renamed and each return turned into an assignment and a break.
  const body = helper.getBody() as import('ts-morph').Block;
  const edits: TextEdit[] = [];
  for (const id of body.getDescendantsOfKind(SyntaxKind.Identifier)) {
    const decl = id.getSymbol()?.getDeclarations()[0];
    const renamed = decl && renames.get(decl);
    if (!renamed) continue;
    const shorthand = Node.isShorthandPropertyAssignment(id.getParent());
    edits.push({ start: id.getStart(), end: id.getEnd(), text: shorthand ? `${id.getText()}: ${renamed}` : renamed });
  }
  for (const ret of body.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    if (ret.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a)) !== helper) continue;
    const value = ret.getExpression();
    const valueText = value ? applyEdits(value.getText(), value.getStart(), edits.filter(e => e.start >= value.getStart() && e.end <= value.getEnd())) : 'undefined';
    for (let i = edits.length - 1; i >= 0; i--) if (edits[i]!.start >= ret.getStart() && edits[i]!.end <= ret.getEnd()) edits.splice(i, 1);
    edits.push({ start: ret.getStart(), end: ret.getEnd(), text: `{ ${result} = ${valueText}; break ${label}; }` });
  }
  const inner = applyEdits(body.getText().slice(1, -1), body.getStart() + 1, edits);
  const indent = /^[ \t]*/.exec(stmt.getSourceFile().getFullText().slice(stmt.getStartLinePos()))![0];
  // The statement itself, reading the result where it awaited the call.
  const reading = Node.isExpressionStatement(stmt) && stmt.getExpression() === awaited
    ? ''
    : `\n${indent}${stmt.getText().slice(0, awaited.getStart() - stmt.getStart())}${result}${stmt.getText().slice(awaited.getEnd() - stmt.getStart())}`;
  const type = resultType(stmt, awaited, helper, helperName);
  const text = `let ${result}${type.text};\n${indent}${label}: {\n${indent}  ${bindings.join(`\n${indent}  `)}${inner}\n${indent}}${reading}`;
  return { start: stmt.getStart(), end: stmt.getEnd(), text, namesHelper: type.namesHelper };
}

/**
 * The result variable's annotation (`!`: it is assigned inside the block before any read, which the
 * checker cannot see through the break): the helper's declared return type, else the call's type
 * where it prints, else one that names the helper (which then has to stay).
 */
function resultType(stmt: Statement, awaited: Node, helper: FunctionLike, helperName: string): { text: string; namesHelper: boolean } {
  if (/\.[cm]?jsx?$/.test(stmt.getSourceFile().getFilePath())) return { text: '', namesHelper: false };
  const declared = (helper as unknown as { getReturnTypeNode?(): Node | undefined }).getReturnTypeNode?.();
  if (declared) return { text: `!: Awaited<${declared.getText()}>`, namesHelper: false };
  const handler = stmt.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a)) as FunctionLike | undefined;
  const printed = handler && printableType(awaited, handler);
  if (printed) return { text: `!: ${printed}`, namesHelper: false };
  return { text: `!: Awaited<ReturnType<typeof ${helperName}>>`, namesHelper: true };
}

/** Every free name of the helper resolves at the call site to what it resolves to in the helper. */
function sameMeaningAt(helper: FunctionLike, call: CallExpression): boolean {
  const checker = helper.getProject().getTypeChecker().compilerObject;
  const resolve = (name: string, at: Node) =>
    (checker as unknown as { resolveName(n: string, l: import('ts-morph').ts.Node, m: number, g: boolean): unknown }).resolveName(name, at.compilerNode, 0xffffffff, false);
  for (const id of helper.getBody()!.getDescendantsOfKind(SyntaxKind.Identifier)) {
    const decl = id.getSymbol()?.getDeclarations()[0];
    if (!decl || decl.getFirstAncestor(a => a === helper)) continue; // the helper's own
    const parent = id.getParent();
    if ((Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) || (Node.isPropertyAssignment(parent) && parent.getNameNode() === id)) continue;
    if (resolve(id.getText(), call) !== resolve(id.getText(), id)) return false;
  }
  return true;
}

function applyEdits(text: string, offset: number, edits: TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) {
    if (e.start < offset || e.end > offset + text.length) continue;
    out = out.slice(0, e.start - offset) + e.text + out.slice(e.end - offset);
  }
  return out;
}
