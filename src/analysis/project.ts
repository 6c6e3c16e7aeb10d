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
import { Project, ts } from 'ts-morph';

/** Specifiers resolved from mcp-migrate's own installation, whatever the project has. */
const OWN_PACKAGES = /^(?:@modelcontextprotocol\/[^/]+|zod)(?:\/|$)/;

/** A file of mcp-migrate's own: module resolution from here finds its own dependencies. */
const OWN_ANCHOR = fileURLToPath(import.meta.url);

export function analysisProject(): Project {
  return new Project({
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
      types: ['node'],
      typeRoots: ownTypeRoots(),
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
    resolutionHost: (host, compilerOptions) => {
      const cache = ts.createModuleResolutionCache(host.getCurrentDirectory?.() ?? process.cwd(), name => name, compilerOptions());
      const resolve = (name: string, from: string) => ts.resolveModuleName(name, from, compilerOptions(), host, cache).resolvedModule;
      return {
        resolveModuleNames: (names, containingFile) =>
          names.map(name => (OWN_PACKAGES.test(name) ? (resolve(name, OWN_ANCHOR) ?? resolve(name, containingFile)) : resolve(name, containingFile))),
      };
    },
  });
}

let shared: Project | undefined;

/**
 * One analysis project kept for the life of the process (a language server analysing one document after
 * another): the library, Node and SDK declarations are parsed once. The caller removes its
 * own files before and after a run (forgetProjectFiles).
 */
export function sharedAnalysisProject(): Project {
  return (shared ??= analysisProject());
}

/** Forgets every file of the project but installed declarations: the next run reads the user's files afresh. */
export function forgetProjectFiles(project: Project): void {
  for (const sf of project.getSourceFiles()) if (!sf.isInNodeModules()) project.removeSourceFile(sf);
}

/** The `@types` folder holding mcp-migrate's own `@types/node` (nested under it, or hoisted beside it). */
function ownTypeRoots(): string[] {
  for (let dir = path.dirname(OWN_ANCHOR); ; dir = path.dirname(dir)) {
    const types = path.join(dir, 'node_modules', '@types');
    if (fs.existsSync(path.join(types, 'node', 'package.json'))) return [types];
    if (path.dirname(dir) === dir) return [];
  }
}
