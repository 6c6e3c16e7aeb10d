/**
 * Schemas a tool or prompt is registered with become JSON Schema for tools/list and prompts/list. SDK 1.x
 * converted zod 3 with zod-to-json-schema, which wrote a date as `{ type: 'string', format: 'date-time' }`;
 * SDK 2.x asks zod 4 itself, which throws on what JSON Schema cannot say (`Date cannot be represented in JSON
 * Schema`), and then the whole list fails, for every client, once zod is raised as SDK 2.x needs. Measured on
 * zod 4 (test/upgrade/repairs/zodJsonSchema.test.ts).
 *
 * `z.coerce.date()` read a string the client sent and made it a Date: `z.string().pipe(z.coerce.date())` reads
 * the same strings to the same Date, and zod 4 writes its input as a string. Every other construct zod 4 cannot
 * write (a Date that is no coercion, which no JSON value ever matched, a bigint, a Map, a Set, a symbol, a
 * function, a custom check) is marked. Only schemas a registration is given are looked at, written in its
 * arguments or held in a const it names, in its file or another: elsewhere such a schema is no JSON Schema.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import path from 'node:path';
import { Node, Project, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { finding, leftover, namesTable, type Repair } from '../repair.js';
import { zodNames, type ZodNames } from './zodApis.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/** Registrations whose arguments hold schemas the SDK writes as JSON Schema. */
const REGISTRATIONS = /^(registerTool|registerPrompt|tool|prompt)$/;

/** zod factories zod 4 cannot write as JSON Schema, with what that value is. */
const UNREPRESENTABLE = namesTable({
  date: 'a Date',
  bigint: 'a bigint',
  map: 'a Map',
  set: 'a Set',
  symbol: 'a symbol',
  function: 'a function',
  custom: 'a custom check',
  nan: 'NaN',
  promise: 'a promise',
  void: 'void',
  undefined: 'undefined',
});

/**
 * `registeredElsewhere`: the top-level consts other modules register schemas with, as `<file>#<name>`
 * (`registeredSchemaImports`): each file is repaired on its own, so what a module importing it registers is
 * worked out before, from all the files.
 */
export function zodJsonSchemaRepair(registeredElsewhere: ReadonlySet<string> = new Set()): Repair {
  return {
    id: 'zod-json-schema',
    name: 'Schemas of tools and prompts zod 4 cannot write as JSON Schema',
    apply: sf => {
      const zod = zodNamespaces(sf);
      const diagnostics: Diagnostic[] = [];
      if (!zod || !/\b(date|bigint|map|set|symbol|function|custom|nan|promise|void|undefined)\s*\(/.test(sf.getFullText()))
        return { changesCount: 0, diagnostics };
      let changesCount = 0;
      const calls = descendantsOfKind(sf, SyntaxKind.CallExpression).filter(call => zodFactory(call, zod) !== undefined);
      for (const call of calls.reverse()) {
        const factory = zodFactory(call, zod)!;
        if (!(factory.name in UNREPRESENTABLE) || !registered(call, registeredElsewhere)) continue;
        if (factory.coerce && factory.name === 'date' && call.getArguments().length === 0) {
          const ns = factory.namespace;
          call.replaceWithText(`${ns}.string().pipe(${ns}.coerce.date())`);
          changesCount++;
          diagnostics.push(
            finding(
              sf,
              call.getStartLineNumber(),
              'info',
              `${ns}.coerce.date() in a registered schema written as ${ns}.string().pipe(${ns}.coerce.date()): zod 4, which SDK 2.x needs, cannot write a Date as JSON Schema and tools/list would fail; the strings read and the Date made are as before`,
            ),
          );
          continue;
        }
        // (a coercion to a bigint, or a date with parameters, zod 4 cannot write either)
        const what = UNREPRESENTABLE[factory.name]!;
        diagnostics.push(
          leftover(
            call,
            `${call.getText().slice(0, 60)}: zod 4, which SDK 2.x needs, cannot write ${what} as JSON Schema, so once zod is raised tools/list (prompts/list) fails for every tool; take what a client can send in JSON (for a date, z.string().pipe(z.coerce.date())) and make ${what} in the handler; then remove this marker`,
          ),
        );
      }
      return { changesCount, diagnostics };
    },
  };
}

/** What `z` is imported as from zod's main entry or `zod/v4` (SDK 2.x writes the schemas of both with zod 4). */
function zodNamespaces(sf: SourceFile): ZodNames | undefined {
  const main = zodNames(sf);
  const namespaces = new Set(main?.namespaces ?? []);
  for (const d of sf.getImportDeclarations().filter(i => i.getModuleSpecifierValue() === 'zod/v4')) {
    const ns = d.getNamespaceImport() ?? d.getDefaultImport();
    if (ns) namespaces.add(ns.getText());
    for (const n of d.getNamedImports()) if (n.getName() === 'z') namespaces.add(n.getAliasNode()?.getText() ?? 'z');
  }
  return namespaces.size > 0 ? { namespaces, named: main?.named ?? new Map() } : undefined;
}

/** The zod factory a call is, `z.date()` or `z.coerce.date()`, with the namespace it is read from. */
function zodFactory(call: CallExpression, zod: ZodNames): { name: string; coerce: boolean; namespace: string } | undefined {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const owner = callee.getExpression();
  if (Node.isIdentifier(owner) && zod.namespaces.has(owner.getText()))
    return { name: callee.getName(), coerce: false, namespace: owner.getText() };
  if (
    Node.isPropertyAccessExpression(owner) &&
    owner.getName() === 'coerce' &&
    Node.isIdentifier(owner.getExpression()) &&
    zod.namespaces.has(owner.getExpression().getText())
  ) {
    return { name: callee.getName(), coerce: true, namespace: owner.getExpression().getText() };
  }
  return undefined;
}

/**
 * Whether a schema is given to a registration: written in its arguments, or held in a top-level const that one
 * names, here or in a module importing it (through two such consts: `inputSchema: { range: DayRange }`).
 */
function registered(node: Node, elsewhere: ReadonlySet<string>, depth = 0): boolean {
  // (an argument of a registration, however deep: `inputSchema: z.object({ when: z.coerce.date() })`; not in its callback)
  for (const a of node.getAncestors()) {
    if (Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a)) break;
    const call = a.getParent();
    const callee = call && Node.isCallExpression(call) && call.getArguments().includes(a as never) ? call.getExpression() : undefined;
    if (callee && Node.isPropertyAccessExpression(callee) && REGISTRATIONS.test(callee.getName())) return true;
  }
  if (depth >= 2) return false;
  const holder = node.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
  const name = holder?.getNameNode();
  if (!holder || !name || !Node.isIdentifier(name) || holder.getFirstAncestor(a => Node.isFunctionLikeDeclaration(a)) !== undefined)
    return false;
  if (elsewhere.has(`${withoutExtension(node.getSourceFile().getFilePath())}#${name.getText()}`)) return true;
  return name
    .findReferencesAsNodes()
    .some(
      ref =>
        ref !== name &&
        !Node.isImportSpecifier(ref.getParent()) &&
        !Node.isExportSpecifier(ref.getParent()) &&
        registered(ref, elsewhere, depth + 1),
    );
}

/**
 * The names registrations read from relative imports, as `<file without extension>#<exported name>`: in their
 * arguments, or in a top-level const of their file they name. Read from the text of every file of the run.
 */
export function registeredSchemaImports(files: readonly { path: string; text: string }[]): Set<string> {
  const found = new Set<string>();
  const project = new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { allowJs: true, noLib: true },
  });
  // All of them in one program, which nothing edits: its checker is made once, and binds each file once.
  const sources = files
    .filter(f => /\b(registerTool|registerPrompt|tool|prompt)\s*\(/.test(f.text) && /from\s*['"]\./.test(f.text))
    .map(file => ({ file, sf: project.createSourceFile(file.path, file.text, { overwrite: true }) }));
  for (const { file, sf } of sources) {
    const read = new Set<Node>();
    const visit = (node: Node, depth: number): void => {
      for (const id of [node, ...node.getDescendants()].filter(Node.isIdentifier)) {
        const declaration = id.getSymbol()?.getDeclarations()[0];
        if (declaration && Node.isImportSpecifier(declaration)) {
          const module = declaration.getImportDeclaration().getModuleSpecifierValue();
          if (module.startsWith('.'))
            found.add(`${withoutExtension(path.resolve(path.dirname(file.path), module))}#${declaration.getName()}`);
        } else if (declaration && Node.isVariableDeclaration(declaration) && depth < 2 && !read.has(declaration)) {
          read.add(declaration);
          const init = declaration.getInitializer();
          if (init) visit(init, depth + 1);
        }
      }
    };
    for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      if (!Node.isPropertyAccessExpression(callee) || !REGISTRATIONS.test(callee.getName())) continue;
      for (const arg of call.getArguments()) if (!Node.isArrowFunction(arg) && !Node.isFunctionExpression(arg)) visit(arg, 0);
    }
  }
  return found;
}

/** A module's path as an import names it: `./schemas.js` and `schemas.ts` alike. */
function withoutExtension(file: string): string {
  return file.replace(/\.(?:[cm]?[jt]sx?)$/, '').replace(/[\\/]index$/, '');
}
