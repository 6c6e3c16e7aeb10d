/**
 * SDK 2.x has no `tool(...)`, `prompt(...)` or `resource(...)`: the official codemod turns them into
 * `registerTool` (and its siblings) only when the name is written as a string, and it reads any middle
 * argument that is not a string literal as a parameter schema. A server whose names and descriptions are
 * constants (`server.tool(TOOLS.search.name, SEARCH_DESCRIPTION, schema, cb)`) kept `server.tool`, which
 * dies at startup on 2.x (`server.tool is not a function`), or had its description registered as its input
 * schema. Run before the codemod, this repair converts each call whose arguments it can tell apart (a
 * string, read through the constants of the file and of the relative modules it imports; an object literal
 * of annotations; a parameter shape; a member of the loop variable over a constant table of such entries,
 * `for (const t of TOOLS) server.tool(t.name, t.description, t.shape, cb)`, when every entry agrees) into
 * the register form, which the codemod then finishes as its own (wrapping a literal raw shape in
 * `z.object`; a table's raw shapes are wrapped here); a call it cannot tell apart is left to the codemod
 * and its finding.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import { constValue, moduleReader, tableMembers, withoutAssertions, type ModuleAt } from '../constValues.js';
import { finding, type Repair } from '../repair.js';
import { importedZodName } from './rawShapes.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/** The keys of SDK 1.x's ToolAnnotations: an object literal of these only is annotations, not a parameter shape. */
const ANNOTATION_KEYS = new Set(['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

type Role = 'string' | 'annotations' | 'shape' | 'unknown';

/** What an argument is, and for a table member whose every entry holds a raw shape, that it needs `z.object()`. */
interface RoleReader {
  role(n: Node): Role;
  tableOfRawShapes(n: Node): boolean;
}

export const toolOverloadsRepair: Repair = {
  id: 'tool-overloads',
  name: 'tool() and prompt() calls the official codemod cannot convert',
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    const roles = roleReader();
    const zod = importedZodName(sf);
    for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression).reverse()) {
      const callee = call.getExpression();
      if (
        !Node.isPropertyAccessExpression(callee) ||
        !/^(tool|prompt)$/.test(callee.getName()) ||
        !receiverIsServer(callee.getExpression())
      )
        continue;
      const config = registerConfig(callee.getName() as 'tool' | 'prompt', call, roles, zod);
      if (!config) continue;
      const args = call.getArguments();
      const line = call.getStartLineNumber();
      const name = args[0]!.getText();
      const callback = args[args.length - 1]!.getText();
      const old = callee.getName();
      const method = old === 'tool' ? 'registerTool' : 'registerPrompt';
      call.replaceWithText(`${callee.getExpression().getText()}.${method}(${name}, ${config}, ${callback})`);
      diagnostics.push(
        finding(
          sf,
          line,
          'info',
          `.${old}(${name}, ...) written as .${method}(): SDK 2.x has no ${old}(), and the official codemod converts it only when the name is a string literal and every other argument is written out`,
        ),
      );
    }
    return { changesCount: diagnostics.length, diagnostics };
  },
};

/**
 * The register form's config for a call the codemod would not convert, or would convert wrongly; `undefined`
 * for one it converts as it should (left to it) or one whose arguments cannot be told apart.
 */
function registerConfig(method: 'tool' | 'prompt', call: CallExpression, roles: RoleReader, zod: string | undefined): string | undefined {
  const args = call.getArguments();
  const [name, ...middle] = args.slice(0, -1);
  if (
    !name ||
    (!Node.isArrowFunction(args[args.length - 1]!) &&
      !Node.isFunctionExpression(args[args.length - 1]!) &&
      !Node.isIdentifier(args[args.length - 1]!))
  )
    return undefined;
  const kinds = middle.map(m => roles.role(m));
  if (roles.role(name) !== 'string' || kinds.includes('unknown')) return undefined;
  // A table's raw shapes need `z.object()`, which neither the codemod nor the raw-shapes repair adds to a member read.
  const wrap = middle.map(m => roles.tableOfRawShapes(m));
  if (wrap.includes(true) && !zod) return undefined;
  const literalName = Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name) || Node.isTemplateExpression(name);
  // What the codemod reads right: a literal name, each middle argument literal where it expects one.
  const codemodReadsRight =
    literalName &&
    middle.every((m, i) =>
      kinds[i] === 'string'
        ? Node.isStringLiteral(m) || Node.isNoSubstitutionTemplateLiteral(m) || Node.isTemplateExpression(m)
        : kinds[i] === 'shape',
    );
  if (codemodReadsRight) return undefined;
  const parts: string[] = [];
  const order: Role[] = ['string', 'shape', 'annotations'];
  let at = 0;
  for (const [i, kind] of kinds.entries()) {
    const position = order.indexOf(kind);
    if (position < at || (method === 'prompt' && kind === 'annotations')) return undefined;
    at = position + 1;
    const key = kind === 'string' ? 'description' : kind === 'shape' ? (method === 'tool' ? 'inputSchema' : 'argsSchema') : 'annotations';
    parts.push(`${key}: ${wrap[i] ? `${zod}.object(${middle[i]!.getText()})` : middle[i]!.getText()}`);
  }
  return parts.length > 0 ? `{ ${parts.join(', ')} }` : '{}';
}

/** `server`, `this.server`, `mcp`…: not a chat client's `tool` (the codemod asks the same of its own candidates). */
export function receiverIsServer(receiver: Node): boolean {
  return /(?:^|\.)(?:\w*[sS]erver|mcp\w*|\w*Mcp)$/.test(receiver.getText());
}

/**
 * What a middle argument is: its literal, or the literal a `const` holds, in this file or in a relative module it
 * imports (read from disk: the upgrade sees one file at a time); a member of a `const` object literal too, and a
 * member of the loop variable over a `const` table, when every entry's member is of one kind.
 */
function roleReader(): RoleReader {
  const moduleAt = moduleReader();
  const role = (n: Node, depth: number): Role => {
    const e = withoutAssertions(n);
    if (Node.isStringLiteral(e) || Node.isNoSubstitutionTemplateLiteral(e) || Node.isTemplateExpression(e)) return 'string';
    if (Node.isBinaryExpression(e) && e.getOperatorToken().getKind() === SyntaxKind.PlusToken)
      return role(e.getLeft(), depth) === 'string' || role(e.getRight(), depth) === 'string' ? 'string' : 'unknown';
    // `z.object({...})`, `z.string()`...: a schema built with zod.
    if (Node.isCallExpression(e) && /^z\./.test(e.getExpression().getText())) return 'shape';
    if (Node.isObjectLiteralExpression(e)) return objectRole(e.getProperties(), p => role(p, depth + 1));
    if (depth > 4) return 'unknown';
    const entries = tableMembers(e, moduleAt);
    if (entries) return agreed(entries.map(m => (m ? role(m, depth + 1) : 'unknown')));
    const held = constValue(e, moduleAt);
    return held ? role(held, depth + 1) : 'unknown';
  };
  const tableOfRawShapes = (n: Node): boolean => {
    const entries = tableMembers(withoutAssertions(n), moduleAt);
    return entries !== undefined && entries.every(m => m !== undefined && isRawShape(m, moduleAt));
  };
  return { role: n => role(n, 0), tableOfRawShapes };
}

/** An object literal is annotations when it holds only annotation keys with a string title; else a parameter shape. */
function objectRole(properties: Node[], role: (n: Node) => Role): Role {
  const keys = properties.map(p => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName() : ''));
  if (keys.length === 0 || !keys.every(k => ANNOTATION_KEYS.has(k))) return 'shape';
  // `{ title: z.string() }` is a parameter named title: annotations hold a string title and boolean hints, never a schema.
  const values = properties.map(p => (Node.isPropertyAssignment(p) ? role(p.getInitializerOrThrow()) : 'unknown'));
  if (values.includes('shape')) return 'shape';
  const title = keys.indexOf('title');
  return title < 0 || values[title] === 'string' ? 'annotations' : 'unknown';
}

/** The one kind every entry agrees on; unknown for none or a disagreement. */
function agreed(roles: Role[]): Role {
  return roles.length > 0 && roles.every(r => r === roles[0]) ? roles[0]! : 'unknown';
}

/** A raw shape: an object literal, directly or through a const, that is no zod call. */
function isRawShape(n: Node, moduleAt: ModuleAt): boolean {
  const e = withoutAssertions(n);
  if (Node.isObjectLiteralExpression(e)) return true;
  const held = Node.isIdentifier(e) || Node.isPropertyAccessExpression(e) ? constValue(e, moduleAt) : undefined;
  return held !== undefined && Node.isObjectLiteralExpression(withoutAssertions(held));
}
