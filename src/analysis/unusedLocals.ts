/**
 * Locals the rewrite leaves unread. A handler that declared a name only to reach the server
 * (`const { server } = this.mcp;`, `const srv = this.server;`) and used it only in the requests that
 * `inputRequired.*(...)` builders replace would keep a declaration nothing reads, which
 * `noUnusedLocals` and ESLint's no-unused-vars refuse. Such a declaration (or the one binding of a
 * destructuring that nothing reads) is dropped from every phase. Only one whose initializer reads and
 * does nothing else: names, `this` and property-access chains; anything else may have an effect. Or a
 * request const (`const request = { method, params }` sent by `sendRequest(request, Schema)`): the
 * builder copies its params, which are then evaluated there, once, as in the original.
 */
import { Node, SyntaxKind, type BindingElement, type Block, type Identifier, type ObjectBindingPattern, type Statement, type VariableDeclaration, type VariableStatement } from 'ts-morph';
import type { DroppedDeclaration, Range, UnreadWhereMade } from '../plan.js';
import type { FunctionLike, Site } from './sites.js';

/** A request the handler's plan rewrites: the node its phases replace, and the site it is made at. */
export interface RewrittenRequest {
  replace: Node;
  site: Site;
}

/** Whether an identifier is gone from every phase the rewrite writes. */
export type Gone = (id: Node) => boolean;

const range = (n: Node): Range => ({ start: n.getStart(), end: n.getEnd() });
const inside = (n: Node, r: Range): boolean => n.getStart() >= r.start && n.getEnd() <= r.end;

/**
 * What the rewrite drops of each request in every phase: all of the await it replaces but the params
 * (the builder's argument): the server or context it was called on, a result schema, the wrapper a
 * callback ran in. Where the params are not written inside the call (a const's), the call's arguments
 * are kept, but for the name of a request const whose params the builder copies (`sendRequest(request, Schema)`).
 */
export function droppedByRequests(requests: RewrittenRequest[]): Gone {
  const spans = requests.map(({ replace, site }) => {
    const params = site.params;
    const args = Node.isCallExpression(site.node) || Node.isNewExpression(site.node) ? (site.node.getArguments() ?? []) : undefined;
    const kept = params && inside(params, range(replace)) ? [range(params)] : args ? args.filter(a => !holdsParams(a, params)).map(range) : [range(replace)];
    return { dropped: range(replace), kept };
  });
  return id => spans.some(s => inside(id, s.dropped) && !s.kept.some(k => inside(id, k)));
}

/** Whether an argument names a const whose initializer holds the params (`const request = { method, params: {...} }`). */
function holdsParams(arg: Node, params: Node | undefined): boolean {
  if (!params || !Node.isIdentifier(arg)) return false;
  const decl = arg.getSymbol()?.getDeclarations()[0];
  const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  return init !== undefined && inside(params, range(init));
}

/**
 * The declarations of the handler's own body that only the dropped parts of its requests read, and
 * what is gone with them (their initializers, so that a local only they read goes too: `const mcp = this.mcp;
 * const server = mcp.server;`). `gone` tells the liveness that follows not to carry what they read.
 */
export function unusedDeclarations(fn: FunctionLike, body: Block, droppedByRequest: Gone): { dropped: DroppedDeclaration[]; gone: Gone } {
  const statements = body.getDescendantsOfKind(SyntaxKind.VariableStatement).filter(st => ownerFunction(st) === fn && isStatementInList(st));
  let removed: Range[] = [];
  let gone: Gone = droppedByRequest;
  // A request const's params are copied into the builder: what they read is still read there.
  const copied = statements.flatMap(st => st.getDeclarations().flatMap(d => requestParams(d.getInitializer()) ?? [])).map(range);
  // Until nothing more goes: a declarator dropped whole no longer reads what its initializer names.
  for (;;) {
    const current = gone;
    const found = statements.flatMap(st => droppedOf(st, fn, current));
    const wholes = found.filter(d => d.initializer).map(d => d.range);
    if (wholes.length === removed.length) return { dropped: found.map(d => (d.whole ? { range: d.range, whole: true } : { range: d.range })), gone };
    removed = wholes;
    gone = id => droppedByRequest(id) || (removed.some(r => inside(id, r)) && !copied.some(r => inside(id, r)));
  }
}

function isStatementInList(st: VariableStatement): boolean {
  const parent = st.getParent();
  return Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent);
}

/** A range to drop, and whether it is the whole statement, or takes its initializer with it (a whole declarator). */
interface Found {
  range: Range;
  whole?: boolean;
  initializer?: boolean;
}

/** What of one declaration statement goes: the whole statement, whole declarators, or single bindings of a destructuring. */
function droppedOf(st: VariableStatement, fn: FunctionLike, gone: Gone): Found[] {
  if (!['const', 'let', 'var'].includes(st.getDeclarationKind())) return [];
  const declarators = st.getDeclarations();
  const perDeclarator = declarators.map(d => unusedBindings(d, fn, gone));
  const whole = declarators.map((_, i) => perDeclarator[i] === 'all');
  if (whole.every(Boolean)) return [{ range: range(st), whole: true, initializer: true }];
  const found: Found[] = listRemovals(declarators, whole).map(r => ({ range: r, initializer: true }));
  for (const [i, d] of declarators.entries()) {
    const elements = perDeclarator[i]!;
    if (elements === 'all' || elements.length === 0) continue;
    const all = (d.getNameNode() as ObjectBindingPattern).getElements();
    found.push(...listRemovals(all, all.map(el => elements.includes(el))).map(r => ({ range: r })));
  }
  return found;
}

/** A declarator nothing reads any more (`all`), or the bindings of its object pattern that nothing reads. */
function unusedBindings(d: VariableDeclaration, fn: FunctionLike, gone: Gone): 'all' | BindingElement[] {
  const init = d.getInitializer();
  if (!init || !(readsOnly(init) || requestParams(init))) return [];
  const name = d.getNameNode();
  if (Node.isIdentifier(name)) return onlyReadByDropped(name, fn, gone) ? 'all' : [];
  if (!Node.isObjectBindingPattern(name)) return []; // an array pattern iterates
  const elements = name.getElements();
  const unused = elements.filter(el => removableElement(el) && onlyReadByDropped(el.getNameNode() as Identifier, fn, gone));
  if (unused.length === elements.length) return 'all';
  // Without one of its bindings, a rest element would hold one more property.
  return elements.some(el => el.getDotDotDotToken()) ? [] : unused;
}

/**
 * The params of `{ method: 'sampling/createMessage', params: {...} }`, a request a request call sends:
 * a string method and params, which the builder copies, so that they are evaluated there, once, as in
 * the original. Undefined for any other initializer.
 */
function requestParams(e: Node | undefined): Node | undefined {
  const literal = e && (Node.isAsExpression(e) || Node.isSatisfiesExpression(e) || Node.isParenthesizedExpression(e)) ? e.getExpression() : e;
  if (!literal || !Node.isObjectLiteralExpression(literal)) return undefined;
  let params: Node | undefined;
  for (const p of literal.getProperties()) {
    if (!Node.isPropertyAssignment(p) || Node.isComputedPropertyName(p.getNameNode())) return undefined;
    const key = p.getName().replace(/^['"]|['"]$/g, '');
    if (key === 'params') params = p.getInitializer();
    else if (key !== 'method' || !Node.isStringLiteral(p.getInitializer())) return undefined;
  }
  return params;
}

/** `{ server }`, `{ server: srv }`: not a default (evaluated), a computed key or a nested pattern. */
function removableElement(el: BindingElement): boolean {
  const key = el.getPropertyNameNode();
  return Node.isIdentifier(el.getNameNode()) && !el.getInitializer() && (!key || !Node.isComputedPropertyName(key));
}

/**
 * A handle made again on resume (src/analysis/recompute.ts) is also made where the handler made it, before its
 * question, so that what making it does (connect()) happens where it did. When nothing reads it there (every read
 * the rewrite keeps comes after the next suspension of its own statement list, which returns first), that copy
 * keeps its effect without a binding nothing reads: its initializer alone (`await connect();`), or nothing when
 * reading it does nothing else (`this.mcp.server`). The copy made again on resume keeps its name.
 */
export function unreadWhereMade(declaration: VariableStatement, suspensions: ReadonlySet<Node>, fn: FunctionLike, gone: Gone): UnreadWhereMade | undefined {
  const [d, ...others] = declaration.getDeclarations();
  const init = d?.getInitializer();
  const name = d?.getNameNode();
  if (!d || others.length > 0 || !init || !name || !Node.isIdentifier(name) || declaration.getDeclarationKind() === 'var' || !isStatementInList(declaration)) return undefined;
  const list = (declaration.getParent() as Block).getStatements() as Statement[];
  const next = list.slice(list.indexOf(declaration) + 1).find(st => suspensions.has(st));
  if (!next) return undefined;
  const reads = fn.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => id !== name && id.getText() === name.getText() && !isKeyName(id) && [d as Node, undefined].includes(declOf(id)));
  if (reads.some(id => id.getStart() < next.getEnd() && !gone(id))) return undefined;
  if (readsOnly(init)) return { range: range(declaration) };
  // As a statement of its own, an initializer opening with a bracket or a parenthesis could join the line
  // before it (a file without semicolons); `function`, `class` would start a declaration.
  if (!/^[A-Za-z_$]/.test(init.getText()) || /^(?:function|class|let|async\s+function)\b/.test(init.getText())) return undefined;
  return { range: range(declaration), keep: range(init) };
}

/** Names, `this` and property-access chains (through `!` and parentheses): reading them does nothing else. */
function readsOnly(e: Node): boolean {
  if (Node.isIdentifier(e) || e.getKind() === SyntaxKind.ThisKeyword) return true;
  if (Node.isPropertyAccessExpression(e) || Node.isNonNullExpression(e) || Node.isParenthesizedExpression(e)) return readsOnly(e.getExpression());
  return false;
}

/**
 * Whether the handler reads the local only where the rewrite drops it, and somewhere (a local unused
 * already is not the rewrite's to remove). A mention of its name that resolves to nothing counts as a
 * read, which keeps the declaration: the safe side.
 */
function onlyReadByDropped(name: Identifier, fn: FunctionLike, gone: Gone): boolean {
  const text = name.getText();
  const decl = name.getParent();
  const reads = fn.getDescendantsOfKind(SyntaxKind.Identifier).filter(id => id !== name && id.getText() === text && !isKeyName(id) && [decl, undefined].includes(declOf(id)));
  return reads.length > 0 && reads.every(gone);
}

function declOf(id: Node): Node | undefined {
  // In `{ server }` the identifier's own symbol is the property's: the local it reads is the value symbol's.
  const parent = id.getParent();
  if (parent && Node.isShorthandPropertyAssignment(parent) && parent.getNameNode() === id) return parent.getValueSymbol()?.getDeclarations()[0];
  return id.getSymbol()?.getDeclarations()[0];
}

/**
 * `b` in `a.b`, in `{ b: 1 }` and in `{ b: local } = ...`: a member's name; or the name another
 * declaration gives its own local (`const b`, a parameter `b`): never a read of the local.
 */
function isKeyName(id: Node): boolean {
  const parent = id.getParent();
  if (Node.isPropertyAccessExpression(parent) || Node.isPropertyAssignment(parent)) return parent.getNameNode() === id;
  if (Node.isBindingElement(parent)) return parent.getPropertyNameNode() === id || parent.getNameNode() === id;
  return (Node.isVariableDeclaration(parent) || Node.isParameterDeclaration(parent)) && parent.getNameNode() === id;
}

/**
 * The text to cut for the items `drop` marks of a comma-separated list (not all of them): each run of
 * them with the comma after it, or, for a run that ends the list, the comma before it.
 */
function listRemovals(items: Node[], drop: boolean[]): Range[] {
  const ranges: Range[] = [];
  for (let i = 0; i < items.length; i++) {
    if (!drop[i]) continue;
    let j = i;
    while (j + 1 < items.length && drop[j + 1]) j++;
    ranges.push(j + 1 < items.length ? { start: items[i]!.getStart(), end: items[j + 1]!.getStart() } : { start: items[i - 1]!.getEnd(), end: items[j]!.getEnd() });
    i = j;
  }
  return ranges;
}

function ownerFunction(n: Node): Node | undefined {
  return n.getFirstAncestor(a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a));
}
