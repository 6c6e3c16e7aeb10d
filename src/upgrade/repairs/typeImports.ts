import type { Diagnostic, Migration, TransformContext } from '@modelcontextprotocol/codemod';
import { Node, Project, ts, type SourceFile } from 'ts-morph';
import { importTypes, importTypeSpecifier } from '../../typeImports.js';
import { finding, type Repair } from '../repair.js';

/** Which sides of SDK 1.x a file imports: the official codemod's signal for where shared types go. */
export interface SdkSides {
  client: boolean;
  server: boolean;
}

export function sdkSides(sf: SourceFile): SdkSides {
  const specifiers = sf
    .getImportDeclarations()
    .map(d => d.getModuleSpecifierValue())
    .filter(s => s.startsWith('@modelcontextprotocol/sdk/'));
  return { client: specifiers.some(s => s.includes('/client/')), server: specifiers.some(s => s.includes('/server/')) };
}

/** How an `import('…')` type uses the name it imports: `Name`, `Name<A, B>` or `typeof Name`. */
export interface TypeUse {
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
export interface TypeHomeAnswer {
  home?: TypeHome;
  findings: string[];
}

/**
 * Where the official codemod sends a name imported from a 1.x path. Its mapping tables are not
 * exported, so we ask the codemod itself: an import of that name alone, used the same way, in a file
 * importing the same sides of the SDK, goes through the migration, and the use and the imports it
 * leaves are the answer. Each question is asked once.
 */
export function codemodTypeHomes(migration: Migration, projectType: TransformContext['projectType']) {
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
      `export type Probe = ${use.typeOf ? 'typeof ' : ''}${use.name}${typeArguments};`,
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
  const name = use.typeOf
    ? Node.isTypeQuery(type)
      ? type.getExprName().getText()
      : undefined
    : Node.isTypeReference(type)
      ? type.getTypeName().getText()
      : undefined;
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
function repairTypeImports(sf: SourceFile, homeOf: (specifier: string, use: TypeUse) => TypeHomeAnswer): Diagnostic[] {
  const notes: Diagnostic[] = [];
  const file = sf.compilerNode;
  const edits: { start: number; end: number; text: string }[] = [];
  // Type arguments the codemod drops take the types inside them along (importTypes gives outer types first).
  const dropped: { start: number; end: number }[] = [];
  for (const node of importTypes(file)) {
    const literal = importTypeSpecifier(node);
    if (!literal || !/^@modelcontextprotocol\/sdk(\/|$)/.test(literal.text)) continue;
    if (dropped.some(r => node.pos >= r.start && node.end <= r.end)) continue;
    const start = node.getStart(file);
    const note = (level: 'info' | 'warning', message: string) =>
      notes.push(finding(sf, sf.getLineAndColumnAtPos(start).line, level, message));
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
      note(
        'warning',
        `${written} left on SDK 1.x: the official codemod has no SDK 2.x import for it${findings.length > 0 ? ` (${findings.join(' ')})` : ''}`,
      );
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
    note(
      'info',
      `${written} (an import('…') type, which the official codemod does not rewrite) written as ${now}${use.typeArguments > 0 && !home.typeArguments ? ', without its type arguments' : ''}`,
    );
  }
  if (edits.length === 0) return notes;
  let text = sf.getFullText();
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  sf.replaceText([0, sf.getEnd()], text);
  return notes;
}

/** `import('@modelcontextprotocol/sdk/…').Name` types, sent where the codemod sends an import of that name (see repairTypeImports). */
export function typeImportsRepair(homeOf: (specifier: string, use: TypeUse) => TypeHomeAnswer): Repair {
  return {
    id: 'type-imports',
    name: "import('…') types left on SDK 1.x",
    apply: sf => {
      const diagnostics = repairTypeImports(sf, homeOf);
      return { changesCount: diagnostics.filter(d => d.level === 'info').length, diagnostics };
    },
  };
}
