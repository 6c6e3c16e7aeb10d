/**
 * What a name in a file stands for, read without a type checker (the upgrade sees one file at a time): the
 * initializer of a `const`, here or in a relative module it imports (read from disk), a member of a `const`
 * object literal, and the entries of the `const` table a loop variable walks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Node, Project, VariableDeclarationKind, type Identifier, type SourceFile } from 'ts-morph';

export type ModuleAt = (specifier: string, from: SourceFile) => SourceFile | undefined;

/** Relative modules, parsed once each into a scratch project; undefined for a package or a missing file. */
export function moduleReader(): ModuleAt {
  const modules = new Map<string, SourceFile | undefined>();
  const scratch = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  return (specifier, from) => {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.resolve(path.dirname(from.getFilePath()), specifier.replace(/\.[cm]?js$/, ''));
    if (!modules.has(base)) {
      const file = ['.ts', '.mts', '.js', '.mjs', '/index.ts', '/index.js'].map(ext => base + ext).find(p => fs.existsSync(p));
      modules.set(base, file ? scratch.createSourceFile(file, fs.readFileSync(file, 'utf8'), { overwrite: true }) : undefined);
    }
    return modules.get(base);
  };
}

/** The initializer of the `const` an identifier or a member read (`TOOLS.search.name`) stands for. */
export function constValue(e: Node, moduleAt: ModuleAt): Node | undefined {
  if (Node.isPropertyAccessExpression(e)) {
    const held =
      Node.isIdentifier(e.getExpression()) || Node.isPropertyAccessExpression(e.getExpression())
        ? constValue(e.getExpression(), moduleAt)
        : undefined;
    const object = held && withoutAssertions(held);
    const member = object && Node.isObjectLiteralExpression(object) ? object.getProperty(e.getName()) : undefined;
    return member && Node.isPropertyAssignment(member) ? member.getInitializer() : undefined;
  }
  if (!Node.isIdentifier(e)) return undefined;
  const sf = e.getSourceFile();
  const local = sf.getVariableDeclaration(e.getText());
  if (local?.getVariableStatement()?.getDeclarationKind() === 'const') return local.getInitializer();
  for (const d of sf.getImportDeclarations()) {
    const named = d.getNamedImports().find(n => (n.getAliasNode()?.getText() ?? n.getName()) === e.getText());
    const module = named && moduleAt(d.getModuleSpecifierValue(), sf);
    const exported = module?.getVariableDeclaration(named!.getName());
    if (exported?.getVariableStatement()?.getDeclarationKind() === 'const') return exported.getInitializer();
  }
  return undefined;
}

/**
 * For `t.member`, where `t` is the variable of `for (const t of TABLE)` or the parameter of `TABLE.forEach(t =>
 * ...)` / `.map`, and TABLE is a `const` array literal of entries (object literals, or consts holding them):
 * each entry's member (undefined where an entry lacks it). Undefined when the read is not of that form.
 */
export function tableMembers(e: Node, moduleAt: ModuleAt): (Node | undefined)[] | undefined {
  if (!Node.isPropertyAccessExpression(e) || !Node.isIdentifier(e.getExpression())) return undefined;
  const table = iteratedBy(e.getExpression() as Identifier);
  const held = table && (Node.isArrayLiteralExpression(withoutAssertions(table)) ? table : constValue(table, moduleAt));
  const array = held && withoutAssertions(held);
  if (!array || !Node.isArrayLiteralExpression(array)) return undefined;
  return array.getElements().map(element => {
    const entry = withoutAssertions(Node.isIdentifier(element) ? (constValue(element, moduleAt) ?? element) : element);
    const member = Node.isObjectLiteralExpression(entry) ? entry.getProperty(e.getName()) : undefined;
    if (Node.isShorthandPropertyAssignment(member)) return constValue(member.getNameNode(), moduleAt);
    return Node.isPropertyAssignment(member) ? member.getInitializer() : undefined;
  });
}

/** The table a loop variable walks: `for (const t of X)`, `X.forEach(t => ...)`, `X.map(t => ...)`; never reassigned. */
function iteratedBy(id: Identifier): Node | undefined {
  for (const scope of id.getAncestors()) {
    if (Node.isForOfStatement(scope)) {
      const list = scope.getInitializer();
      const declared =
        Node.isVariableDeclarationList(list) && list.getDeclarationKind() === VariableDeclarationKind.Const ? list.getDeclarations() : [];
      if (declared.length === 1 && declared[0]!.getNameNode().getText() === id.getText()) return scope.getExpression();
    }
    if (
      (Node.isArrowFunction(scope) || Node.isFunctionExpression(scope)) &&
      scope.getParameters()[0]?.getNameNode().getText() === id.getText()
    ) {
      const call = scope.getParent();
      const callee = Node.isCallExpression(call) && call.getArguments()[0] === scope ? call.getExpression() : undefined;
      return Node.isPropertyAccessExpression(callee) && /^(forEach|map)$/.test(callee.getName()) ? callee.getExpression() : undefined;
    }
    if (Node.isFunctionLikeDeclaration(scope)) return undefined;
  }
  return undefined;
}

/** `x as const`, `x satisfies T`, `(x)`: x. */
export function withoutAssertions(n: Node): Node {
  return Node.isAsExpression(n) || Node.isSatisfiesExpression(n) || Node.isParenthesizedExpression(n)
    ? withoutAssertions(n.getExpression())
    : n;
}
