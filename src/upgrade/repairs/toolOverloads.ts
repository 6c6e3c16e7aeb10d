/**
 * SDK 2.x has no `tool(...)`, `prompt(...)` or `resource(...)`: the official codemod turns them into
 * `registerTool` (and its siblings) only when the name is written as a string, and it reads any middle
 * argument that is not a string literal as a parameter schema. A server whose names and descriptions are
 * constants (`server.tool(TOOLS.search.name, SEARCH_DESCRIPTION, schema, cb)`) kept `server.tool`, which
 * dies at startup on 2.x (`server.tool is not a function`), or had its description registered as its input
 * schema. Run before the codemod, this repair converts each call whose arguments it can tell apart (a
 * string, read through the constants of the file and of the relative modules it imports; an object literal
 * of annotations; a parameter shape) into the register form, which the codemod then finishes as its own
 * (wrapping a raw shape in `z.object`); a call it cannot tell apart is left to the codemod and its finding.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, Project, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { finding, type Repair } from '../repair.js';

/** The keys of SDK 1.x's ToolAnnotations: an object literal of these only is annotations, not a parameter shape. */
const ANNOTATION_KEYS = new Set(['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

type Role = 'string' | 'annotations' | 'shape' | 'unknown';

export const toolOverloadsRepair: Repair = {
  id: 'tool-overloads',
  name: 'tool() and prompt() calls the official codemod cannot convert',
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    const roles = roleReader(sf);
    for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression).reverse()) {
      const callee = call.getExpression();
      if (!Node.isPropertyAccessExpression(callee) || !/^(tool|prompt)$/.test(callee.getName()) || !receiverIsServer(callee.getExpression())) continue;
      const config = registerConfig(callee.getName() as 'tool' | 'prompt', call, roles);
      if (!config) continue;
      const args = call.getArguments();
      const line = call.getStartLineNumber();
      const name = args[0]!.getText();
      const callback = args[args.length - 1]!.getText();
      const old = callee.getName();
      const method = old === 'tool' ? 'registerTool' : 'registerPrompt';
      call.replaceWithText(`${callee.getExpression().getText()}.${method}(${name}, ${config}, ${callback})`);
      diagnostics.push(finding(sf, line, 'info', `.${old}(${name}, ...) written as .${method}(): SDK 2.x has no ${old}(), and the official codemod converts it only when the name is a string literal and every other argument is written out`));
    }
    return { changesCount: diagnostics.length, diagnostics };
  },
};

/**
 * The register form's config for a call the codemod would not convert, or would convert wrongly; `undefined`
 * for one it converts as it should (left to it) or one whose arguments cannot be told apart.
 */
function registerConfig(method: 'tool' | 'prompt', call: CallExpression, roles: (n: Node) => Role): string | undefined {
  const args = call.getArguments();
  const [name, ...middle] = args.slice(0, -1);
  if (!name || !Node.isArrowFunction(args[args.length - 1]!) && !Node.isFunctionExpression(args[args.length - 1]!) && !Node.isIdentifier(args[args.length - 1]!)) return undefined;
  const kinds = middle.map(roles);
  if (roles(name) !== 'string' || kinds.includes('unknown')) return undefined;
  const literalName = Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name) || Node.isTemplateExpression(name);
  // What the codemod reads right: a literal name, each middle argument literal where it expects one.
  const codemodReadsRight = literalName && middle.every((m, i) => kinds[i] === 'string' ? Node.isStringLiteral(m) || Node.isNoSubstitutionTemplateLiteral(m) || Node.isTemplateExpression(m) : kinds[i] === 'shape');
  if (codemodReadsRight) return undefined;
  const parts: string[] = [];
  const order: Role[] = ['string', 'shape', 'annotations'];
  let at = 0;
  for (const [i, kind] of kinds.entries()) {
    const position = order.indexOf(kind);
    if (position < at || (method === 'prompt' && kind === 'annotations')) return undefined;
    at = position + 1;
    const key = kind === 'string' ? 'description' : kind === 'shape' ? (method === 'tool' ? 'inputSchema' : 'argsSchema') : 'annotations';
    parts.push(`${key}: ${middle[i]!.getText()}`);
  }
  return parts.length > 0 ? `{ ${parts.join(', ')} }` : '{}';
}

/** `server`, `this.server`, `mcp`…: not a chat client's `tool` (the codemod asks the same of its own candidates). */
export function receiverIsServer(receiver: Node): boolean {
  return /(?:^|\.)(?:\w*[sS]erver|mcp\w*|\w*Mcp)$/.test(receiver.getText());
}

/**
 * What a middle argument is: its literal, or the literal a `const` holds, in this file or in a relative module it
 * imports (read from disk: the upgrade sees one file at a time); a member of a `const` object literal too.
 */
function roleReader(sf: SourceFile): (n: Node) => Role {
  const modules = new Map<string, SourceFile | undefined>();
  const scratch = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  const moduleAt = (specifier: string): SourceFile | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.resolve(path.dirname(sf.getFilePath()), specifier.replace(/\.[cm]?js$/, ''));
    if (!modules.has(base)) {
      const file = ['.ts', '.mts', '.js', '.mjs', '/index.ts', '/index.js'].map(ext => base + ext).find(p => fs.existsSync(p));
      modules.set(base, file ? scratch.createSourceFile(file, fs.readFileSync(file, 'utf8'), { overwrite: true }) : undefined);
    }
    return modules.get(base);
  };
  const role = (n: Node, depth: number): Role => {
    const e = withoutAssertions(n);
    if (Node.isStringLiteral(e) || Node.isNoSubstitutionTemplateLiteral(e) || Node.isTemplateExpression(e)) return 'string';
    if (Node.isBinaryExpression(e) && e.getOperatorToken().getKind() === SyntaxKind.PlusToken) return role(e.getLeft(), depth) === 'string' || role(e.getRight(), depth) === 'string' ? 'string' : 'unknown';
    // `z.object({...})`, `z.string()`...: a schema built with zod.
    if (Node.isCallExpression(e) && /^z\./.test(e.getExpression().getText())) return 'shape';
    if (Node.isObjectLiteralExpression(e)) {
      const properties = e.getProperties();
      const keys = properties.map(p => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName() : ''));
      if (keys.length === 0 || !keys.every(k => ANNOTATION_KEYS.has(k))) return 'shape';
      // `{ title: z.string() }` is a parameter named title: annotations hold a string title and boolean hints, never a schema.
      const values = properties.map(p => (Node.isPropertyAssignment(p) ? role(p.getInitializerOrThrow(), depth + 1) : 'unknown'));
      if (values.includes('shape')) return 'shape';
      const title = keys.indexOf('title');
      return title < 0 || values[title] === 'string' ? 'annotations' : 'unknown';
    }
    if (depth > 4) return 'unknown';
    const held = constValue(e, moduleAt);
    return held ? role(held, depth + 1) : 'unknown';
  };
  return n => role(n, 0);
}

/** The initializer of the `const` an identifier or a member read (`TOOLS.search.name`) stands for. */
function constValue(e: Node, moduleAt: (specifier: string) => SourceFile | undefined): Node | undefined {
  if (Node.isPropertyAccessExpression(e)) {
    const held = Node.isIdentifier(e.getExpression()) || Node.isPropertyAccessExpression(e.getExpression()) ? constValue(e.getExpression(), moduleAt) : undefined;
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
    const module = named && moduleAt(d.getModuleSpecifierValue());
    const exported = module?.getVariableDeclaration(named!.getName());
    if (exported?.getVariableStatement()?.getDeclarationKind() === 'const') return exported.getInitializer();
  }
  return undefined;
}

/** `x as const`, `x satisfies T`, `(x)`: x. */
function withoutAssertions(n: Node): Node {
  return Node.isAsExpression(n) || Node.isSatisfiesExpression(n) || Node.isParenthesizedExpression(n) ? withoutAssertions(n.getExpression()) : n;
}
