/**
 * Cache fillers: helpers that return a module-level cache when it is set, else await one request to
 * the client, store a value made from the answer and return it, often under a lock:
 *
 *   export async function getContext(server: McpServer): Promise<WorkspaceContext> {
 *     return lock.runExclusive(async () => {
 *       if (cached) return cached;
 *       const { roots } = await server.server.listRoots();
 *       cached = { roots: roots.map(r => r.uri), primary: roots[0]?.uri };
 *       return cached;
 *     });
 *   }
 *
 * The helper cannot be inlined (the cache is the module's own `let`, which an import could not
 * assign), and its request sits in a callback. What a person does by hand: split it, in its own
 * module, into a synchronous read of the cache and a fill from the answer,
 *
 *   export function cachedContext(): WorkspaceContext | undefined { return cached; }
 *   export function fillContext({ roots }: ListRootsResult): WorkspaceContext { cached = ...; return cached; }
 *
 * and have each tool ask only when the cache is empty (a request in the handler, which its phases split):
 *
 *   let context = cachedContext();
 *   if (!context) context = fillContext(await server.server.listRoots());
 *
 * The helper itself is kept for its other callers, calling the fill (`return fillContext(await ...)`),
 * so the fill is written once. The lock is not held across the question: it kept concurrent callers to
 * one in-process fetch, and under MCP 2026-07-28 a tool returns input_required instead of awaiting one.
 */
import path from 'node:path';
import { Node, SyntaxKind, VariableDeclarationKind, type Block, type CallExpression, type SourceFile, type Statement, type VariableDeclaration, type VariableStatement } from 'ts-morph';
import type { SiteKind } from '../report.js';
import { bindingAt, bindingOf, notAReference, placeAsIs } from './bindings.js';
import { unwrap } from './mcpSymbols.js';
import { nameAllocator } from './names.js';
import { findSites, type FunctionLike } from './sites.js';
import { deadCode, declaredNameOf, importLocal, unusedFunction } from './deadCode.js';
import { removalRange, unusedImportEdits } from './inline.js';
import { setText } from './project.js';

export interface CacheFiller {
  fn: FunctionLike;
  /** The helper's name, as the report shows it. */
  name: string;
  /** The module-level `let` the helper fills. */
  cache: VariableDeclaration;
  /** The guard's test of the cache, e.g. `cached` or `cached !== undefined`, as a function of a name that holds it. */
  test: (name: string) => string;
  /** `const { roots } = await server.server.listRoots();`, and the request in it. */
  request: { statement: VariableStatement; call: Node; kind: SiteKind };
  /** What follows the request: it stores the value and returns it. */
  rest: Statement[];
  /** `lock.runExclusive` when the body runs under a lock. */
  lock?: string;
}

/** Names of the two functions the split adds to the helper's module. */
export interface SplitNames {
  read: string;
  fill: string;
}

/** Why a helper that fills a cache cannot be split, or undefined when it is no cache filler at all. */
export type Recognised = CacheFiller | Refused | undefined;

/** Why not, and the same without names (what the summary counts by). */
export interface Refused {
  refused: string;
  cause: string;
}

/** The helper as a cache filler, if it is one (its body checks a module-level `let` and returns it when set). */
export function cacheFillerOf(fn: FunctionLike, name: string): Recognised {
  const body = fn.getBody();
  if (!body || !Node.isBlock(body) || !(fn as unknown as { isAsync(): boolean }).isAsync()) return undefined;
  const { statements, lock } = lockedBody(body);
  const [guard, first, ...rest] = statements;
  const cache = guard && cacheGuard(guard, fn);
  if (!cache) return undefined;
  const module = fn.getSourceFile();
  if (/\.c[jt]s$/.test(module.getFilePath()) || (module.getImportDeclarations().length === 0 && /\brequire\s*\(/.test(module.getFullText()))) return { refused: 'its module is CommonJS, which the split is not written for', cause: 'its module is CommonJS' };
  const request = first && requestOf(first, fn);
  if (!request) return { refused: 'the statement after its cache check is not `const answer = await <request>`', cause: 'its request is not `const answer = await <request>` right after the cache check' };
  if (rest.length === 0 || !rest.some(s => assigns(s, cache.declaration))) return { refused: `it does not store what it makes of the answer in ${cache.declaration.getName()}`, cause: 'it does not store the answer in its cache' };
  const why = restProblem(rest, fn, request.statement);
  if (why) return { refused: `what it stores ${why.refused}, which a fill from the answer alone would not have`, cause: `what it stores ${why.cause}` };
  return { fn, name, cache: cache.declaration, test: cache.test, request, rest, lock };
}

/** The body's statements, or those of the callback it runs under a lock (`return lock.runExclusive(async () => { ... })`). */
function lockedBody(body: Block): { statements: Statement[]; lock?: string } {
  const statements = body.getStatements();
  const only = statements.length === 1 ? statements[0] : undefined;
  const returned = only && Node.isReturnStatement(only) ? only.getExpression() : undefined;
  const value = returned && unwrap(Node.isAwaitExpression(unwrap(returned)) ? (unwrap(returned) as import('ts-morph').AwaitExpression).getExpression() : returned);
  if (!value || !Node.isCallExpression(value)) return { statements };
  const callee = value.getExpression();
  const [callback, ...others] = value.getArguments();
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'runExclusive' || others.length > 0 || !callback) return { statements };
  const fn = unwrap(callback);
  if (!(Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) || fn.getParameters().length > 0 || !fn.isAsync()) return { statements };
  const inner = fn.getBody();
  return Node.isBlock(inner) ? { statements: inner.getStatements(), lock: callee.getText() } : { statements };
}

/** `if (cached) return cached;` (or `cached !== undefined`, `!= null`, `!== null`) on a module-level `let` of the helper's file. */
function cacheGuard(statement: Statement, fn: FunctionLike): { declaration: VariableDeclaration; test: (name: string) => string } | undefined {
  if (!Node.isIfStatement(statement) || statement.getElseStatement()) return undefined;
  let then: Node = statement.getThenStatement();
  if (Node.isBlock(then) && then.getStatements().length === 1) then = then.getStatements()[0]!;
  const returned = Node.isReturnStatement(then) ? then.getExpression() : undefined;
  const declaration = returned && moduleLet(unwrap(returned), fn);
  if (!declaration) return undefined;
  const condition = unwrap(statement.getExpression());
  if (Node.isIdentifier(condition) && moduleLet(condition, fn) === declaration) return { declaration, test: name => name };
  if (!Node.isBinaryExpression(condition)) return undefined;
  const operator = condition.getOperatorToken().getText();
  const [left, right] = [unwrap(condition.getLeft()), unwrap(condition.getRight())];
  const other = moduleLet(left, fn) === declaration ? right.getText() : moduleLet(right, fn) === declaration ? left.getText() : undefined;
  if ((operator !== '!==' && operator !== '!=') || (other !== 'undefined' && other !== 'null')) return undefined;
  return { declaration, test: name => `${name} ${operator} ${other}` };
}

/** The module-level `let` of the helper's file a name reads, if it does. */
function moduleLet(node: Node, fn: FunctionLike): VariableDeclaration | undefined {
  if (!Node.isIdentifier(node)) return undefined;
  const decl = node.getSymbol()?.getDeclarations()[0];
  if (!decl || !Node.isVariableDeclaration(decl) || decl.getSourceFile() !== fn.getSourceFile()) return undefined;
  const statement = decl.getVariableStatement();
  if (!statement || !Node.isSourceFile(statement.getParent()) || statement.getDeclarationKind() !== VariableDeclarationKind.Let) return undefined;
  return decl;
}

/** `const <name or pattern> = await <request>;`: the request the helper makes. */
function requestOf(statement: Statement, fn: FunctionLike): CacheFiller['request'] | undefined {
  if (!Node.isVariableStatement(statement) || statement.getDeclarations().length !== 1 || statement.getDeclarationKind() !== VariableDeclarationKind.Const) return undefined;
  const init = statement.getDeclarations()[0]!.getInitializer();
  const awaited = init && unwrap(init);
  if (!awaited || !Node.isAwaitExpression(awaited)) return undefined;
  const call = unwrap(awaited.getExpression());
  const site = findSites(fn.getSourceFile()).find(s => s.node === call && !s.unsupported && !s.passedOn && !s.urlError);
  return site ? { statement, call, kind: site.kind } : undefined;
}

/** Whether a statement assigns the cache. */
function assigns(statement: Statement, cache: VariableDeclaration): boolean {
  return statement.getDescendantsOfKind(SyntaxKind.BinaryExpression).some(b => {
    const left = unwrap(b.getLeft());
    return b.getOperatorToken().getKind() === SyntaxKind.EqualsToken && Node.isIdentifier(left) && left.getSymbol()?.getDeclarations()[0] === cache;
  });
}

/** Why the statements after the request cannot become a synchronous function of the answer alone. */
function restProblem(rest: Statement[], fn: FunctionLike, request: VariableStatement): Refused | undefined {
  const params = new Set<Node>(fn.getParameters());
  for (const statement of rest) {
    for (const node of [statement, ...statement.getDescendants()]) {
      const same = (why: string) => ({ refused: why, cause: why });
      if (Node.isAwaitExpression(node)) return same('awaits something more');
      if (Node.isYieldExpression(node)) return same('yields');
      if (node.getKind() === SyntaxKind.ThisKeyword) return same('uses this');
      if (!Node.isIdentifier(node) || notAReference(node)) continue;
      if (node.getText() === 'arguments') return same('uses arguments');
      const decl = node.getSymbol()?.getDeclarations()[0];
      if (decl && params.has(decl)) return { refused: `reads the parameter ${node.getText()}`, cause: 'reads a parameter' };
      // A local of the helper declared before the request (other than the answer) would not be there.
      const local = decl && decl.getFirstAncestor(a => a === fn) && decl.getStart() < request.getStart();
      if (local && !(decl.getStart() >= request.getStart() && decl.getEnd() <= request.getEnd())) return { refused: `reads ${node.getText()}, which the helper declares before its request`, cause: 'reads a local declared before the request' };
    }
  }
  return undefined;
}

/** The names of the read and the fill: after the helper's name without its verb (getContext: cachedContext, fillContext), free in its module. */
export function splitNames(filler: CacheFiller): SplitNames {
  const module = filler.fn.getSourceFile();
  const fresh = nameAllocator(module.getDescendantsOfKind(SyntaxKind.Identifier).map(i => i.getText()));
  const bare = filler.name.replace(/^(?:get|load|fetch|read|ensure|resolve)(?=[A-Z])/, '');
  const base = bare.charAt(0).toUpperCase() + bare.slice(1);
  return { read: fresh(`cached${base}`), fill: fresh(`fill${base}`) };
}

/** How a call of a cache filler becomes two statements of the handler, or why it cannot. */
export interface CallSplit {
  start: number;
  end: number;
  /** The statements, calling the read and the fill by the names the handler's file has for them. */
  text: (local: SplitNames) => string;
}

/**
 * `const context = await getContext(server);` in a handler, as
 * `let context: <the cache's type> = cachedContext();` and `if (!context) context = fillContext(await <request>);`, the
 * request's parameters replaced by the call's arguments. Why not, for a call of another form, or a
 * request that reads what does not mean the same at the call.
 */
export function splitCall(call: CallExpression, filler: CacheFiller, names: SplitNames, cacheType: string | undefined): CallSplit | Refused {
  const awaited = call.getParent();
  const declaration = awaited && Node.isAwaitExpression(awaited) ? awaited.getParent() : undefined;
  const statement = declaration && Node.isVariableDeclaration(declaration) ? declaration.getVariableStatement() : undefined;
  const target = declaration && Node.isVariableDeclaration(declaration) ? declaration.getNameNode() : undefined;
  if (!statement || !target || !Node.isIdentifier(target) || statement.getDeclarations().length !== 1 || unwrap(declaration!.asKindOrThrow(SyntaxKind.VariableDeclaration).getInitializer()!) !== awaited) {
    return { refused: `the call is not written \`const name = await ${filler.name}(...)\`, the form the split is made for`, cause: 'the call is not `const name = await helper(...)`' };
  }
  const request = requestAt(call, filler);
  if ('refused' in request) return request;
  const name = target.getText();
  const typeNode = (declaration as VariableDeclaration).getTypeNode();
  const javascript = /\.[cm]?jsx?$/.test(call.getSourceFile().getFilePath());
  // Typed, so that the value restored where the handler resumes keeps its type.
  const type = typeNode ? `${typeNode.getText()} | undefined` : cacheType;
  const annotation = type && !javascript ? `: ${type}` : '';
  const indent = /^[ \t]*/.exec(statement.getSourceFile().getFullText().slice(statement.getStartLinePos()))![0];
  const missing = negated(filler.test(name));
  return {
    start: statement.getStart(),
    end: statement.getEnd(),
    text: local => `let ${name}${annotation} = ${local.read}();\n${indent}if (${missing}) ${name} = ${local.fill}(await ${request.text});`,
  };
}

/** The request's text at the call: the helper's parameters replaced by the arguments, every other name meaning the same there. */
function requestAt(call: CallExpression, filler: CacheFiller): { text: string } | Refused {
  const params = filler.fn.getParameters();
  const args = call.getArguments();
  const node = filler.request.call;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const id of [node, ...node.getDescendants()].filter(Node.isIdentifier)) {
    if (notAReference(id)) continue;
    const decl = id.getSymbol()?.getDeclarations()[0];
    const index = params.findIndex(p => p === decl);
    if (index >= 0) {
      const arg = args[index];
      if (!arg || !stable(arg) || params[index]!.getInitializer()) return { refused: `its request reads the parameter ${id.getText()}, which the call does not pass as a name or a literal`, cause: 'its request reads a parameter the call does not pass as a name or a literal' };
      edits.push({ start: id.getStart(), end: id.getEnd(), text: arg.getText() });
      continue;
    }
    if (decl && decl.getFirstAncestor(a => a === filler.fn)) return { refused: `its request reads ${id.getText()}, a local of ${filler.name}()`, cause: 'its request reads a local of the helper' };
    if (bindingAt(id.getText(), call, placeAsIs) !== bindingOf(id, placeAsIs)) {
      return { refused: `its request reads ${id.getText()}, which means something else at the call (${path.basename(call.getSourceFile().getFilePath())})`, cause: 'its request reads a name that means something else at the call' };
    }
  }
  let text = node.getText();
  for (const e of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start - node.getStart()) + e.text + text.slice(e.end - node.getStart());
  return { text };
}

/** An argument that reads the same wherever it is evaluated: a name, a chain of properties, a literal. */
function stable(arg: Node): boolean {
  const a = unwrap(arg);
  if (Node.isIdentifier(a) || Node.isLiteralExpression(a) || a.getKind() === SyntaxKind.TrueKeyword || a.getKind() === SyntaxKind.FalseKeyword) return true;
  return Node.isPropertyAccessExpression(a) && !a.hasQuestionDotToken() && stable(a.getExpression());
}

/** The test that the cache is empty, from the guard's test that it is set. */
function negated(test: string): string {
  const compared = /^(.*) (!==|!=) (undefined|null)$/.exec(test);
  return compared ? `${compared[1]} ${compared[2] === '!==' ? '===' : '=='} ${compared[3]}` : `!${test}`;
}

/** The type of the answer a request of each kind gets, as SDK 2.x exports it. */
const ANSWER_TYPE: Partial<Record<SiteKind, string>> = { roots: 'ListRootsResult', elicitation: 'ElicitResult', sampling: 'CreateMessageResult' };

/**
 * The helper's module split: the read and the fill added after the helper, and the helper calling the
 * fill instead of storing the answer itself (so the fill is written once); the answer's type imported.
 * `exported`: the functions are called from another module.
 */
export function splitHelper(filler: CacheFiller, names: SplitNames, exported: boolean): { start: number; end: number; text: string }[] {
  const module = filler.fn.getSourceFile();
  const full = module.getFullText();
  const javascript = /\.[cm]?jsx?$/.test(module.getFilePath());
  const declaration = filler.fn.getFirstAncestor(a => Node.isSourceFile(a.getParent())) ?? filler.fn;
  const request = filler.request.statement;
  const last = filler.rest.at(-1)!;
  const indentAt = (n: Node) => /^[ \t]*/.exec(full.slice(n.getStartLinePos()))![0];
  const unit = indentAt((filler.fn.getBody() as Block).getStatements()[0]!).slice(indentAt(declaration).length) || '  ';
  const restText = full
    .slice(filler.rest[0]!.getStartLinePos(), last.getEnd())
    .split('\n')
    .map(line => (line.startsWith(indentAt(request)) ? unit + line.slice(indentAt(request).length) : line))
    .join('\n');
  const answer = request.getDeclarations()[0]!.getNameNode().getText();
  const answerType = ANSWER_TYPE[filler.request.kind];
  const cacheType = filler.cache.getTypeNode()?.getText();
  const declared = (filler.fn as unknown as { getReturnTypeNode?(): Node | undefined }).getReturnTypeNode?.()?.getText();
  const returnType = declared && /^Promise<([\s\S]*)>$/.exec(declared)?.[1];
  const typed = (text: string | undefined) => (text && !javascript ? `: ${text}` : '');
  const exportWord = exported ? 'export ' : '';
  const cache = filler.cache.getName();
  const functions =
    `\n\n/** ${filler.name}()'s cache, undefined until it is filled: what a tool reads before it asks the client. */\n` +
    `${exportWord}function ${names.read}()${typed(cacheType)} {\n${unit}return ${cache};\n}\n\n` +
    `/** Fills ${filler.name}()'s cache from the client's answer to its ${filler.request.kind} request. */\n` +
    `${exportWord}function ${names.fill}(${answer}${typed(answerType)})${typed(returnType)} {\n${restText}\n}`;
  const edits = [
    { start: request.getStart(), end: last.getEnd(), text: `return ${names.fill}(await ${filler.request.call.getText()});` },
    { start: declaration.getEnd(), end: declaration.getEnd(), text: functions },
  ];
  if (answerType && !javascript) edits.push(...typeImport(module, answerType));
  return edits;
}

/** `import type { <name> }` from the SDK module the file imports from (added to its declaration when it has one). */
function typeImport(module: SourceFile, name: string): { start: number; end: number; text: string }[] {
  const declarations = module.getImportDeclarations();
  const sdk = declarations.filter(d => /^@modelcontextprotocol\/(?:server|sdk\/types\.js)$/.test(d.getModuleSpecifierValue()) && d.getNamedImports().length > 0);
  if (sdk.some(d => d.getNamedImports().some(n => (n.getAliasNode() ?? n.getNameNode()).getText() === name))) return [];
  const into = sdk[0];
  if (into) {
    const lastName = into.getNamedImports().at(-1)!;
    return [{ start: lastName.getEnd(), end: lastName.getEnd(), text: `, ${into.isTypeOnly() ? '' : 'type '}${name}` }];
  }
  const onV1 = declarations.some(d => d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/sdk'));
  const own = declarations.find(d => !d.getModuleSpecifierValue().startsWith('@modelcontextprotocol/')) ?? declarations[0];
  const quote = own?.getModuleSpecifier().getText().startsWith('"') ? '"' : "'";
  const text = `import type { ${name} } from ${quote}${onV1 ? '@modelcontextprotocol/sdk/types.js' : '@modelcontextprotocol/server'}${quote};`;
  const lastImport = declarations.at(-1);
  return [lastImport ? { start: lastImport.getEnd(), end: lastImport.getEnd(), text: `\n${text}` } : { start: 0, end: 0, text: `${text}\n` }];
}

/** A handler call of a cache filler that a pass split (src/analysis/inline.ts), and the file it is in. */
interface SplitCall {
  key: string;
  module: string;
  helper: string;
  names: SplitNames;
  into: string;
}

/**
 * Each split cache filler's module, with the read and the fill added (exported when a call is in
 * another module) and the helper calling the fill: its new text, in the project, and the note saying so.
 */
export function splitModules(files: SourceFile[], calls: SplitCall[], rel: (p: string) => string): { file: string; text: string | undefined; note: string }[] {
  const byHelper = new Map<string, SplitCall[]>();
  for (const call of calls) byHelper.set(call.key, [...(byHelper.get(call.key) ?? []), call]);
  const out: { file: string; text: string | undefined; note: string }[] = [];
  for (const list of byHelper.values()) {
    const { module, helper, names } = list[0]!;
    const sf = files.find(f => f.getFilePath() === module);
    const fn = sf && helperNamed(sf, helper);
    const filler = fn && cacheFillerOf(fn, helper);
    if (!sf || !filler || 'refused' in filler) {
      out.push({ file: module, text: undefined, note: `${rel(module)}: ${helper}() could not be split; add ${names.read}() and ${names.fill}(), which the tools calling it now use, by hand` });
      continue;
    }
    const { line } = sf.getLineAndColumnAtPos(filler.fn.getStart());
    let text = sf.getFullText();
    for (const e of splitHelper(filler, names, list.some(c => c.into !== module)).sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
    const cache = filler.cache.getName();
    setText(sf, text);
    const calls = list.length === 1 ? 'the tool call' : `the ${list.length} tool calls`;
    const lock = filler.lock ? `; ${filler.lock}() is not held across the question (it kept callers to one fetch; a tool now returns input_required instead of awaiting one), so calls made while the cache is empty may each ask` : '';
    const unused = withoutUnusedHelper(sf, helper, cache);
    if (unused) setText(sf, unused.text);
    const fate = unused ? removedNote(helper, unused) : `${helper}() calls ${names.fill}() and is kept for its other callers`;
    out.push({
      file: module,
      text: sf.getFullText(),
      note: `${rel(module)}:${line}: ${helper}() split for ${calls} to it: ${names.read}() reads its cache and ${names.fill}() fills it from the client's answer, so a tool asks only when the cache is empty; ${fate}${lock}`,
    });
  }
  return out;
}

/**
 * The split helper's module without the helper, when the module does not export it and nothing calls it any
 * more (each of its calls was split): its request, and so its marker, go with it; so does what only it used
 * (src/analysis/deadCode.ts: a lock, its imports). Undefined when it stays.
 */
function withoutUnusedHelper(sf: SourceFile, helper: string, cache: string): { text: string; alsoRemoved: string[]; kept: string[] } | undefined {
  const fn = helperNamed(sf, helper);
  const statement = fn && unusedFunction(fn, () => false);
  if (!statement) return undefined;
  const dead = deadCode([statement], () => false);
  const full = sf.getFullText();
  const edits = [...dead.statements.map(st => ({ ...removalRange(full, st), text: '' })), ...unusedImportEdits(dead.imports, [], undefined, new Set())];
  let text = full;
  for (const e of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  // The comments of the read and the fill name the cache, not the helper that is gone.
  text = text.replace(`/** ${helper}()'s cache, undefined`, `/** The cached \`${cache}\`, undefined`).replace(`/** Fills ${helper}()'s cache from`, `/** Fills the cached \`${cache}\` from`);
  const alsoRemoved = dead.statements.filter(st => st !== statement).map(st => declaredNameOf(st) ?? 'a declaration');
  return { text, kept: dead.kept, alsoRemoved: [...alsoRemoved, ...dead.imports.flatMap(b => importLocal(b) ?? []).map(name => `the import of ${name}`)] };
}

/** What the note says of a split helper removed as unused, and of what went or stayed with it. */
function removedNote(helper: string, unused: { alsoRemoved: string[]; kept: string[] }): string {
  const also = unused.alsoRemoved.length > 0 ? `, with ${unused.alsoRemoved.join(', ')}, which only it used` : '';
  const one = unused.kept.length === 1;
  const kept = unused.kept.length > 0 ? `; ${unused.kept.join(', ')}, which only it read, ${one ? 'is' : 'are'} kept since making ${one ? 'it' : 'them'} may do something: remove ${one ? 'it' : 'them'} if not` : '';
  return `${helper}() removed, no longer called (every call of it was split)${also}${kept}`;
}

/** The function a module declares by this name (a function declaration, or a const holding one). */
function helperNamed(sf: SourceFile, name: string): FunctionLike | undefined {
  const declared = sf.getFunction(name);
  if (declared) return declared as unknown as FunctionLike;
  const init = sf.getVariableDeclaration(name)?.getInitializer();
  const fn = init && unwrap(init);
  return fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ? (fn as unknown as FunctionLike) : undefined;
}

/**
 * Which of a file's split calls (in the order of the file) the statement around `node` is, if it is one:
 * an `if` right after `let <name> = <read>();` that tests <name>, where <read> is one of `reads`.
 */
export function splitOrdinalAt(node: Node, reads: ReadonlySet<string>): number | undefined {
  const isSplit = (n: Node): boolean => {
    if (!Node.isIfStatement(n)) return false;
    const before = n.getPreviousSibling();
    const declaration = before && Node.isVariableStatement(before) && before.getDeclarations().length === 1 ? before.getDeclarations()[0]! : undefined;
    const init = declaration?.getInitializer();
    return init !== undefined && Node.isCallExpression(init) && reads.has(init.getExpression().getText()) && n.getExpression().getText().includes(declaration!.getName());
  };
  const statement = node.getAncestors().find(isSplit);
  if (!statement) return undefined;
  return node.getSourceFile().getDescendantsOfKind(SyntaxKind.IfStatement).filter(isSplit).indexOf(statement as import('ts-morph').IfStatement);
}
