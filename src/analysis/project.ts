/**
 * The ts-morph project the analysis type-checks in.
 *
 * A project being migrated usually has only SDK 1.x installed, yet the analysis reads the upgraded text,
 * which imports `@modelcontextprotocol/server`; some projects have nothing installed yet. So that what the
 * analysis finds never depends on what the project happens to have installed, the SDK's packages, zod and
 * Node's own declarations are always resolved from mcp-migrate's own dependencies; every other import is
 * resolved from the importing file, as the project's compiler would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts, type ImportDeclaration, type SourceFile } from 'ts-morph';
import { isDefaultLib } from './mcpSymbols.js';
import { resolveThroughPaths } from './tsconfigPaths.js';

/** Specifiers resolved from mcp-migrate's own installation, whatever the project has. */
const OWN_PACKAGES = /^(?:@modelcontextprotocol\/[^/]+|zod)(?:\/|$)/;

/** A file of mcp-migrate's own: module resolution from here finds its own dependencies. */
const OWN_ANCHOR = fileURLToPath(import.meta.url);

/**
 * `nodeTypes: false` leaves Node's declarations out (for a run whose files cannot reach them, see
 * needsNodeDeclarations): they are two thirds of what the checker parses before an analysis.
 */
export function analysisProject({ nodeTypes = true }: { nodeTypes?: boolean } = {}): Project {
  let resolutions: ts.ModuleResolutionCache | undefined;
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: {
      allowJs: true,
      checkJs: false,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      // Servers are not browser code: leaving out the DOM library saves a good part of the checker's start.
      lib: ['lib.es2022.d.ts'],
      // Node's declarations (node:fs, node:path, Buffer...), so that a built-in resolves to its declaration
      // instead of to nothing: two unresolved names would look alike.
      types: nodeTypes ? ['node'] : [],
      typeRoots: nodeTypes ? ownTypeRoots() : [],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
    resolutionHost: (host, compilerOptions) => {
      const cache = (resolutions = ts.createModuleResolutionCache(
        host.getCurrentDirectory?.() ?? process.cwd(),
        name => name,
        compilerOptions(),
      ));
      const resolve = (name: string, from: string) => ts.resolveModuleName(name, from, compilerOptions(), host, cache).resolvedModule;
      return {
        resolveModuleNames: (names, containingFile) =>
          names.map(name =>
            OWN_PACKAGES.test(name)
              ? (resolve(name, OWN_ANCHOR) ?? resolve(name, containingFile))
              : (resolve(name, containingFile) ?? throughPaths(name, containingFile)),
          ),
      };
    },
  });
  if (resolutions) resolutionCaches.set(project, resolutions);
  return project;
}

/**
 * A specifier the importing file's tsconfig.json maps through `paths` (`import { server } from '@/server'`), which
 * the analysis's own options do not: resolved as the project's compiler resolves it.
 */
function throughPaths(name: string, from: string): ts.ResolvedModuleFull | undefined {
  const file = resolveThroughPaths(from, name);
  return file === undefined ? undefined : { resolvedFileName: file, extension: extensionOf(file), isExternalLibraryImport: false };
}

const EXTENSIONS = [
  ts.Extension.Dts,
  ts.Extension.Dmts,
  ts.Extension.Dcts,
  ts.Extension.Tsx,
  ts.Extension.Ts,
  ts.Extension.Mts,
  ts.Extension.Cts,
  ts.Extension.Jsx,
  ts.Extension.Js,
  ts.Extension.Mjs,
  ts.Extension.Cjs,
  ts.Extension.Json,
];
const extensionOf = (file: string): ts.Extension => EXTENSIONS.find(e => file.endsWith(e)) ?? ts.Extension.Ts;

/** Each analysis project's module resolutions, which forgetProjectFiles clears. */
const resolutionCaches = new WeakMap<Project, ts.ModuleResolutionCache>();

/**
 * The project file a module specifier names from a file, resolved as the program resolves it, without making the
 * program: the checker's first question makes it (the library's, Node's, the SDK's and zod's declarations),
 * most of a run where nothing else needs it. Undefined for a package's file, a declaration file or a module
 * that does not resolve; a workspace's package, linked into node_modules, resolves to its real path.
 */
export function resolvedImportPath(from: SourceFile, specifier: string): string | undefined {
  if (OWN_PACKAGES.test(specifier)) return undefined;
  const project = from.getProject();
  const file =
    ts.resolveModuleName(specifier, from.getFilePath(), project.getCompilerOptions(), project.getModuleResolutionHost()).resolvedModule
      ?.resolvedFileName ?? resolveThroughPaths(from.getFilePath(), specifier);
  return file && !/[\\/]node_modules[\\/]/.test(file) && !/\.d\.[cm]?ts$/.test(file) ? file : undefined;
}

/** The source file an import names (resolvedImportPath), added to the project when it was not in it. */
export function importedSourceFile(declaration: ImportDeclaration): SourceFile | undefined {
  const project = declaration.getProject();
  const file = resolvedImportPath(declaration.getSourceFile(), declaration.getModuleSpecifierValue());
  return file === undefined ? undefined : (project.getSourceFile(file) ?? project.addSourceFileAtPathIfExists(file));
}

const shared = new Map<boolean, Project>();

/**
 * One analysis project kept for the life of the process, for every run in it (a language server analysing one
 * document after another, a test migrating one project after another): the library, Node and SDK declarations
 * are parsed and bound once, and each run's program is made from the last one's. The caller forgets the run's
 * own files before and after it (forgetProjectFiles). Two at most: with Node's declarations and without them
 * (for documents that cannot reach them), each made when first needed.
 */
export function sharedAnalysisProject({ nodeTypes = true }: { nodeTypes?: boolean } = {}): Project {
  let project = shared.get(nodeTypes);
  if (!project) shared.set(nodeTypes, (project = analysisProject({ nodeTypes })));
  return project;
}

/**
 * Names only Node's declarations give a meaning (beyond the ES2022 library): its globals and types (the
 * web ones it declares too: fetch, URL, Request...), and what it adds to the library's interfaces
 * (`Error.captureStackTrace`, `Symbol.dispose`, `import.meta.dirname`). test/lsp-analysis.test.ts checks that
 * every global @types/node declares is matched.
 */
const NODE_NAME = new RegExp(
  '^(?:' +
    [
      'AbortController',
      'AbortSignal',
      '\\w*Blob',
      'BroadcastChannel',
      '\\w*Buffer\\w*',
      '\\w*QueuingStrategy',
      '\\w*[cC]ompressionStream',
      'ReadableByteStreamController',
      'Console',
      'console',
      'CustomEvent',
      'DOMException',
      'Event(?:Target|Source\\w*|ListenerOptions)?',
      'File',
      'FormData',
      'Global',
      'global',
      'Headers',
      'Message(?:Channel|Event\\w*|Port)',
      'NodeJS',
      'Node\\w+',
      'Performance\\w*',
      'performance',
      '\\w*ReadableStream\\w*',
      '\\w*WritableStream\\w*',
      '\\w*TransformStream\\w*',
      '\\w*ByteLengthQueuingStrategy',
      'Request(?:Init)?',
      'Response(?:Init)?',
      'TextDecoder\\w*',
      'TextEncoder\\w*',
      'URL(?:SearchParams)?',
      'WebSocket\\w*',
      '__dirname',
      '__filename',
      'atob',
      'btoa',
      'clear(?:Immediate|Interval|Timeout)',
      'crypto',
      'exports',
      'fetch',
      'gc',
      'module',
      'process',
      'queueMicrotask',
      'require',
      'Require\\w*',
      'set(?:Immediate|Interval|Timeout)',
      'structuredClone',
      'captureStackTrace',
      'prepareStackTrace',
      'stackTraceLimit',
      '\\w*[dD]ispos\\w*',
      'using',
      'RelativeIndexable',
    ].join('|') +
    ')$',
);
const IMPORT_META = /\bimport\s*\.\s*meta\b/;

const REFERENCE = /^[ \t]*\/\/\/[ \t]*<reference\b/m;

/** A module specifier a file imports, re-exports from or loads. */
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(['"`])([^'"`]*)\1/g;

/**
 * Whether the files' analysis may read Node's declarations: one mentions a name only they declare, or
 * imports a module other than the SDK's and zod's (a built-in, a package whose types reference Node, a
 * module of the project read from disk). A word in a comment or a string counts too: a needless load
 * costs time, a missing one would change what the analysis finds.
 */
export function needsNodeDeclarations(texts: Iterable<string>): boolean {
  for (const text of texts) {
    // A `/// <reference types="node" />` (or any other reference) loads declarations whatever `types` says.
    if (IMPORT_META.test(text) || REFERENCE.test(text)) return true;
    // Word by word, each once: one pattern over the whole text backtracks at every word (150 ms on 2,000 lines).
    for (const word of new Set(text.match(/\w+/g))) if (NODE_NAME.test(word)) return true;
    for (const m of text.matchAll(SPECIFIER)) if (!OWN_PACKAGES.test(m[2]!)) return true;
  }
  return false;
}

/**
 * Gives a source file a whole new text, as `sf.replaceWithText(text)` does: either way every node of the old
 * text is forgotten and the new one parsed, but ts-morph's edit also walks the old tree against the new one
 * and works out an indentation nobody reads (measured, the two differ by less than the machine's noise).
 * The SourceFile object stays; the program is made again.
 */
export function setText(sf: SourceFile, text: string): void {
  sf.getProject().createSourceFile(sf.getFilePath(), text, { overwrite: true });
}

/**
 * Forgets every file of the project but the declarations installed with mcp-migrate (TypeScript's library,
 * Node's, the SDK's and zod's), and every module resolution: the next run reads the user's files, their
 * installed packages and their imports afresh, as a run in a process of its own would.
 */
export function forgetProjectFiles(project: Project): void {
  for (const sf of cachedSourceFiles(project)) if (!isOwnDeclaration(sf)) project.removeSourceFile(sf);
  resolutionCaches.get(project)?.clear();
}

/**
 * Every file ts-morph holds. Its getSourceFiles() lists only those added to the project; those the program read
 * through imports (a user's helpers, every declaration) are held too, and the next program has them all as roots.
 */
function cachedSourceFiles(project: Project): SourceFile[] {
  const roots = new Set([OWN_ANCHOR, ...project.getSourceFiles().map(sf => sf.getFilePath())].map(file => path.parse(file).root));
  return [...roots].flatMap(root => project.getDirectory(root)?.getDescendantSourceFiles() ?? []);
}

function isOwnDeclaration(sf: SourceFile): boolean {
  if (!sf.isDeclarationFile()) return false;
  const file = sf.getFilePath();
  return isDefaultLib(file) || OWN_NODE_MODULES.some(dir => file.startsWith(dir));
}

/** The `@types` folder holding mcp-migrate's own `@types/node` (nested under it, or hoisted beside it). */
function ownTypeRoots(): string[] {
  for (let dir = path.dirname(OWN_ANCHOR); ; dir = path.dirname(dir)) {
    const types = path.join(dir, 'node_modules', '@types');
    if (fs.existsSync(path.join(types, 'node', 'package.json'))) return [types];
    if (path.dirname(dir) === dir) return [];
  }
}

/**
 * The node_modules folder mcp-migrate's own dependencies are installed in (with a separator after it, as a prefix),
 * as it is reached and as its real path: the compiler names a declaration by its real path, and node_modules may be
 * a link (a checkout sharing another's, a store's layout).
 */
const OWN_NODE_MODULES = ownTypeRoots()
  .flatMap(types => [path.dirname(types), fs.realpathSync(path.dirname(types))])
  .map(dir => dir.replaceAll(path.sep, '/') + '/');
