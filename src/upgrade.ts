/**
 * SDK 1.x → 2.x: the official `@modelcontextprotocol/codemod` v1-to-v2 migration, applied in
 * memory to the files that import `@modelcontextprotocol/sdk`, so its changes join our diff and
 * its findings join our report. We never reimplement it.
 */
import { getMigration, type Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, Project, SyntaxKind, type SourceFile, type ts } from 'ts-morph';
import type { UpgradeNote } from './report.js';

export const V1_IMPORT = /from\s+['"]@modelcontextprotocol\/sdk[/'"]|require\(\s*['"]@modelcontextprotocol\/sdk[/'"]/;

export interface UpgradeResult {
  /** New text per upgraded file (absolute path). */
  texts: Map<string, string>;
  notes: UpgradeNote[];
}

export function upgradeV1(files: { path: string; text: string }[]): UpgradeResult {
  const texts = new Map<string, string>();
  const notes: UpgradeNote[] = [];
  const v1 = files.filter(f => V1_IMPORT.test(f.text));
  if (v1.length === 0) return { texts, notes };
  const migration = getMigration('v1-to-v2');
  if (!migration) throw new Error('the official codemod has no v1-to-v2 migration');
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: true } });
  const projectType = 'server' as const;
  for (const file of v1) {
    // One file the official codemod cannot handle must not cost the others their upgrade.
    try {
      const sf = project.createSourceFile(file.path, file.text, { overwrite: true });
      if (hasSyntaxErrors(sf)) {
        notes.push({ file: file.path, line: 1, level: 'error', message: 'not upgraded to SDK 2.x: the file has syntax errors' });
        continue;
      }
      // The official codemod reads import declarations only: a CommonJS file goes through it with
      // its requires turned into imports, and comes back with them turned into requires again.
      const commonJs = requiresToImports(sf);
      const actionRequired: Diagnostic[] = [];
      for (const transform of migration.transforms) {
        const result = transform.apply(sf, { projectType });
        notes.push(...result.diagnostics.map((d: Diagnostic) => toNote(d, sf.getFilePath())));
        actionRequired.push(...result.diagnostics.filter((d: Diagnostic) => d.insertComment));
      }
      insertCodemodMarkers(sf, actionRequired);
      notes.push(...repairContextTypes(sf), ...annotateResultArrays(sf));
      if (commonJs) importsToRequires(sf);
      const after = sf.getFullText();
      if (after !== file.text) texts.set(file.path, after);
    } catch (error) {
      notes.push({ file: file.path, line: 1, level: 'error', message: `not upgraded to SDK 2.x: the official codemod failed (${oneLine(error)})` });
    }
  }
  return { texts, notes };
}

export const CODEMOD_MARKER = '@mcp-codemod-error';

/**
 * The official runner writes a `/* @mcp-codemod-error … *\/` comment above each finding that needs
 * the user's action; called transform by transform, we write them the same way (one per line,
 * findings on one line joined, none twice), so they show in the diff and stay greppable.
 */
function insertCodemodMarkers(sf: SourceFile, diagnostics: Diagnostic[]): void {
  const byLine = new Map<number, string[]>();
  for (const d of diagnostics) {
    let line = d.line;
    try {
      line = d.resolveCurrentLine?.() ?? d.line;
    } catch {
      // the node moved or vanished; keep the line it was found on
    }
    byLine.set(line, [...(byLine.get(line) ?? []), d.message]);
  }
  const lines = sf.getFullText().split('\n');
  for (const [line, messages] of [...byLine].sort((a, b) => b[0] - a[0])) {
    const index = line - 1;
    if (index < 0 || index >= lines.length || (index > 0 && lines[index - 1]!.includes(CODEMOD_MARKER))) continue;
    const indent = /^\s*/.exec(lines[index]!)![0];
    const start = lines.slice(0, index).reduce((sum, l) => sum + l.length + 1, 0);
    sf.insertText(start, `${indent}/* ${CODEMOD_MARKER} ${messages.join(' | ').replaceAll('*/', '* /')} */\n`);
  }
}

/**
 * Where the v1 handler context moved in v2 (`extra.sendRequest` → `ctx.mcpReq.send`, ...), as
 * property paths of `ServerContext`; `http` is optional, so its members are read through NonNullable.
 */
const CONTEXT_TYPE_PATHS: Record<string, string[]> = {
  signal: ['mcpReq', 'signal'],
  requestId: ['mcpReq', 'id'],
  _meta: ['mcpReq', '_meta'],
  sendRequest: ['mcpReq', 'send'],
  sendNotification: ['mcpReq', 'notify'],
  authInfo: ['http', 'authInfo'],
  requestInfo: ['http', 'req'],
  closeSSEStream: ['http', 'closeSSE'],
  closeStandaloneSSEStream: ['http', 'closeStandaloneSSE']
};

/**
 * The official codemod renames `RequestHandlerExtra<...>["sendRequest"]` to
 * `ServerContext["sendRequest"]`, a property v2's context does not have (TS2339): index the member
 * where it now lives instead, so a helper typed by the handler's channel keeps compiling.
 */
function repairContextTypes(sf: SourceFile): UpgradeNote[] {
  const notes: UpgradeNote[] = [];
  const contextNames = new Set(
    sf
      .getImportDeclarations()
      .filter(d => d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/server'))
      .flatMap(d => d.getNamedImports())
      .filter(n => n.getName() === 'ServerContext')
      .map(n => n.getAliasNode()?.getText() ?? n.getName())
  );
  if (contextNames.size === 0) return notes;
  const broken = sf.getDescendantsOfKind(SyntaxKind.IndexedAccessType).filter(t => {
    const object = t.getObjectTypeNode();
    const index = t.getIndexTypeNode();
    return (
      Node.isTypeReference(object) &&
      contextNames.has(object.getTypeName().getText()) &&
      Node.isLiteralTypeNode(index) &&
      Node.isStringLiteral(index.getLiteral()) &&
      (index.getLiteral() as import('ts-morph').StringLiteral).getLiteralValue() in CONTEXT_TYPE_PATHS
    );
  });
  for (const type of broken.reverse()) {
    const context = type.getObjectTypeNode().getText();
    const member = ((type.getIndexTypeNode() as import('ts-morph').LiteralTypeNode).getLiteral() as import('ts-morph').StringLiteral).getLiteralValue();
    const [outer, inner] = CONTEXT_TYPE_PATHS[member]!;
    const text = outer === 'http' ? `NonNullable<${context}["http"]>["${inner}"]` : `${context}["${outer}"]["${inner}"]`;
    const { line } = sf.getLineAndColumnAtPos(type.getStart());
    type.replaceWithText(text);
    notes.push({ file: sf.getFilePath(), line, level: 'info', message: `${context}["${member}"] (from the official codemod) does not exist in SDK 2.x: written as ${text}` });
  }
  return notes;
}

/** The array member of each result a low-level handler returns, and the result type naming it. */
const RESULT_ARRAYS: Record<string, { member: string; type: string }> = {
  'tools/call': { member: 'content', type: 'CallToolResult' },
  'prompts/get': { member: 'messages', type: 'GetPromptResult' },
  'resources/read': { member: 'contents', type: 'ReadResourceResult' }
};

/**
 * SDK 1.x typed a `setRequestHandler` callback's result as any server result, so `const content = [];
 * content.push({ type: 'text', ... }); return { content };` compiled; 2.x types it as the method's own
 * result, and the array TypeScript evolved from the pushes (`type: string`) no longer fits (TS2345).
 * Such an unannotated empty array returned as the result's array gets that array's type.
 */
function annotateResultArrays(sf: SourceFile): UpgradeNote[] {
  const notes: UpgradeNote[] = [];
  if (!/\.[cm]?tsx?$/.test(sf.getFilePath())) return notes;
  const needed = new Set<string>();
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const [method, handler] = call.getArguments();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'setRequestHandler' || !method || !Node.isStringLiteral(method)) continue;
    const result = RESULT_ARRAYS[method.getLiteralValue()];
    if (!result || !handler || !(Node.isArrowFunction(handler) || Node.isFunctionExpression(handler))) continue;
    for (const ret of handler.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
      if (ret.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) !== handler) continue;
      const value = ret.getExpression();
      const member = value && Node.isObjectLiteralExpression(value) ? value.getProperty(result.member) : undefined;
      const name = !member
        ? undefined
        : Node.isShorthandPropertyAssignment(member)
          ? member.getNameNode()
          : Node.isPropertyAssignment(member) && Node.isIdentifier(member.getInitializer() ?? member)
            ? member.getInitializer()
            : undefined;
      // By name within the handler (the binder alone, without the SDK's types, resolves no shorthand):
      // only one declaration of it, so the name cannot mean another.
      const same: import('ts-morph').VariableDeclaration[] = name && Node.isIdentifier(name) ? handler.getDescendantsOfKind(SyntaxKind.VariableDeclaration).filter(d => d.getName() === name.getText()) : [];
      const decl = same.length === 1 ? same[0] : undefined;
      if (!decl || !Node.isVariableDeclaration(decl) || decl.getTypeNode() || !Node.isIdentifier(decl.getNameNode())) continue;
      const init = decl.getInitializer();
      if (!init || !Node.isArrayLiteralExpression(init) || init.getElements().length > 0) continue;
      if (decl.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) !== handler) continue;
      decl.setType(`${result.type}['${result.member}']`);
      needed.add(result.type);
      notes.push({
        file: sf.getFilePath(),
        line: decl.getStartLineNumber(),
        level: 'info',
        message: `"${decl.getName()}" is typed ${result.type}['${result.member}']: SDK 2.x checks a ${method.getLiteralValue()} handler's result, and the array evolved from its pushes no longer fits`
      });
    }
  }
  if (needed.size > 0) {
    const imports = sf.getImportDeclarations().filter(d => d.getModuleSpecifierValue() === '@modelcontextprotocol/server' && !d.getNamespaceImport() && !d.getDefaultImport());
    const server = imports.find(d => d.isTypeOnly()) ?? imports[0];
    const missing = [...needed].filter(n => !server?.getNamedImports().some(i => i.getName() === n && !i.getAliasNode()));
    if (server) server.addNamedImports(missing.map(name => ({ name, isTypeOnly: !server.isTypeOnly() })));
    else sf.addImportDeclaration({ moduleSpecifier: '@modelcontextprotocol/server', isTypeOnly: true, namedImports: missing });
  }
  return notes;
}

/** `const { a, b: c } = require('m')` → `import { a, b as c } from 'm'` at top level; whether any was. */
function requiresToImports(sf: SourceFile): boolean {
  if (sf.getImportDeclarations().length > 0) return false;
  let changed = false;
  for (const statement of sf.getVariableStatements()) {
    const [decl, ...more] = statement.getDeclarations();
    const init = decl?.getInitializer();
    if (!decl || more.length > 0 || !init || !Node.isCallExpression(init) || init.getExpression().getText() !== 'require') continue;
    const [arg] = init.getArguments();
    if (!arg || !Node.isStringLiteral(arg)) continue;
    const name = decl.getNameNode();
    const from = JSON.stringify(arg.getLiteralValue());
    if (Node.isIdentifier(name)) statement.replaceWithText(`import * as ${name.getText()} from ${from};`);
    else if (Node.isObjectBindingPattern(name) && name.getElements().every(e => !e.getDotDotDotToken() && !e.getInitializer() && Node.isIdentifier(e.getNameNode()))) {
      const specifiers = name.getElements().map(e => (e.getPropertyNameNode() ? `${e.getPropertyNameNode()!.getText()} as ${e.getName()}` : e.getName()));
      statement.replaceWithText(`import { ${specifiers.join(', ')} } from ${from};`);
    } else continue;
    changed = true;
  }
  return changed;
}

/** The way back: every import declaration becomes the require it stands for. */
function importsToRequires(sf: SourceFile): void {
  for (const decl of sf.getImportDeclarations()) {
    const from = JSON.stringify(decl.getModuleSpecifierValue());
    if (decl.isTypeOnly()) {
      decl.remove();
      continue;
    }
    const namespace = decl.getNamespaceImport();
    const named = decl.getNamedImports().filter(n => !n.isTypeOnly());
    const defaultImport = decl.getDefaultImport();
    const lines: string[] = [];
    if (namespace) lines.push(`const ${namespace.getText()} = require(${from});`);
    if (defaultImport) lines.push(`const ${defaultImport.getText()} = require(${from});`);
    if (named.length > 0) lines.push(`const { ${named.map(n => (n.getAliasNode() ? `${n.getName()}: ${n.getAliasNode()!.getText()}` : n.getName())).join(', ')} } = require(${from});`);
    if (!namespace && !defaultImport && decl.getNamedImports().length === 0) lines.push(`require(${from});`);
    decl.replaceWithText(lines.join('\n'));
  }
}

/** The first line of an error message, without terminal colour codes. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // eslint-disable-next-line no-control-regex
  return (text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find(l => l.trim() !== '') ?? 'unknown error').trim();
}

function toNote(d: Diagnostic, file: string): UpgradeNote {
  let line = d.line;
  try {
    line = d.resolveCurrentLine?.() ?? d.line;
  } catch {
    // the node moved or vanished; keep the original line
  }
  return { file: d.file || file, line, level: d.level as UpgradeNote['level'], message: d.message };
}

/** Syntax errors only (no type checking): what the parser itself reported. */
export function syntaxErrors(sf: SourceFile): ts.Diagnostic[] {
  return (sf.compilerNode as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
}

function hasSyntaxErrors(sf: SourceFile): boolean {
  return syntaxErrors(sf).length > 0;
}
