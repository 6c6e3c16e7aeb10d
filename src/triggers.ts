/**
 * The cheap text pre-filter, in a module with no runtime dependencies so that a run over files with
 * nothing to migrate never loads the parser, the type checker or the official codemod.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FRAMEWORK_IMPORT } from './tables/frameworks.js';
import { resolveSubpathImport, resolveThroughPaths } from './analysis/tsconfigPaths.js';

/**
 * Names whose presence makes a file worth analysing for server-initiated requests, and the request
 * methods as string literals: `server.request({ method: 'elicitation/create', ... })`, or a channel a
 * helper is handed (`send({ method: 'roots/list' })`), names none of them. A server's `ping()` is a request
 * too, one 2026-07-28 does not have (src/analysis/sites.ts).
 */
export const TRIGGER_PATTERN =
  /\b(?:createMessage|elicitInput|listRoots|sendRequest|requestSampling|UrlElicitationRequiredError|mcpReq|createMessageStream|elicitInputStream|getTaskResult)\b|\.tasks\.(?:getTask|listTasks|cancelTask|requestStream)\b|\.ping\s*\(|['"`](?:sampling\/createMessage|elicitation\/create|roots\/list)['"`]/;

/**
 * A request method read as a value rather than called (`server.elicitInput.bind(server)`, `const {
 * listRoots } = server`, `ask = server.createMessage;`): a module that may export it under another name,
 * which the files importing it then call naming no trigger.
 */
export const REQUEST_METHOD_VALUE = /\b(?:createMessage|elicitInput|listRoots)\b\s*(?:\.\s*bind\b|[,;}]|=(?!=)|:\s*\w|$)/m;

/** Files that import the SDK: where servers are built and connected, and what the v1-to-v2 upgrade touches. */
export const MCP_TEXT = /@modelcontextprotocol\//;

/** The registration methods SDK 1.x and 2.x call differently (or 2.x lacks), and a call of one in a file's text. */
export const REGISTRATION_METHODS: readonly string[] = [
  'tool',
  'prompt',
  'resource',
  'registerTool',
  'registerPrompt',
  'registerResource',
  'setRequestHandler',
];
export const REGISTRATION_CALL = new RegExp(`\\.(?:${REGISTRATION_METHODS.join('|')})\\s*\\(`);

/** How deep a chain of helpers calling helpers is inlined (src/analysis/inline.ts). */
export const MAX_INLINE_DEPTH = 3;
/** Relative-import hops followed from a file worth analysing to find its helpers: one per helper level, one more for a barrel. */
export const HELPER_IMPORT_DEPTH = MAX_INLINE_DEPTH + 1;

/** `module.exports = ...`, `module.exports.x = ...`, `exports.x = ...`: a CommonJS module's exports. */
export const COMMONJS_EXPORTS = /(?:^|[^.\w$])(?:module\.exports(?:\.[\w$]+)?|exports\.[\w$]+)\s*=(?!=)/m;

/** zod's main entry, imported or required: what changes meaning when a package raises zod from 3 to 4. */
export const ZOD_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]zod['"]/;

export function isCandidate(text: string): boolean {
  return MCP_TEXT.test(text) || TRIGGER_PATTERN.test(text) || FRAMEWORK_IMPORT.test(text);
}

/**
 * Whether the analysis looks for requests in a file: its text names one (TRIGGER_PATTERN) or imports a
 * framework whose classes make them, or it imports a request method another module exports under a name
 * of its own (`importsRequestAliases`, see importersOfRequestAliases), whose calls name no trigger.
 */
export function mayMakeRequests(text: string, importsRequestAliases: boolean): boolean {
  return importsRequestAliases || TRIGGER_PATTERN.test(text) || FRAMEWORK_IMPORT.test(text);
}

// `import './tools.js'` too: a module imported for what it registers.
const IMPORTED = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
const BARE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^'"]*)?['"]/g;
const RESOLVED_EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js'];

/**
 * The files worth type-checked analysis: those that mention the SDK, and those whose trigger names
 * sit beside an import of such a file (a helper handed a server), by a relative path, a tsconfig `paths` alias or the name of
 * the workspace package it belongs to. A `createMessage` on a chat client in a file that neither
 * mentions nor imports anything of the SDK's is not parsed.
 */
export function worthAnalysing<F extends { path: string; text: string }>(files: F[]): F[] {
  const mcpFiles = files.filter(f => MCP_TEXT.test(f.text));
  const mcp = new Set(mcpFiles.map(f => f.path));
  let mcpPackages: Set<string> | undefined;
  const importsMcpPackage = (f: F) => {
    if (!mcpPackages) {
      const names = new PackageNames();
      mcpPackages = new Set(mcpFiles.map(m => names.nameOf(m.path)).filter((n): n is string => n !== undefined));
    }
    return bareImports(f).some(name => mcpPackages!.has(name));
  };
  const aliasUsers = importersOfRequestAliases(files);
  // A file importing a framework built on the SDK is analysed for the framework's own request APIs.
  const seeds = files.filter(
    f =>
      mcp.has(f.path) ||
      FRAMEWORK_IMPORT.test(f.text) ||
      aliasUsers.has(f.path) ||
      (TRIGGER_PATTERN.test(f.text) && (importsAmong(f, mcp).length > 0 || importsMcpPackage(f))) ||
      // A file registering handlers on a server it imports from another module, of its package or of a workspace
      // package (its upgrade: src/pipeline.ts).
      (REGISTRATION_CALL.test(f.text) && (importsAmong(f, mcp).length > 0 || importsMcpPackage(f))),
  );
  if (seeds.length === 0) return seeds;
  const callers = helperCallers(files, new Set(seeds.filter(f => TRIGGER_PATTERN.test(f.text)).map(f => f.path)));
  if (callers.size > 0) seeds.push(...files.filter(f => callers.has(f.path) && !seeds.includes(f)));
  const kept = new Set([...seeds, ...importedHelpers(seeds, files)].map(f => f.path));
  return files.filter(f => kept.has(f.path));
}

/** A registration of a handler, as the text of a file that makes one reads (`server.registerTool(`, `.setRequestHandler(`). */
const REGISTERS = /\.(?:registerTool|registerPrompt|registerResource|setRequestHandler|tool|prompt|resource)\s*\(/;

/**
 * The files of `files` that register handlers and import a request-making file of `makers` (by a relative
 * path or an alias), directly or through the helpers it imports (up to MAX_INLINE_DEPTH hops): tools calling a helper of
 * another module may be registered in a file that names no trigger and no SDK (`import { server } from
 * './server.js'; server.registerTool(..., () => asker.askName())`), and the helper is migrated only where its
 * callers are seen. The helpers on the way are importedHelpers' to keep.
 */
export function helperCallers(files: readonly { path: string; text: string }[], makers: ReadonlySet<string>): Set<string> {
  const byPath = new Map(files.map(f => [f.path, f]));
  const known = new Set(byPath.keys());
  const found = new Set<string>();
  for (const file of files) {
    if (makers.has(file.path) || !REGISTERS.test(file.text)) continue;
    if (reachesWithin(file, makers, byPath, known)) found.add(file.path);
  }
  return found;
}

function reachesWithin(
  file: { path: string; text: string },
  targets: ReadonlySet<string>,
  byPath: ReadonlyMap<string, { path: string; text: string }>,
  known: ReadonlySet<string>,
): boolean {
  const seen = new Set([file.path]);
  let frontier = [file];
  for (let hop = 0; hop < MAX_INLINE_DEPTH && frontier.length > 0; hop++) {
    const next: { path: string; text: string }[] = [];
    for (const f of frontier) {
      for (const target of importsAmong(f, known)) {
        if (targets.has(target)) return true;
        if (!seen.has(target)) {
          seen.add(target);
          next.push(byPath.get(target)!);
        }
      }
    }
    frontier = next;
  }
  return false;
}

/** The files of `files` that read a request method as a value (REQUEST_METHOD_VALUE): modules that may export it under another name. */
export function requestAliasHolders(files: readonly { path: string; text: string }[]): Set<string> {
  return new Set(files.filter(f => REQUEST_METHOD_VALUE.test(f.text)).map(f => f.path));
}

/** The files of `files` that import, by a relative path or an alias, one of requestAliasHolders. */
export function importersOfRequestAliases(files: readonly { path: string; text: string }[]): Set<string> {
  const holders = requestAliasHolders(files);
  if (holders.size === 0) return holders;
  return new Set(files.filter(f => importsAmong(f, holders).length > 0).map(f => f.path));
}

/**
 * The files of `files` that `seeds` reach by relative or aliased imports (up to HELPER_IMPORT_DEPTH hops) and that
 * may hold a helper making a request or registrations on a server handed to them, with the files the imports pass through (a helper calling a
 * helper, a barrel): what the analysis must see as it is after the run, in the same group as its importers.
 * `textOf` reads a file found on the way that `files` holds without its text (decoded lazily).
 */
export function importedHelpers<F extends { path: string; text?: string }>(
  seeds: F[],
  files: F[],
  textOf: (file: F) => string | undefined = f => f.text,
): F[] {
  const byPath = new Map(files.map(f => [f.path, f]));
  const known = new Set(byPath.keys());
  const seedPaths = new Set(seeds.map(f => f.path));
  const via = new Map<string, string | undefined>(seeds.map(f => [f.path, undefined]));
  const found = new Set<string>();
  // A file worth keeping, and the files its import passed through from a seed.
  const keep = (p: string) => {
    for (let q: string | undefined = p; q !== undefined && !seedPaths.has(q) && !found.has(q); q = via.get(q)) found.add(q);
  };
  let frontier = seeds.map(f => f.path);
  for (let hop = 0; hop <= HELPER_IMPORT_DEPTH && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const p of frontier) {
      const text = textOf(byPath.get(p)!);
      if (text === undefined) continue;
      // A helper that may ask, or a module registering handlers on a server it is handed (`module.exports =
      // function (server) { server.tool(...) }`), whose 1.x registrations the upgrade must see.
      if (hop > 0 && (TRIGGER_PATTERN.test(text) || REGISTRATION_CALL.test(text))) keep(p);
      // The last hop's files are read for what they say, not followed further.
      if (hop === HELPER_IMPORT_DEPTH) continue;
      for (const target of importsAmong({ path: p, text }, known)) {
        if (via.has(target)) {
          // Another candidate reached through this file: they belong in one group.
          if (seedPaths.has(target) || found.has(target)) keep(p);
          continue;
        }
        via.set(target, p);
        next.push(target);
      }
    }
    frontier = next;
  }
  return files.filter(f => found.has(f.path));
}

/** The package names `file` imports, re-exports or requires (`@scope/name` or `name`, without a subpath). */
export function bareImports(file: { text: string }): string[] {
  return [...file.text.matchAll(BARE_IMPORT)].map(m => m[1]!);
}

/**
 * The files of `known` that `file` imports, re-exports or requires by a relative path, through a `paths` alias of
 * its tsconfig.json (`import { server } from '@/server'`) or a subpath import of its package.json (`'#server'`), as
 * TypeScript resolves them.
 */
export function importsAmong(file: { path: string; text: string }, known: ReadonlySet<string>): string[] {
  const found: string[] = [];
  if (known.size === 0) return found;
  for (const m of file.text.matchAll(IMPORTED)) {
    const specifier = m[1]!;
    if (/^\.{1,2}\//.test(specifier)) {
      const base = path.resolve(path.dirname(file.path), specifier.replace(/\.[cm]?js$/, ''));
      const hit = RESOLVED_EXTENSIONS.map(ext => base + ext).find(p => known.has(p));
      if (hit) found.push(hit);
    } else if (!specifier.startsWith('.') && !specifier.startsWith('node:')) {
      const hit = specifier.startsWith('#') ? resolveSubpathImport(file.path, specifier) : resolveThroughPaths(file.path, specifier);
      if (hit !== undefined && known.has(hit)) found.push(hit);
    }
  }
  return found;
}

/** The `name` of the package.json that owns a file (nearest above it), read once per directory. */
export class PackageNames {
  private readonly byDir = new Map<string, string | undefined>();

  nameOf(file: string): string | undefined {
    return this.nameOfDir(path.dirname(file));
  }

  private nameOfDir(dir: string): string | undefined {
    if (this.byDir.has(dir)) return this.byDir.get(dir);
    let name: string | undefined;
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      // Only a name can be imported; a package without one is never joined by name.
      name = typeof json.name === 'string' ? json.name : undefined;
    } catch (error) {
      // None here: the parent's. One that cannot be read or parsed: a package without a name.
      const code = (error as NodeJS.ErrnoException).code;
      const parent = path.dirname(dir);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && parent !== dir) name = this.nameOfDir(parent);
    }
    this.byDir.set(dir, name);
    return name;
  }
}
