/**
 * A module-level `let` (or `var`) that a helper of another module assigns, when the helper is inlined
 * into a handler: the handler's file imports the variable, and an imported binding cannot be assigned.
 * So the variable's module gets a setter beside it, as a person would write it,
 *
 *   export let sessionAutoApprove = false;
 *   export function setSessionAutoApprove(value: boolean): void {
 *     sessionAutoApprove = value;
 *   }
 *
 * the variable is exported for reads (an ES import is a live binding: it reads the current value), and
 * each assignment of the inlined code becomes a call of the setter: `x = e;` → `setX(e);`,
 * `x += e;` → `setX(x + e);`, `x++;` → `setX(x + 1);` (x a number). What a setter call cannot stand for
 * keeps the helper from being inlined, said so: an assignment whose value is used, a logical
 * assignment, destructuring or a loop head, one inside a function the helper creates, a CommonJS
 * module (its exports are copies), or a setter name its module already has.
 */
import path from 'node:path';
import { Node, SyntaxKind, VariableDeclarationKind, type FunctionDeclaration, type SourceFile, type VariableDeclaration, type VariableStatement } from 'ts-morph';
import { placeAsIs } from './bindings.js';
import { codeStyle } from '../rewrite/style.js';
import { printableType } from './flow.js';
import type { FunctionLike } from './sites.js';

/** What the summary counts these refusals by (src/tables/causes.ts matches it). */
export const SETTER_CAUSE = 'it assigns a module-level variable of its module where a setter call cannot stand in';

/** An assignment of the variable in the helper, a statement of its own: `x = e`, `x += e`, `x++`. */
export interface LetWrite {
  /** The assignment expression, which the setter call replaces. */
  node: Node;
  /** `e` of `x = e` or `x += e`. */
  value?: Node;
  /** The binary operator of a compound assignment or an increment: `+` of `x += e` or `x++`. */
  operator?: string;
}

/** A variable the inlined code assigns through its module's setter. */
export interface ModuleSetter {
  decl: VariableDeclaration;
  writes: LetWrite[];
  /** The setter's name in the handler's file. */
  local: string;
  /** What that name is bound to (src/analysis/bindings.ts) once imported, before the module declares it. */
  binding: string;
}

/** A module-level `let` or `var` declaration, the kind a setter is made for. */
export function isModuleVariable(decl: Node, top: Node): top is VariableStatement {
  return Node.isVariableDeclaration(decl) && Node.isVariableStatement(top) && top.getDeclarationKind() !== VariableDeclarationKind.Const;
}

/**
 * How the moved code (`pieces` of `helper`) writes the module variable: its assignments, each a
 * statement a setter call can replace, and whether it also reads it; or why one cannot be replaced.
 */
export function variableWrites(decl: VariableDeclaration, pieces: Node[], helper: FunctionLike): { writes: LetWrite[]; reads: boolean } | { refused: string } {
  const name = decl.getName();
  const what = `${name}, a module-level ${(decl.getVariableStatement() as VariableStatement).getDeclarationKind()} of ${path.basename(decl.getSourceFile().getFilePath())}`;
  const writes: LetWrite[] = [];
  const reads: Node[] = [];
  for (const piece of pieces) {
    for (const id of [piece, ...piece.getDescendants()].filter(Node.isIdentifier)) {
      if (id.getText() !== name || symbolDeclaration(id) !== decl) continue;
      const found = writeOf(id);
      if (!found) {
        reads.push(id);
        continue;
      }
      if ('refused' in found) return { refused: `it assigns ${what}, ${found.refused}` };
      if (found.node.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a) || Node.isClassStaticBlockDeclaration(a)) !== (helper as Node)) {
        return { refused: `it assigns ${what}, inside a function it creates (only the helper's own statements become calls of a setter); assign it in the helper's own body, or migrate by hand` };
      }
      if (found.operator && !found.value && !numeric(decl)) return { refused: `it increments ${what}, which is not declared a number; write ${name} += 1, or migrate by hand` };
      writes.push(found);
    }
  }
  const narrowed = writes.length > 0 ? narrowedRead(decl, reads, writes[0]!.node.getStart()) : undefined;
  if (narrowed) return { refused: `it assigns ${what}, and reads it after that narrowed to ${narrowed} (declared ${decl.getType().getText(decl)}), which a read of the import after a call of a setter may not be; keep the value in a local and read that, or migrate by hand` };
  return { writes, reads: reads.length > 0 || writes.some(w => w.operator) };
}

/**
 * The type a read after the first write has where it is narrower than the variable's declared type:
 * TypeScript narrows a variable to what was assigned to it, not an import to what a call set.
 */
function narrowedRead(decl: VariableDeclaration, reads: Node[], firstWrite: number): string | undefined {
  const declared = decl.getType().getText(decl);
  for (const read of reads) {
    if (read.getStart() < firstWrite) continue;
    const type = read.getType().getText(decl);
    if (type !== declared) return type;
  }
  return undefined;
}

/** What a name refers to (the variable, for a shorthand property `{ x }`). */
function symbolDeclaration(id: Node): Node | undefined {
  const parent = id.getParent();
  const symbol = parent && Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
  return symbol?.getDeclarations()[0];
}

const STATEMENT_FIX = 'which a call of a setter cannot stand for; assign it in a statement of its own';

/** How an identifier is assigned, if it is: a write a setter call can replace, or why not. */
function writeOf(id: Node): LetWrite | { refused: string } | undefined {
  if (destructured(id)) return { refused: `by destructuring or as a loop variable, ${STATEMENT_FIX} (${id.getText()} = value;)` };
  const parent = id.getParent()!;
  let operator: string | undefined;
  let value: Node | undefined;
  if (Node.isBinaryExpression(parent) && parent.getLeft() === id && isAssignment(parent.getOperatorToken().getKind())) {
    const token = parent.getOperatorToken().getText();
    if (/^(\|\||&&|\?\?)=$/.test(token)) return { refused: `with ${token}, ${STATEMENT_FIX} (an if around ${id.getText()} = value;)` };
    operator = token === '=' ? undefined : token.slice(0, -1);
    value = parent.getRight();
  } else if ((Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(parent.getOperatorToken())) {
    operator = parent.getOperatorToken() === SyntaxKind.PlusPlusToken ? '+' : '-';
  } else return undefined;
  if (!Node.isExpressionStatement(parent.getParent())) return { refused: `inside an expression that uses its value, ${STATEMENT_FIX} (${id.getText()} = value;)` };
  return { node: parent, value, operator };
}

function isAssignment(kind: SyntaxKind): boolean {
  return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
}

/** Whether an identifier is a target of a destructuring assignment (`[x, y] = ...`, `({ x } = ...)`) or a `for (x of ...)` head. */
function destructured(id: Node): boolean {
  let node = id;
  let inPattern = false;
  for (let parent = node.getParent(); parent; node = parent, parent = node.getParent()) {
    if (Node.isForOfStatement(parent) || Node.isForInStatement(parent)) return parent.getInitializer() === node;
    if (Node.isArrayLiteralExpression(parent) || Node.isObjectLiteralExpression(parent)) inPattern = true;
    else if (Node.isBinaryExpression(parent) && parent.getLeft() === node && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
      // `[x = 1] = ...`: a default inside a pattern; the pattern's own `=` ends it.
      if (inPattern) return true;
      const outer = parent.getParent();
      if (!outer || !(Node.isArrayLiteralExpression(outer) || Node.isPropertyAssignment(outer))) return false;
    } else if (
      !Node.isParenthesizedExpression(parent) &&
      !Node.isSpreadElement(parent) &&
      !Node.isSpreadAssignment(parent) &&
      !Node.isShorthandPropertyAssignment(parent) &&
      !(Node.isPropertyAssignment(parent) && parent.getInitializer() === node)
    )
      return false;
  }
  return false;
}

function numeric(decl: VariableDeclaration): boolean {
  const type = decl.getType();
  return type.isNumber() || type.isNumberLiteral();
}

/** The setter's name: `setX` for `x`. */
export function setterName(variable: string): string {
  return `set${variable[0]!.toUpperCase()}${variable.slice(1)}`;
}

/** Why `module` cannot get a setter `setter` beside its variable (or use the one it has), if it cannot. */
export function setterObstacle(module: SourceFile, what: string, setter: string, has: boolean): string | undefined {
  const name = path.basename(module.getFilePath());
  if (commonJs(module)) return `it assigns ${what}, a CommonJS module, whose exports are copies taken once, not live bindings; have ${name} export a function that makes the change and call that from the helper, or migrate by hand`;
  if (has) return undefined;
  if (module.getLocal(setter) || module.getExportedDeclarations().has(setter) || module.getExportDeclarations().some(d => d.getNamedExports().some(n => (n.getAliasNode() ?? n.getNameNode()).getText() === setter))) {
    return `it assigns ${what}, and ${name} already has a ${setter}, the name the setter it would need takes; rename that ${setter}, or migrate by hand`;
  }
  return undefined;
}

function commonJs(module: SourceFile): boolean {
  if (module.getExportAssignments().some(a => a.isExportEquals())) return true;
  return module.getDescendantsOfKind(SyntaxKind.BinaryExpression).some(b => b.getOperatorToken().getKind() === SyntaxKind.EqualsToken && /^(module\.exports\b|exports\.)/.test(b.getLeft().getText()));
}

/**
 * The setter's declaration in its module's style (indent, semicolons, return types when its functions
 * declare them), typed as the variable is declared, else as it is inferred, else `typeof x`.
 */
export function setterDeclaration(decl: VariableDeclaration, setter: string, helper: FunctionLike): string {
  const module = decl.getSourceFile();
  const source = module.getFullText();
  const style = codeStyle(source);
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const name = decl.getName();
  const param = name === 'value' ? 'next' : 'value';
  const javascript = /\.[cm]?jsx?$/.test(module.getFilePath());
  const type = decl.getTypeNode()?.getText() ?? printableType(decl, helper) ?? `typeof ${name}`;
  const why = `Sets ${name} from another module, which cannot assign an imported binding.`;
  const lines = javascript
    ? ['/**', ` * ${why}`, ` * @param {${type}} ${param}`, ' */', `export function ${setter}(${param}) {`]
    : [`/** ${why} */`, `export function ${setter}(${param}: ${type})${module.getFunctions().some(f => f.getReturnTypeNode()) ? ': void' : ''} {`];
  return [...lines, `${style.unit}${name} = ${param}${style.semicolons ? ';' : ''}`, '}'].join(eol);
}

/**
 * What `bindingOf()` (src/analysis/bindings.ts) gives the handler's import of the setter: its
 * declaration, where the module has one already, else the module and name it is to be exported as.
 */
export function setterBinding(module: SourceFile, setter: string, existing: FunctionDeclaration | undefined): string {
  return existing ? placeAsIs(existing.compilerNode) : `import ${module.getFilePath().replace(/\.[cm]?[jt]sx?$/, '')} ${setter}`;
}

/**
 * The setter an earlier run gave the module (or its author wrote just so): a function of that name
 * whose one statement assigns its one parameter to the variable. A later run inlining another call reuses it.
 */
export function existingSetter(module: SourceFile, setter: string, variable: VariableDeclaration): FunctionDeclaration | undefined {
  const fn = module.getFunction(setter);
  const [param, ...more] = fn?.getParameters() ?? [];
  const [statement, ...rest] = fn?.getStatements() ?? [];
  if (!fn || !param || more.length > 0 || rest.length > 0 || !statement || !Node.isExpressionStatement(statement) || fn.isDefaultExport() || fn.getOverloads().length > 0) return undefined;
  const assignment = statement.getExpression();
  if (!Node.isBinaryExpression(assignment) || assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) return undefined;
  const [target, value] = [assignment.getLeft(), assignment.getRight()];
  return Node.isIdentifier(target) && symbolDeclaration(target) === variable && Node.isIdentifier(value) && symbolDeclaration(value) === param ? fn : undefined;
}

/** The setter call standing for a write, `variable` being the variable's name and `setter` the setter's in the handler's file. */
export function setterCall(write: LetWrite, variable: string, setter: string, textOf: (n: Node) => string): string {
  if (!write.operator) return `${setter}(${textOf(write.value!)})`;
  const operand = write.value ? (primary(write.value) ? textOf(write.value) : `(${textOf(write.value)})`) : '1';
  return `${setter}(${variable} ${write.operator} ${operand})`;
}

/** An operand that needs no parentheses on the right of a binary operator. */
function primary(node: Node): boolean {
  return (
    Node.isIdentifier(node) ||
    Node.isLiteralExpression(node) ||
    Node.isNoSubstitutionTemplateLiteral(node) ||
    Node.isTemplateExpression(node) ||
    Node.isCallExpression(node) ||
    Node.isPropertyAccessExpression(node) ||
    Node.isElementAccessExpression(node) ||
    Node.isParenthesizedExpression(node) ||
    Node.isTrueLiteral(node) ||
    Node.isFalseLiteral(node)
  );
}

/** The setter calls standing for the writes, put among the identifier edits (replacing those inside them). */
export function setterEdits(setters: ModuleSetter[], idEdits: { start: number; end: number; text: string }[], renames: Map<Node, string>, textOf: (n: Node) => string): void {
  const calls = setters.flatMap(s =>
    s.writes.map(w => ({ start: w.node.getStart(), end: w.node.getEnd(), text: setterCall(w, renames.get(s.decl) ?? s.decl.getName(), s.local, textOf) }))
  );
  for (const call of calls) {
    for (let i = idEdits.length - 1; i >= 0; i--) if (idEdits[i]!.start >= call.start && idEdits[i]!.end <= call.end) idEdits.splice(i, 1);
  }
  idEdits.push(...calls);
}
