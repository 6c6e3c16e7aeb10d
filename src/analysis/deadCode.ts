/**
 * Code of a file that the rewrite leaves unused: a function the file declares and does not export, whose
 * every use the rewrite takes out (the wrapper of requests it unwrapped, src/analysis/callbacks.ts; a cache
 * filler whose handler calls it split, src/analysis/cacheFiller.ts), and what only that function used: the
 * file's functions, classes and constants nothing else reads, and its imports. Left in place, each would be
 * a finding of `noUnusedLocals` and of linters in a project that passed them before the migration.
 *
 * Never anything exported (under any name: an `export { name }` is a reference), read anywhere else (in
 * this file or another), or whose removal would take an effect with it: a constant goes only when making
 * its value does nothing else (a literal, a function, `new` of a class of the file whose construction only
 * stores values), a class only when defining it runs nothing of the project's (no decorators, no static code).
 */
import { Node, SyntaxKind, type CallExpression, type ClassDeclaration, type Expression, type Identifier, type SourceFile, type Statement } from 'ts-morph';
import type { FilePlan } from '../plan.js';
import type { Site } from './sites.js';
import { notAReference } from './bindings.js';
import { unwrap } from './mcpSymbols.js';

/** Whether a reference to a declaration is one the rewrite takes out (an unwrapped wrapper's call). */
export type TakenOut = (ref: Node) => boolean;

export interface DeadCode {
  /** Top-level statements that go, in the file's order. */
  statements: Statement[];
  /** Names only those statements read that stay, since removing them could take an effect with them (`const t = Date.now()`). */
  kept: string[];
  /** Import bindings (a named specifier, a default import's clause) that only those statements read. */
  imports: Node[];
}

const within = (n: Node, st: Node): boolean => n.getStart() >= st.getStart() && n.getEnd() <= st.getEnd();

/**
 * The top-level statement declaring the function `decl` is (`function f() {}`, `const f = () => ...`), when the
 * file does not export it and every reference to it, in any file, is inside it (a recursive call) or taken out.
 */
export function unusedFunction(decl: Node, takenOut: TakenOut): Statement | undefined {
  const found = topLevelFunction(decl);
  if (!found) return undefined;
  return references(found.name).every(r => within(r, found.statement) || takenOut(r)) ? found.statement : undefined;
}

/** `roots`, which go, and what then goes with them: declarations and imports only they (and what goes) read. */
export function deadCode(roots: Statement[], takenOut: TakenOut): DeadCode {
  const statements = [...roots];
  const kept = new Set<Statement>();
  const gone = (r: Node) => statements.some(st => within(r, st)) || takenOut(r);
  for (let added = true; added; ) {
    added = false;
    for (const decl of readDeclarations(statements)) {
      const statement = topLevelStatement(decl);
      const name = statement && !statements.includes(statement) && !Node.isImportDeclaration(statement) ? declaredName(statement) : undefined;
      if (!statement || !name || !references(name).every(gone)) continue;
      if (!removable(statement)) {
        kept.add(statement);
        continue;
      }
      statements.push(statement);
      added = true;
    }
  }
  const imports = [...new Set(readDeclarations(statements))].filter(d => (Node.isImportSpecifier(d) || Node.isImportClause(d)) && importUses(d).every(gone));
  const keptNames = [...kept].filter(st => !statements.includes(st)).flatMap(st => declaredName(st)?.getText() ?? []);
  return { statements: statements.sort((a, b) => a.getStart() - b.getStart()), kept: keptNames, imports };
}

/**
 * The wrappers of a file's requests that its planned handlers unwrap (`await withTimeout(async () => ask(), ms)`),
 * declared in the file, that nothing calls any more: what goes, for the plan, and a note per function. A wrapper
 * with a site in it (or anything going with it) stays: its marker and report line would go with it.
 */
export function unusedWrappers(plan: FilePlan, unwrappedCalls: CallExpression[], sites: Site[]): { plan: NonNullable<FilePlan['removed']>; notes: { line: number; text: string }[] } | undefined {
  const requests = plan.handlers.flatMap(h => h.suspensions.flatMap(s => s.requests.filter(r => r.unwrapped)));
  const sf = sites[0]?.node.getSourceFile();
  const calls = unwrappedCalls.filter(c => c.getSourceFile() === sf && requests.some(r => r.replace.start <= c.getStart() && c.getEnd() <= r.replace.end));
  const takenOut: TakenOut = ref => calls.some(c => c.getExpression() === ref);
  const roots = new Set<Statement>();
  for (const call of calls) {
    const callee = call.getExpression();
    const decl = Node.isIdentifier(callee) ? callee.getSymbol()?.getDeclarations()[0] : undefined;
    const statement = decl && unusedFunction(decl, takenOut);
    if (statement) roots.add(statement);
  }
  if (roots.size === 0) return undefined;
  const dead = deadCode([...roots], takenOut);
  if (sites.some(site => dead.statements.some(st => within(site.node, st)))) return undefined;
  const notes = dead.statements.map(st => {
    const name = declaredName(st)?.getText() ?? 'a declaration';
    const text = roots.has(st) ? `${name}() removed, no longer called: every call to it was unwrapped` : `${Node.isFunctionDeclaration(st) ? `${name}()` : name} removed, no longer used: only code removed as unused read it`;
    return { line: st.getStartLineNumber(), text };
  });
  const imports = dead.imports.flatMap(b => importLocal(b) ?? []);
  for (const name of dead.kept) {
    const statement = sf!.getStatements().find(st => declaredName(st)?.getText() === name);
    notes.push({ line: statement?.getStartLineNumber() ?? 1, text: `${name} is no longer read (only code removed as unused read it); kept, since making it may do something: remove it if it does not` });
  }
  return { plan: { statements: dead.statements.map(st => ({ start: st.getStart(), end: st.getEnd() })), imports }, notes };
}

/** The local name an import binding declares (`b` in `{ a as b }`, `d` in `import d from`). */
export function importLocal(binding: Node): string | undefined {
  if (Node.isImportSpecifier(binding)) return (binding.getAliasNode() ?? binding.getNameNode()).getText();
  return Node.isImportClause(binding) ? binding.getDefaultImport()?.getText() : undefined;
}

function topLevelFunction(decl: Node): { statement: Statement; name: Identifier } | undefined {
  const statement = topLevelStatement(decl);
  if (!statement || isExported(statement)) return undefined;
  if (Node.isFunctionDeclaration(statement)) {
    const name = statement.getNameNode();
    return name && statement.getBody() && statement.getOverloads().length === 0 ? { statement, name } : undefined;
  }
  if (!Node.isVariableStatement(statement) || statement.getDeclarationKind() !== 'const' || statement.getDeclarations().length !== 1) return undefined;
  const declaration = statement.getDeclarations()[0]!;
  const init = declaration.getInitializer();
  const name = declaration.getNameNode();
  const fn = init && unwrap(init);
  return fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) && Node.isIdentifier(name) ? { statement, name } : undefined;
}

/** The statement of the file's top level a declaration is, or is in. */
function topLevelStatement(decl: Node): Statement | undefined {
  const statement = Node.isSourceFile(decl.getParent()) ? decl : decl.getFirstAncestor(a => Node.isSourceFile(a.getParent()));
  return statement && Node.isStatement(statement) ? statement : undefined;
}

function isExported(statement: Statement): boolean {
  return (Node.isFunctionDeclaration(statement) || Node.isVariableStatement(statement) || Node.isClassDeclaration(statement)) && (statement.isExported() || statement.hasModifier(SyntaxKind.DefaultKeyword));
}

/** Every reference to a name, in any file, but the declaration's own. */
function references(name: Identifier): Node[] {
  return name.findReferencesAsNodes().filter(r => r !== name);
}

/** The declarations the identifiers of some statements read (a shorthand `{ name }` by its value), of their own file. */
function readDeclarations(statements: Statement[]): Node[] {
  const out: Node[] = [];
  for (const st of statements) {
    const sf = st.getSourceFile();
    for (const id of st.getDescendantsOfKind(SyntaxKind.Identifier)) {
      if (notAReference(id)) continue;
      const parent = id.getParent();
      const symbol = parent && Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
      const decl = symbol?.getDeclarations()[0];
      if (decl && decl.getSourceFile() === sf && !within(decl, st)) out.push(decl);
    }
  }
  return out;
}

/** The name a top-level declaration declares (a function, a class, a one-declarator variable statement). */
export function declaredNameOf(statement: Statement): string | undefined {
  return declaredName(statement)?.getText();
}

/** The name a removable statement declares. */
function declaredName(statement: Statement): Identifier | undefined {
  if (Node.isFunctionDeclaration(statement) || Node.isClassDeclaration(statement)) return statement.getNameNode();
  const name = Node.isVariableStatement(statement) ? statement.getDeclarations()[0]!.getNameNode() : undefined;
  return name && Node.isIdentifier(name) ? name : undefined;
}

/** A declaration whose removal takes nothing but the name with it. */
function removable(statement: Statement): boolean {
  if (isExported(statement)) return false;
  if (Node.isFunctionDeclaration(statement)) return statement.getOverloads().length === 0 && statement.getBody() !== undefined;
  if (Node.isClassDeclaration(statement)) return definesPurely(statement);
  if (!Node.isVariableStatement(statement) || statement.getDeclarationKind() === 'var' || statement.getDeclarations().length !== 1) return false;
  const declaration = statement.getDeclarations()[0]!;
  const init = declaration.getInitializer();
  return Node.isIdentifier(declaration.getNameNode()) && (!init || pure(init));
}

/**
 * Whether evaluating an expression does nothing but make its value: a literal, a function, a name read, an
 * object or array of such, `Promise.resolve(...)`, a new empty Map or Set, or `new` of a class of the file
 * whose construction only stores such values.
 */
function pure(e: Expression): boolean {
  const x = unwrap(e);
  if (Node.isLiteralExpression(x) || Node.isNoSubstitutionTemplateLiteral(x) || Node.isIdentifier(x) || Node.isArrowFunction(x) || Node.isFunctionExpression(x)) return true;
  if ([SyntaxKind.TrueKeyword, SyntaxKind.FalseKeyword, SyntaxKind.NullKeyword].includes(x.getKind())) return true;
  if (Node.isArrayLiteralExpression(x)) return x.getElements().every(el => !Node.isSpreadElement(el) && pure(el));
  if (Node.isObjectLiteralExpression(x)) {
    return x.getProperties().every(p => {
      if (Node.isShorthandPropertyAssignment(p) || Node.isMethodDeclaration(p) || Node.isGetAccessorDeclaration(p) || Node.isSetAccessorDeclaration(p)) return !Node.isComputedPropertyName(p.getNameNode());
      return Node.isPropertyAssignment(p) && !Node.isComputedPropertyName(p.getNameNode()) && pure(p.getInitializerOrThrow());
    });
  }
  if (Node.isCallExpression(x)) return x.getExpression().getText() === 'Promise.resolve' && fromLibrary(x.getExpression()) && x.getArguments().every(a => pure(a as Expression));
  if (!Node.isNewExpression(x)) return false;
  const args = x.getArguments() as Expression[];
  const callee = x.getExpression();
  if (['Map', 'Set', 'WeakMap', 'WeakSet'].includes(callee.getText()) && fromLibrary(callee)) return args.length === 0;
  const decl = Node.isIdentifier(callee) ? callee.getSymbol()?.getDeclarations()[0] : undefined;
  return decl !== undefined && Node.isClassDeclaration(decl) && decl.getSourceFile() === x.getSourceFile() && constructsPurely(decl) && args.every(pure);
}

/** A name of the language's own library (Promise, Map), not one of the project's. */
function fromLibrary(n: Node): boolean {
  const target = Node.isPropertyAccessExpression(n) ? n.getExpression() : n;
  const decl = target.getSymbol()?.getDeclarations()[0];
  return decl !== undefined && decl.getSourceFile().isDeclarationFile();
}

/** A class whose construction stores values only: no base class, pure field values, a constructor that only assigns `this.x = <pure>`. */
function constructsPurely(c: ClassDeclaration): boolean {
  if (c.getExtends() || c.getDecorators().length > 0) return false;
  const fields = c.getInstanceProperties().every(p => !Node.isPropertyDeclaration(p) || !p.getInitializer() || pure(p.getInitializerOrThrow()));
  return fields && c.getConstructors().every(ctor => {
    const params = ctor.getParameters().every(p => !p.getInitializer() || pure(p.getInitializerOrThrow()));
    return params && (ctor.getBody() as import('ts-morph').Block | undefined)?.getStatements().every(assignsThisPurely) !== false;
  });
}

function assignsThisPurely(st: Statement): boolean {
  const e = Node.isExpressionStatement(st) ? unwrap(st.getExpression()) : undefined;
  if (!e || !Node.isBinaryExpression(e) || e.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) return false;
  const left = e.getLeft();
  return Node.isPropertyAccessExpression(left) && left.getExpression().getKind() === SyntaxKind.ThisKeyword && pure(e.getRight());
}

/** A class whose definition runs nothing: no decorators, no static code, no computed member names, at most a base named. */
function definesPurely(c: ClassDeclaration): boolean {
  if (c.getDecorators().length > 0 || c.getStaticBlocks().length > 0) return false;
  const base = c.getExtends()?.getExpression();
  if (base && !Node.isIdentifier(base)) return false;
  return c.getMembers().every(m => {
    const decorated = 'getDecorators' in m && (m as unknown as { getDecorators(): unknown[] }).getDecorators().length > 0;
    const name = 'getNameNode' in m ? (m as unknown as { getNameNode(): Node }).getNameNode() : undefined;
    const staticValue = Node.isPropertyDeclaration(m) && m.isStatic() && m.getInitializer() && !pure(m.getInitializerOrThrow());
    return !decorated && !(name && Node.isComputedPropertyName(name)) && !staticValue;
  });
}

/** The identifiers of the import's file that read its binding (an `export { name }` counts). */
function importUses(binding: Node): Node[] {
  const local = importLocal(binding);
  const sf: SourceFile = binding.getSourceFile();
  const nameNode = Node.isImportSpecifier(binding) ? (binding.getAliasNode() ?? binding.getNameNode()) : Node.isImportClause(binding) ? binding.getDefaultImport() : undefined;
  if (!local || !nameNode) return [binding];
  const symbol = nameNode.getSymbol();
  return sf.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => {
    if (id === nameNode || id.getText() !== local) return false;
    const parent = id.getParent();
    if (parent && Node.isShorthandPropertyAssignment(parent)) return parent.getValueSymbol() === symbol;
    if (parent && Node.isExportSpecifier(parent)) return true;
    return id.getSymbol() === symbol;
  });
}
