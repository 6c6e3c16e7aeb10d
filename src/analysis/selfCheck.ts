/**
 * The self-check after a file's rewrite: the rewritten text, analysed again as the user's project will have
 * it, must leave no server-initiated request and no stdio `connect` without a `// mcp-migrate:` marker, and
 * every module-level name the code reads must still come from where it came from before the rewrite. A file
 * that fails is left as it was and reported: a rewrite that cannot be checked is not handed to the user.
 */
import { Node, ts, type SourceFile } from 'ts-morph';
import { mayMakeRequests } from '../triggers.js';
import { MARKER_PREFIX } from './recorder.js';
import { V2_SERVER_MODULE } from './mcpSymbols.js';
import { findSites, registrationOf, type Site } from './sites.js';
import { stdioEntries } from './stdioEntry.js';

export interface SelfCheckFailure {
  /** 1-based, in the rewritten text. */
  line: number;
  message: string;
}

/** Per local name, the module a file imports it from (`require` destructurings included). */
export type ImportBindings = ReadonlyMap<string, string>;

export function importBindings(sf: SourceFile): ImportBindings {
  const bindings = new Map<string, string>();
  for (const d of sf.getImportDeclarations()) {
    const module = d.getModuleSpecifierValue();
    const names = [d.getDefaultImport(), d.getNamespaceImport(), ...d.getNamedImports().map(n => n.getAliasNode() ?? n.getNameNode())];
    for (const name of names) if (name) bindings.set(name.getText(), module);
  }
  return bindings;
}

export interface SelfCheckOptions {
  /**
   * When one handler was asked for (an editor's quick fix), the labels of the handlers the rewrite
   * converted; a request elsewhere was left as it is on purpose, unmarked.
   */
  onlyHandlers?: ReadonlySet<string>;
  /**
   * Whether the file imports a module that exports a request method under a name of its own
   * (importersOfRequestAliases): its calls of it are requests its text does not name. Unknown: true.
   */
  importsRequestAliases?: boolean;
}

/** What the rewritten `sf` gets wrong; `before`: the import bindings of the text the rewrite started from. */
export function selfCheck(sf: SourceFile, before: ImportBindings, options: SelfCheckOptions = {}): SelfCheckFailure[] {
  const { onlyHandlers } = options;
  const failures: SelfCheckFailure[] = [];
  const fail = (node: Node, message: string) => failures.push({ line: node.getStartLineNumber(), message });
  // Only where the analysis would look (most rewritten files name no request any more): walking every node of the
  // new text was most of the check's time.
  for (const site of mayMakeRequests(sf.getFullText(), options.importsRequestAliases !== false) ? findSites(sf) : []) {
    if (onlyHandlers && !isOneOf(site.fn, onlyHandlers)) continue;
    if (!hasMarker(site.node)) fail(site.node, `a ${site.kind} request (${site.node.getText().split('(')[0]}) is left without a marker`);
  }
  for (const entry of stdioEntries(sf, V2_SERVER_MODULE)) {
    const at = 'plan' in entry ? sf.getDescendantAtPos(entry.plan.call.start) : entry.marked;
    if (at && !hasMarker(at)) fail(at, 'a stdio connect() is left without serveStdio or a marker');
  }
  const after = importBindings(sf);
  const read = namesRead(sf.compilerNode, new Set(before.keys()));
  for (const [name, module] of before) {
    if (!read.has(name)) continue;
    const now = after.get(name);
    if (now !== module)
      fail(
        sf,
        now ? `${name} now comes from ${now}, not ${module}` : `${name}, imported from ${module} before the rewrite, is no longer imported`,
      );
  }
  return failures;
}

/** Whether `fn` is the handler of one of the registrations labelled `labels`. */
function isOneOf(fn: Site['fn'], labels: ReadonlySet<string>): boolean {
  const label = fn && registrationOf(fn)?.label;
  return label !== undefined && labels.has(label);
}

/** Which of `names` the file reads (not only imports or exports), from the compiler's tree: no wrapper per identifier. */
function namesRead(file: ts.SourceFile, names: ReadonlySet<string>): Set<string> {
  const read = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && names.has(node.text) && !isDeclarationName(node)) read.add(node.text);
    // A JSDoc type reads a name too (a JavaScript file's only types): forEachChild does not enter comments.
    for (const doc of (node as { jsDoc?: ts.Node[] }).jsDoc ?? []) visit(doc);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return read;
}

/** A marker on the statement holding `node`, or on a statement enclosing it (where a marker goes for a shared first line). */
function hasMarker(node: Node): boolean {
  for (let n: Node | undefined = node; n && !Node.isSourceFile(n); n = n.getParent()) {
    if (Node.isStatement(n) && n.getLeadingCommentRanges().some(c => c.getText().includes(MARKER_PREFIX))) return true;
  }
  return false;
}

function isDeclarationName(id: ts.Identifier): boolean {
  const parent = id.parent;
  return (
    ts.isImportSpecifier(parent) ||
    ts.isImportClause(parent) ||
    ts.isNamespaceImport(parent) ||
    ts.isExportSpecifier(parent) ||
    ((ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === id)
  );
}
