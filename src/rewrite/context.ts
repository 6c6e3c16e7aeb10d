/**
 * What every part of a file's rewrite reads and records, built once per file: the parsed tree and its
 * nodes by offset, the file's plan and code style, the parsers for the code the rewrite writes, and
 * the imports that code needs (recorded as it is written, added when the file is printed).
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { FilePlan, Range } from '../plan.js';
import { editImports, isRequire, type ImportChanges } from './imports.js';
import { parseOnly } from './parsers.js';
import { codeStyle, quoted, type CodeStyle } from './style.js';

/** A node of the Babel AST jscodeshift hands out: untyped there, so untyped here (the library's boundary). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyNode = any;

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
  clientCapabilities: ['requestCapabilities']
};

export class RewriteContext {
  readonly root: Collection<AnyNode>;
  readonly style: CodeStyle;
  readonly unit: string;
  readonly isTs: boolean;
  readonly modules: Record<ModuleKey, string>;
  /** Comments recast keeps verbatim: edited as text when the file is printed, since a reprinted comment is re-indented. */
  readonly commentEdits: { from: string | RegExp; to: string }[] = [];
  private readonly byRange = new Map<string, ASTPath<AnyNode>>();
  private readonly byStart = new Map<number, ASTPath<AnyNode>[]>();
  private readonly usedBefore: Map<string, number>;
  /** Per module: export name → local name. */
  private readonly needed: Record<ModuleKey, Map<string, string>> = { sdk: new Map(), state: new Map(), stdio: new Map(), node: new Map() };
  private readonly neededTypes = new Map<string, string>();

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
    this.root.find(j.Node).forEach((p: ASTPath<AnyNode>) => {
      const n = p.node as AnyNode;
      if (typeof n.start !== 'number') return;
      this.byRange.set(`${n.start}:${n.end}`, p);
      this.byStart.set(n.start, [...(this.byStart.get(n.start) ?? []), p]);
    });
    this.usedBefore = this.identifierCounts();
  }

  /** The tree of a text. */
  parse(text: string): Collection<AnyNode> {
    // recast counts a tab as tabWidth columns and derives node offsets from columns: with the default of 4, every
    // offset after a tab is off (the plan's offsets are characters). One column per tab keeps them characters.
    return this.j(text, { tabWidth: 1 });
  }

  /** The node the plan names by its range. */
  at(r: Range, what: string): ASTPath<AnyNode> {
    const p = this.byRange.get(`${r.start}:${r.end}`);
    if (!p) throw new Error(`mrtr transform: cannot find the ${what} at offset ${r.start} in ${this.plan.file}`);
    return p;
  }

  /**
   * Puts `node` before the statement at `at`, found by identity in its parent's list: declareSchemas splices the
   * program's body directly, which leaves the index a path cached stale (`path.insertBefore` would put it a
   * statement too early).
   */
  insertBeforeStatement(at: ASTPath<AnyNode>, node: AnyNode): void {
    const parent = at.parent?.node as AnyNode | undefined;
    const list = (Array.isArray(parent?.body) ? parent.body : parent?.consequent) as AnyNode[] | undefined;
    const index = list ? list.indexOf(at.node) : -1;
    if (!list || index < 0) {
      at.insertBefore(node);
      return;
    }
    list.splice(index, 0, node);
  }

  /** Puts `nodes` after the statement at `at`, found by identity in its parent's list (as insertBeforeStatement). */
  insertAfterStatement(at: ASTPath<AnyNode>, nodes: AnyNode[]): void {
    const parent = at.parent?.node as AnyNode | undefined;
    const list = (Array.isArray(parent?.body) ? parent.body : parent?.consequent) as AnyNode[] | undefined;
    const index = list ? list.indexOf(at.node) : -1;
    if (!list || index < 0) {
      at.insertAfter(...nodes);
      return;
    }
    list.splice(index + 1, 0, ...nodes);
  }

  /** The statement (not a block) starting at an offset. */
  statementAt(start: number): ASTPath<AnyNode> | undefined {
    return this.byStart.get(start)?.find(p => this.j.Statement.check(p.node) && !this.j.BlockStatement.check(p.node));
  }

  parseStatements(text: string): AnyNode[] {
    return this.parse(text).find(this.j.Program).get().node.body;
  }

  parseExpression(text: string): AnyNode {
    // As the right side of an assignment, not parenthesised: an object literal is not read as a block, and the
    // node is the snippet's own, so recast prints it as written instead of reprinting it.
    return this.parseStatements(`mcpMigrateExpression = ${text};`)[0].expression.right;
  }

  parseSuperCall(text: string): AnyNode {
    // `super(...)` parses only in a derived class's constructor: the wiring of a subclass of the SDK's server.
    return this.parseStatements(`class M extends B { constructor() { ${text}; } }`)[0].body.body[0].body.body[0].expression;
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
    const taken = (n: string) => (this.usedBefore.get(n) ?? 0) > 0 || [...Object.values(this.needed)].some(m => [...m.values()].includes(n));
    const free = [name, ...(ALIASES[name] ?? []), `mcp${name[0]!.toUpperCase()}${name.slice(1)}`].find(n => !taken(n));
    const local = this.importedFrom(this.modules[from], name) ?? free ?? `mcp${name[0]!.toUpperCase()}${name.slice(1)}`;
    this.needed[from].set(name, local);
    return local;
  }

  programNode(): AnyNode {
    return (this.root.get().node as AnyNode).program;
  }

  /** The rewritten file's text, with its imports edited to what the rewritten code uses. */
  print(): string {
    const { style, unit } = this;
    const importChanges = { add: this.importsToAdd(), remove: this.unusedMcpImports() };
    let output = this.root.toSource({ quote: style.quote, reuseWhitespace: true, tabWidth: unit === '\t' ? 1 : unit.length, useTabs: unit === '\t' });
    output = editImports(output, parseOnly(this.plan.file, output).program.body, importChanges, style);
    for (const { from, to } of this.commentEdits) output = output.replace(from, () => to);
    return output;
  }

  /** Imports are top-level statements: a look at the program's body, not a walk of the whole tree. */
  private importedFrom(module: string, name: string): string | undefined {
    let local: string | undefined;
    for (const st of this.programNode().body as AnyNode[]) {
      if (st.type === 'ImportDeclaration' && st.source.value === module) {
        for (const sp of st.specifiers ?? []) if (sp.type === 'ImportSpecifier' && sp.imported.name === name) local = sp.local?.name ?? name;
      }
      // CommonJS: const { name: local } = require(module)
      if (!isRequire(st)) continue;
      for (const d of st.declarations) {
        if (d.init?.arguments?.[0]?.value !== module || d.id.type !== 'ObjectPattern') continue;
        for (const prop of d.id.properties) if (prop.key?.name === name && prop.value?.type === 'Identifier') local = prop.value.name;
      }
    }
    return local;
  }

  private identifierCounts(): Map<string, number> {
    const { j } = this;
    const counts = new Map<string, number>();
    this.root.find(j.Identifier).forEach(p => {
      // Up the path by hand: a collection per identifier (`j(p).closest(...)`) cost more than the walk.
      for (let up = p.parent; up; up = up.parent) if ((up.node as AnyNode).type === 'ImportDeclaration') return;
      const name = (p.node as AnyNode).name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    });
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
    this.root.find(this.j.ImportDeclaration).forEach(p => {
      const decl = p.node as AnyNode;
      if (!/^@modelcontextprotocol\//.test(decl.source.value)) return;
      for (const sp of decl.specifiers) {
        const local = sp.local?.name;
        if (local && (this.usedBefore.get(local) ?? 0) > 0 && (after.get(local) ?? 0) === 0) unused.add(local);
      }
    });
    // `const { StdioServerTransport } = require('@modelcontextprotocol/server/stdio')`: the same, less the pattern's own
    // identifiers (identifierCounts skips imports, not requires; a shorthand property counts its key and its value).
    for (const st of this.programNode().body as AnyNode[]) {
      if (!isRequire(st) || st.declarations.length !== 1) continue;
      const [d] = st.declarations;
      if (!/^@modelcontextprotocol\//.test(d.init?.arguments?.[0]?.value ?? '') || d.id.type !== 'ObjectPattern') continue;
      for (const prop of d.id.properties) {
        const local = prop.value?.type === 'Identifier' ? (prop.value.name as string) : undefined;
        if (!local) continue;
        const own = (prop.key?.type === 'Identifier' && prop.key.name === local ? 1 : 0) + 1;
        if ((this.usedBefore.get(local) ?? 0) > own && (after.get(local) ?? 0) === own) unused.add(local);
      }
    }
    return unused;
  }
}
