/**
 * What every part of a file's rewrite reads and records, built once per file: the parsed tree and its
 * nodes by offset, the file's plan and code style, the parsers for the code the rewrite writes, and
 * the imports that code needs (recorded as it is written, added when the file is printed).
 */
import type { ASTPath, AssignmentExpression, CallExpression, Collection, Directive, File, JSCodeshift, Node, Program } from 'jscodeshift';
import type { FilePlan, Range } from '../plan.js';
import { editImports, importStatementsOf, type ImportChanges, type TopStatement } from './imports.js';
import { offsetsOf } from './parsers.js';
import { codeStyle, quoted, type CodeStyle } from './style.js';

/** An expression the rewrite writes or wraps, as ast-types types one. */
export type ExpressionNode = AssignmentExpression['right'];

/** A check of a node's type, as jscodeshift's named types make one (`j.Function`): `at` asks it of the node it finds. */
export interface NodeType<N> {
  check(value: unknown): value is N;
}

/** A text replacing a range of the source. */
export interface Edit {
  range: Range;
  text: string;
}

/** Where the Node.js adapters of the v2 SDK live (`toNodeHandler`, `toWebRequest`). */
const NODE_MODULE = '@modelcontextprotocol/node';

type ModuleKey = 'sdk' | 'stdio' | 'node' | 'state';

/** Names a file's own code may already use, and what the rewrite imports them as there. */
const ALIASES: Record<string, string[]> = {
  ask: ['askClient', 'askTheClient'],
  resumable: ['resumableServer'],
  journaled: ['journaledWork'],
  clientCapabilities: ['requestCapabilities'],
};

export class RewriteContext {
  readonly root: Collection<File>;
  readonly style: CodeStyle;
  readonly unit: string;
  readonly isTs: boolean;
  readonly modules: Record<ModuleKey, string>;
  /**
   * Marked statements written on one line that recast prints on two (src/rewrite/markers.ts): `printed` finds one
   * under its marker in the printed text (its first group the marker's line), which is put back as `written`.
   */
  readonly lineJoins: { printed: RegExp; written: string }[] = [];
  private readonly byRange = new Map<string, ASTPath<Node>>();
  private readonly byStart = new Map<number, ASTPath<Node>[]>();
  private readonly usedBefore: Map<string, number>;
  /** Per module: export name → local name. */
  private readonly needed: Record<ModuleKey, Map<string, string>> = { sdk: new Map(), state: new Map(), stdio: new Map(), node: new Map() };
  private readonly neededTypes = new Map<string, string>();
  /** The program's statements as the file was parsed: their offsets are the file's. */
  private readonly writtenStatements: ReadonlySet<TopStatement>;

  constructor(
    readonly j: JSCodeshift,
    readonly source: string,
    readonly plan: FilePlan,
  ) {
    this.root = this.parse(source);
    this.style = codeStyle(source);
    this.unit = this.style.unit;
    this.isTs = /\.[mc]?tsx?$/.test(plan.file);
    this.modules = { sdk: plan.sdkModule, stdio: `${plan.sdkModule}/stdio`, node: NODE_MODULE, state: plan.stateModuleSpecifier };
    this.root.find(j.Node).forEach((p: ASTPath<Node>) => {
      const at = offsetsOf(p.node);
      if (!at) return;
      this.byRange.set(`${at.start}:${at.end}`, p);
      this.byStart.set(at.start, [...(this.byStart.get(at.start) ?? []), p]);
    });
    this.usedBefore = this.identifierCounts();
    this.writtenStatements = new Set(this.programNode().body);
  }

  /** The tree of a text. */
  parse(text: string): Collection<File> {
    // recast counts a tab as tabWidth columns and derives node offsets from columns: with the default of 4, every
    // offset after a tab is off (the plan's offsets are characters). One column per tab keeps them characters.
    return this.j(text, { tabWidth: 1 });
  }

  /** The node the plan names by its range; of the type given, or the plan and the file do not agree. */
  at(r: Range, what: string): ASTPath<Node>;
  at<N>(r: Range, what: string, type: NodeType<N>): ASTPath<N>;
  at<N>(r: Range, what: string, type?: NodeType<N>): ASTPath<Node> | ASTPath<N> {
    const p = this.byRange.get(`${r.start}:${r.end}`);
    if (!p) throw new Error(`mrtr transform: cannot find the ${what} at offset ${r.start} in ${this.plan.file}`);
    if (type && !type.check(p.node))
      throw new Error(`mrtr transform: the ${what} at offset ${r.start} in ${this.plan.file} is a ${p.node.type}`);
    return p;
  }

  /**
   * Puts `node` before the statement at `at`, found by identity in its parent's list: declareSchemas splices the
   * program's body directly, which leaves the index a path cached stale (`path.insertBefore` would put it a
   * statement too early).
   */
  insertBeforeStatement(at: ASTPath<Node>, node: TopStatement): void {
    const list = statementList(at);
    const index = list ? list.indexOf(at.node) : -1;
    if (!list || index < 0) {
      at.insertBefore(node);
      return;
    }
    list.splice(index, 0, node);
  }

  /** Puts `nodes` after the statement at `at`, found by identity in its parent's list (as insertBeforeStatement). */
  insertAfterStatement(at: ASTPath<Node>, nodes: TopStatement[]): void {
    const list = statementList(at);
    const index = list ? list.indexOf(at.node) : -1;
    if (!list || index < 0) {
      at.insertAfter(...nodes);
      return;
    }
    list.splice(index + 1, 0, ...nodes);
  }

  /** The statement (not a block) starting at an offset. */
  statementAt(start: number): ASTPath<TopStatement> | undefined {
    return this.byStart
      .get(start)
      ?.find((p): p is ASTPath<TopStatement> => this.j.Statement.check(p.node) && !this.j.BlockStatement.check(p.node));
  }

  parseStatements(text: string): TopStatement[] {
    return programOf(this.parse(text)).body;
  }

  parseExpression(text: string): ExpressionNode {
    // As the right side of an assignment, not parenthesised: an object literal is not read as a block, and the
    // node is the snippet's own, so recast prints it as written instead of reprinting it.
    const [statement] = this.parseStatements(`mcpMigrateExpression = ${text};`);
    if (statement?.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression')
      throw new Error(`mrtr transform: not an expression: ${text}`);
    return statement.expression.right;
  }

  parseSuperCall(text: string): CallExpression {
    // `super(...)` parses only in a derived class's constructor: the wiring of a subclass of the SDK's server.
    const calls = this.parse(`class M extends B { constructor() { ${text}; } }`).find(this.j.CallExpression, { callee: { type: 'Super' } });
    if (calls.length === 0) throw new Error(`mrtr transform: not a super call: ${text}`);
    return calls.get().node as CallExpression;
  }

  /** A string literal in the file's quotes. */
  stringLiteral(value: string): string {
    return quoted(value, this.style);
  }

  /** Records a type import the rewrite needs and returns its local name, aliased where the file already uses the name. */
  useType(name: string): string {
    const local = this.importedFrom(this.modules.sdk, name) ?? ((this.usedBefore.get(name) ?? 0) > 0 ? `Mcp${name}` : name);
    this.neededTypes.set(name, local);
    return local;
  }

  /**
   * Records an import the rewrite needs and returns its local name: the name itself, or where the file
   * already uses it, the first of its alternatives (ALIASES) it does not.
   */
  use(from: ModuleKey, name: string): string {
    const known = this.needed[from].get(name);
    if (known) return known;
    const taken = (n: string) =>
      (this.usedBefore.get(n) ?? 0) > 0 || [...Object.values(this.needed)].some(m => [...m.values()].includes(n));
    const free = [name, ...(ALIASES[name] ?? []), `mcp${name[0]!.toUpperCase()}${name.slice(1)}`].find(n => !taken(n));
    const local = this.importedFrom(this.modules[from], name) ?? free ?? `mcp${name[0]!.toUpperCase()}${name.slice(1)}`;
    this.needed[from].set(name, local);
    return local;
  }

  programNode(): Program {
    return programOf(this.root);
  }

  /** The rewritten file's text, with its imports edited to what the rewritten code uses. */
  print(): string {
    const { style, unit } = this;
    const importChanges = { add: this.importsToAdd(), remove: this.unusedMcpImports() };
    // Printing leaves the tree as it was (a trace prints it after every unit): the import edits are undone after.
    const body = this.programNode().body;
    const statements = [...body];
    const comments = new Map(statements.map(st => [st, st.comments]));
    editImports(
      { body, written: this.writtenStatements, source: this.source, style, parse: text => this.parseStatements(text) },
      importChanges,
    );
    const program = this.programNode();
    const directives = program.directives;
    if (body.length !== this.writtenStatements.size && directives?.length) {
      program.directives = [];
      body.unshift(...this.directivesAsStatements(directives));
    }
    let output = this.root.toSource({
      quote: style.quote,
      reuseWhitespace: true,
      tabWidth: unit === '\t' ? 1 : unit.length,
      useTabs: unit === '\t',
    });
    body.splice(0, body.length, ...statements);
    for (const [st, c] of comments) st.comments = c;
    program.directives = directives;
    if (unit === '\t') output = levelsAsTabs(output, this.source);
    for (const { printed, written } of this.lineJoins) output = output.replace(printed, (_, marker: string) => `${marker}${written}`);
    return output;
  }

  /**
   * A program whose statements the rewrite added to or took from is printed anew, and recast prints each of its
   * directives (`'use strict';`) with a semicolon after the one written and a line break for the blank lines that
   * followed it. Printed as the program's first statements, they keep their text and the lines after them.
   */
  private directivesAsStatements(directives: Directive[]): TopStatement[] {
    const first = directives[0]!;
    const last = directives[directives.length - 1]!;
    // Their comments are written out: a comment of the file on a node of another text cannot be printed.
    const start = Math.min(...[first, ...(first.comments ?? []).filter(c => c.leading)].map(n => offsetsOf(n)!.start));
    const end = Math.max(...[last, ...(last.comments ?? []).filter(c => c.trailing)].map(n => offsetsOf(n)!.end));
    const text = this.source.slice(start, end);
    const [next] = this.writtenStatements;
    const nextStart = next && Math.min(...[next, ...(next.comments ?? []).filter(c => c.leading)].map(n => offsetsOf(n)!.start));
    const after = nextStart === undefined ? '' : this.source.slice(end, nextStart);
    const breaks = /^\s*$/.test(after) ? Math.max(1, after.split('\n').length - 1) : 1;
    // After a statement, a string is no directive: the prologue ends at the first statement that is none.
    return this.parseStatements(`0;\n${text}${'\n'.repeat(breaks)}`).slice(1);
  }

  /** Imports are top-level statements: a look at the program's body, not a walk of the whole tree. */
  private importedFrom(module: string, name: string): string | undefined {
    let local: string | undefined;
    // An import's named specifier, or CommonJS's `const { name: local } = require(module)`.
    for (const st of this.programNode().body.flatMap(importStatementsOf)) {
      if (st.module !== module) continue;
      for (const n of st.names) if (n.imported === name && n.local !== undefined) local = n.local;
    }
    return local;
  }

  /** How often each name is written outside the imports. */
  private identifierCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    countIdentifiers(this.j.types.getFieldNames, this.programNode(), counts);
    return counts;
  }

  /** The names the rewritten code uses from each module, which the file does not import yet. */
  private importsToAdd(): ImportChanges['add'] {
    const { modules, needed } = this;
    const missing = (module: string, names: Map<string, string>) =>
      [...names].filter(([name]) => this.importedFrom(module, name) === undefined).sort(([a], [b]) => a.localeCompare(b));
    const kind = this.plan.commonJs ? 'require' : 'import';
    return [
      { module: modules.sdk, kind, names: missing(modules.sdk, needed.sdk) },
      ...(this.isTs ? [{ module: modules.sdk, kind: 'import type' as const, names: missing(modules.sdk, this.neededTypes) }] : []),
      { module: modules.stdio, kind, names: missing(modules.stdio, needed.stdio) },
      { module: modules.node, kind, names: missing(modules.node, needed.node) },
      { module: modules.state, kind, names: missing(modules.state, needed.state) },
    ];
  }

  /** Locals of MCP imports (or CommonJS requires) the rewrite made unused (a request schema, the stdio transport): they go. */
  private unusedMcpImports(): Set<string> {
    const after = this.identifierCounts();
    const unused = new Set<string>();
    for (const st of this.programNode().body.flatMap(importStatementsOf)) {
      if (!/^@modelcontextprotocol\//.test(st.module) || !st.whole) continue;
      // A require's pattern is counted (identifierCounts skips imports, not requires): its own identifiers are no use.
      for (const { local, ownIdentifiers } of st.names) {
        if (local && (this.usedBefore.get(local) ?? 0) > ownIdentifiers && (after.get(local) ?? 0) === ownIdentifiers) unused.add(local);
      }
    }
    return unused;
  }
}

/** The node types `find(j.Identifier)` meets: Identifier and the types ast-types bases on it. */
const IDENTIFIER_TYPES = new Set(['Identifier', 'JSXIdentifier', 'TSTypeParameter']);

/**
 * Counts the identifiers by name outside import declarations, visiting the fields ast-types visits, as
 * `find(j.Identifier)` does, without the path object it makes for every node (a whole walk per file printed).
 */
function countIdentifiers(fieldsOf: (node: object) => string[], value: unknown, counts: Map<string, number>): void {
  if (Array.isArray(value)) {
    for (const item of value) countIdentifiers(fieldsOf, item, counts);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as { type?: unknown; name?: unknown } & Record<string, unknown>;
  if (node.type === 'ImportDeclaration') return;
  if (typeof node.type === 'string' && IDENTIFIER_TYPES.has(node.type) && typeof node.name === 'string') {
    counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
  }
  for (const field of typeof node.type === 'string' ? fieldsOf(node) : Object.keys(node)) countIdentifiers(fieldsOf, node[field], counts);
}

/** The program of a parsed file. */
function programOf(root: Collection<File>): Program {
  return (root.get() as ASTPath<File>).node.program;
}

/** The list of statements a statement stands in: its block's or program's body, or a switch case's consequent. */
function statementList(at: ASTPath<Node>): Node[] | undefined {
  const parent = at.parent?.node as { body?: unknown; consequent?: unknown } | undefined;
  const list = Array.isArray(parent?.body) ? parent.body : parent?.consequent;
  return Array.isArray(list) ? (list as Node[]) : undefined;
}

/**
 * recast indents a line it prints anew inside a line it reuses (the block of `journaled(() => { work; })` put where
 * `work` stood) by the reused line's tabs and then a space per level, whatever useTabs says. In a tab-indented file
 * printed at one column per tab, those spaces are levels. A line of the file as it was keeps its own tabs and spaces
 * (spaces after tabs to align), and so does a comment's continuation (` * `).
 */
function levelsAsTabs(output: string, source: string): string {
  const written = new Set(source.split('\n'));
  return output
    .split('\n')
    .map(line => {
      const indent = /^(\t+)( +)(?=[^\s*])/.exec(line);
      return indent && !written.has(line) ? '\t'.repeat(indent[1]!.length + indent[2]!.length) + line.slice(indent[0].length) : line;
    })
    .join('\n');
}
