/**
 * SDK 1.x → 2.x: the official `@modelcontextprotocol/codemod` v1-to-v2 migration, applied in
 * memory to the files that import `@modelcontextprotocol/sdk`, so its changes join our diff and
 * its findings join our report. We never reimplement it.
 */
import { getMigration, type Diagnostic, type Migration, type TransformContext } from '@modelcontextprotocol/codemod';
import { Node, Project, SyntaxKind, ts, type SourceFile } from 'ts-morph';
import type { UpgradeNote } from './report.js';
import { importTypes, importTypeSpecifier } from './typeImports.js';

/** A file naming SDK 1.x: an import, a require, a dynamic import or an `import('…')` type (JSDoc ones too). */
export const V1_IMPORT = /from\s+['"]@modelcontextprotocol\/sdk[/'"]|(?:require|import)\(\s*['"]@modelcontextprotocol\/sdk[/'"]/;

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
  const typeHomes = codemodTypeHomes(migration, projectType);
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
      const sides = sdkSides(sf);
      const actionRequired: Diagnostic[] = [];
      for (const transform of migration.transforms) {
        const result = transform.apply(sf, { projectType });
        notes.push(...result.diagnostics.map((d: Diagnostic) => toNote(d, sf.getFilePath())));
        actionRequired.push(...result.diagnostics.filter((d: Diagnostic) => d.insertComment));
      }
      insertCodemodMarkers(sf, actionRequired);
      notes.push(...repairTypeImports(sf, (specifier, use) => typeHomes(specifier, use, sides)), ...repairContextTypes(sf), ...annotateResultArrays(sf), ...annotateToolLists(sf));
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

/** Which sides of SDK 1.x a file imports: the official codemod's signal for where shared types go. */
interface SdkSides {
  client: boolean;
  server: boolean;
}

function sdkSides(sf: SourceFile): SdkSides {
  const specifiers = sf
    .getImportDeclarations()
    .map(d => d.getModuleSpecifierValue())
    .filter(s => s.startsWith('@modelcontextprotocol/sdk/'));
  return { client: specifiers.some(s => s.includes('/client/')), server: specifiers.some(s => s.includes('/server/')) };
}

/** How an `import('…')` type uses the name it imports: `Name`, `Name<A, B>` or `typeof Name`. */
interface TypeUse {
  name: string;
  typeArguments: number;
  typeOf: boolean;
}

/** Where a 1.x name goes in 2.x: `module` is absent for a global (`IsomorphicHeaders` → `Headers`). */
interface TypeHome {
  module?: string;
  name: string;
  /** Whether the use keeps its type arguments (`RequestHandlerExtra<…>` → `ServerContext` drops them). */
  typeArguments: boolean;
}

/** A home, or none with what the official codemod said instead. */
interface TypeHomeAnswer {
  home?: TypeHome;
  findings: string[];
}

/**
 * Where the official codemod sends a name imported from a 1.x path. Its mapping tables are not
 * exported, so we ask the codemod itself: an import of that name alone, used the same way, in a file
 * importing the same sides of the SDK, goes through the migration, and the use and the imports it
 * leaves are the answer. Each question is asked once.
 */
function codemodTypeHomes(migration: Migration, projectType: TransformContext['projectType']) {
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  const answers = new Map<string, TypeHomeAnswer>();
  return (specifier: string, use: TypeUse, sides: SdkSides): TypeHomeAnswer => {
    const key = JSON.stringify([specifier, use, sides]);
    const known = answers.get(key);
    if (known) return known;
    const typeArguments = use.typeArguments > 0 ? `<${Array<string>(use.typeArguments).fill('unknown').join(', ')}>` : '';
    const probe = [
      ...(sides.client ? [`import '@modelcontextprotocol/sdk/client/index.js';`] : []),
      ...(sides.server ? [`import '@modelcontextprotocol/sdk/server/index.js';`] : []),
      `import ${use.typeOf ? '' : 'type '}{ ${use.name} } from ${JSON.stringify(specifier)};`,
      `export type Probe = ${use.typeOf ? 'typeof ' : ''}${use.name}${typeArguments};`
    ].join('\n');
    const sf = project.createSourceFile('/probe.ts', probe, { overwrite: true });
    const findings = migration.transforms.flatMap(t => t.apply(sf, { projectType }).diagnostics.map((d: Diagnostic) => d.message));
    const answer = { home: probedHome(sf, use), findings };
    answers.set(key, answer);
    return answer;
  };
}

/** What the probe's use reads after the migration, and the 2.x import that declares it. */
function probedHome(sf: SourceFile, use: TypeUse): TypeHome | undefined {
  const type = sf.getTypeAlias('Probe')?.getTypeNode();
  const name = use.typeOf ? (Node.isTypeQuery(type) ? type.getExprName().getText() : undefined) : Node.isTypeReference(type) ? type.getTypeName().getText() : undefined;
  if (!name || !/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) return undefined;
  const typeArguments = Node.isTypeReference(type) && type.getTypeArguments().length > 0;
  const module = sf
    .getImportDeclarations()
    .find(d => d.getNamedImports().some(n => (n.getAliasNode()?.getText() ?? n.getName()) === name))
    ?.getModuleSpecifierValue();
  // Still on 1.x: a path the codemod does not know.
  if (module?.startsWith('@modelcontextprotocol/sdk')) return undefined;
  // No import and the same name: the codemod dropped the import and put nothing in its place.
  if (!module && (name === use.name || use.typeOf)) return undefined;
  return { module, name, typeArguments };
}

/**
 * The official codemod rewrites import declarations, not `import('@modelcontextprotocol/sdk/…').Name`
 * types: a JSDoc `@param {import('…/server/mcp.js').McpServer} server` in checked JavaScript (or the
 * same type in TypeScript) keeps naming the 1.x class, which the 2.x server handed to it is not
 * (TS2345), and names nothing once package.json drops the SDK. Each goes where the codemod sends an
 * import of that name from that path; one it has no 2.x home for is left as it is, and reported.
 */
function repairTypeImports(sf: SourceFile, homeOf: (specifier: string, use: TypeUse) => TypeHomeAnswer): UpgradeNote[] {
  const notes: UpgradeNote[] = [];
  const file = sf.compilerNode;
  const edits: { start: number; end: number; text: string }[] = [];
  // Type arguments the codemod drops take the types inside them along (importTypes gives outer types first).
  const dropped: { start: number; end: number }[] = [];
  for (const node of importTypes(file)) {
    const literal = importTypeSpecifier(node);
    if (!literal || !/^@modelcontextprotocol\/sdk(\/|$)/.test(literal.text)) continue;
    if (dropped.some(r => node.pos >= r.start && node.end <= r.end)) continue;
    const start = node.getStart(file);
    const note = (level: UpgradeNote['level'], message: string) => notes.push({ file: sf.getFilePath(), line: sf.getLineAndColumnAtPos(start).line, level, message });
    let first: ts.EntityName | undefined = node.qualifier;
    while (first && ts.isQualifiedName(first)) first = first.left;
    if (!first) {
      note('warning', `import('${literal.text}') left on SDK 1.x: it names the whole module, which has no single SDK 2.x counterpart`);
      continue;
    }
    const use = { name: first.text, typeArguments: node.typeArguments?.length ?? 0, typeOf: node.isTypeOf };
    const written = `import('${literal.text}').${use.name}`;
    const { home, findings } = homeOf(literal.text, use);
    if (!home) {
      note('warning', `${written} left on SDK 1.x: the official codemod has no SDK 2.x import for it${findings.length > 0 ? ` (${findings.join(' ')})` : ''}`);
      continue;
    }
    if (home.module) {
      edits.push({ start: literal.getStart(file) + 1, end: literal.end - 1, text: home.module });
      if (home.name !== use.name) edits.push({ start: first.getStart(file), end: first.end, text: home.name });
    } else edits.push({ start, end: first.end, text: home.name });
    if (use.typeArguments > 0 && !home.typeArguments) {
      edits.push({ start: node.qualifier!.end, end: node.end, text: '' });
      dropped.push({ start: node.qualifier!.end, end: node.end });
    }
    const now = home.module ? `import('${home.module}').${home.name}` : home.name;
    note('info', `${written} (an import('…') type, which the official codemod does not rewrite) written as ${now}${use.typeArguments > 0 && !home.typeArguments ? ', without its type arguments' : ''}`);
  }
  if (edits.length === 0) return notes;
  let text = sf.getFullText();
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  sf.replaceText([0, sf.getEnd()], text);
  return notes;
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
  importServerTypes(sf, needed);
  return notes;
}

/**
 * A low-level `tools/list` handler returning its tools as a literal array: without a contextual type
 * (2.x's `setRequestHandler` infers the callback before checking it) TypeScript unions tools whose
 * input schemas name different properties, adding `x?: undefined` to the others, which SDK 1.x's
 * `{ [x: string]: unknown }` accepted and 2.x's JSON-valued schema refuses (TS2322). Typing the
 * callback's result `ListToolsResult` gives the literal its contextual type back.
 */
function annotateToolLists(sf: SourceFile): UpgradeNote[] {
  const notes: UpgradeNote[] = [];
  if (!/\.[cm]?tsx?$/.test(sf.getFilePath())) return notes;
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const [method, handler] = call.getArguments();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'setRequestHandler' || !method || !Node.isStringLiteral(method) || method.getLiteralValue() !== 'tools/list') continue;
    if (!handler || !(Node.isArrowFunction(handler) || Node.isFunctionExpression(handler)) || handler.getReturnTypeNode()) continue;
    const body = handler.getBody();
    const returned = Node.isBlock(body)
      ? body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter(r => r.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) === handler).map(r => r.getExpression())
      : [body];
    const literalLists = returned.filter(value => {
      const object = value && unwrapParentheses(value);
      if (!object || !Node.isObjectLiteralExpression(object)) return false;
      // Only the result's own members: a literal with others would newly fail the excess property check.
      if (!object.getProperties().every(p => Node.isPropertyAssignment(p) && ['tools', 'nextCursor', '_meta'].includes(p.getName()))) return false;
      const tools = object.getProperty('tools');
      const list = tools && Node.isPropertyAssignment(tools) ? tools.getInitializer() : undefined;
      return list !== undefined && Node.isArrayLiteralExpression(list) && list.getElements().filter(e => Node.isObjectLiteralExpression(e)).length >= 2;
    });
    if (literalLists.length === 0 || literalLists.length !== returned.length) continue;
    handler.setReturnType(handler.isAsync() ? 'Promise<ListToolsResult>' : 'ListToolsResult');
    importServerTypes(sf, new Set(['ListToolsResult']));
    notes.push({
      file: sf.getFilePath(),
      line: handler.getStartLineNumber(),
      level: 'info',
      message: "the tools/list handler's result is typed ListToolsResult: SDK 2.x infers the callback before checking it, and the literal tool list it returns no longer fits without that type"
    });
  }
  return notes;
}

function unwrapParentheses(node: Node): Node {
  return Node.isParenthesizedExpression(node) ? unwrapParentheses(node.getExpression()) : node;
}

/** Type imports from `@modelcontextprotocol/server`, added to the file's import of it (or a new one). */
function importServerTypes(sf: SourceFile, needed: Set<string>): void {
  if (needed.size === 0) return;
  const imports = sf.getImportDeclarations().filter(d => d.getModuleSpecifierValue() === '@modelcontextprotocol/server' && !d.getNamespaceImport() && !d.getDefaultImport());
  const server = imports.find(d => d.isTypeOnly()) ?? imports[0];
  const missing = [...needed].filter(n => !server?.getNamedImports().some(i => i.getName() === n && !i.getAliasNode()));
  if (missing.length === 0) return;
  if (server) server.addNamedImports(missing.map(name => ({ name, isTypeOnly: !server.isTypeOnly() })));
  else sf.addImportDeclaration({ moduleSpecifier: '@modelcontextprotocol/server', isTypeOnly: true, namedImports: missing });
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
