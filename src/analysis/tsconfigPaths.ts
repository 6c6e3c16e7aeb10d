/**
 * Module specifiers a project maps through its tsconfig.json (`compilerOptions.paths`, `baseUrl`): a
 * workspace's `@shared/ask.js`. The analysis resolves with options of its own, so an import through
 * such an alias does not resolve there; it is resolved here, with the options of the tsconfig.json
 * nearest the importing file (its `extends` followed), as TypeScript resolves it for that package.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ts } from 'ts-morph';

/**
 * TypeScript, loaded when a tsconfig.json may map specifiers: the pre-filter asks here too (src/triggers.ts), and a
 * run over a tree with nothing of MCP in it does not load the compiler.
 */
let typescript: typeof ts | undefined;
const tsLib = (): typeof ts => (typescript ??= (createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph')).ts);

/** A tsconfig.json that sets `paths` or may inherit them: only such a file is read with TypeScript. */
const MAY_MAP = /"(?:paths|extends)"\s*:/;

interface PathsConfig {
  options: ts.CompilerOptions;
  /** Where `paths` patterns are relative to: `baseUrl`, else the directory of the tsconfig.json that sets them. */
  base: string;
  paths: ts.MapLike<string[]>;
  /**
   * What a specifier resolved to from a directory: the pre-filter, the grouping and the analysis ask again for every
   * import of every file, and a `*` pattern matches every package name.
   */
  resolved: Map<string, string | undefined>;
}

const byDirectory = new Map<string, PathsConfig | undefined>();

/** The options of the tsconfig.json nearest `file`, when it maps specifiers through `paths`. */
function pathsConfigOf(file: string): PathsConfig | undefined {
  const dir = path.dirname(file);
  if (byDirectory.has(dir)) return byDirectory.get(dir);
  let found: PathsConfig | undefined;
  const config = path.join(dir, 'tsconfig.json');
  const text = readIfFile(config);
  if (text !== undefined) found = MAY_MAP.test(text) ? pathsConfigIn(config) : undefined;
  else if (path.dirname(dir) !== dir) found = pathsConfigOf(dir);
  byDirectory.set(dir, found);
  return found;
}

/** The options of a tsconfig.json (its `extends` followed), when they map specifiers through `paths`. */
function pathsConfigIn(config: string): PathsConfig | undefined {
  const ts = tsLib();
  const dir = path.dirname(config);
  const read = ts.readConfigFile(config, ts.sys.readFile);
  const options = read.error ? undefined : ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, config).options;
  if (!options?.paths) return undefined;
  const base = options.baseUrl ?? (options as { pathsBasePath?: string }).pathsBasePath ?? dir;
  return { options, base, paths: options.paths, resolved: new Map() };
}

/** The file a bare specifier written in `fromFile` resolves to through its tsconfig.json's `paths`, if it does. */
export function resolveThroughPaths(fromFile: string, specifier: string): string | undefined {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) return undefined;
  const config = pathsConfigOf(fromFile);
  if (!config || !Object.keys(config.paths).some(pattern => matchPattern(pattern, specifier) !== undefined)) return undefined;
  // TypeScript resolves from the importing file's directory: files of one directory resolve alike.
  const key = `${path.dirname(fromFile)}\0${specifier}`;
  if (config.resolved.has(key)) return config.resolved.get(key);
  const ts = tsLib();
  const resolved = ts.resolveModuleName(specifier, fromFile, config.options, ts.sys).resolvedModule;
  const file = resolved && !resolved.isExternalLibraryImport ? path.resolve(resolved.resolvedFileName) : undefined;
  config.resolved.set(key, file);
  return file;
}

/**
 * The file a subpath import written in `fromFile` (`#server`, mapped by its package.json's `imports`) resolves to,
 * as TypeScript resolves it for a bundler or Node 16+: the project's compiler and Node map it, not `paths`.
 */
export function resolveSubpathImport(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('#')) return undefined;
  const ts = tsLib();
  const options = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowJs: true };
  const resolved = ts.resolveModuleName(specifier, fromFile, options, ts.sys).resolvedModule;
  return resolved && !resolved.isExternalLibraryImport ? path.resolve(resolved.resolvedFileName) : undefined;
}

/**
 * How `fromFile` can import `target` through its tsconfig.json's `paths` (the first pattern that
 * maps to it), with the runtime extension `like` has (`@shared/ask.js` → `.js`), if it can.
 */
export function specifierThroughPaths(fromFile: string, target: string, like: string): string | undefined {
  const config = pathsConfigOf(fromFile);
  if (!config) return undefined;
  const extension = /\.[cm]?js$/.exec(like)?.[0] ?? '';
  const stem = target.replace(/\.[cm]?[jt]sx?$/, '');
  for (const [pattern, substitutions] of Object.entries(config.paths)) {
    for (const substitution of substitutions) {
      const mapped = path.resolve(config.base, substitution).replace(/\.[cm]?[jt]sx?$/, '');
      const star = mapped.indexOf('*');
      const middle =
        star < 0
          ? mapped === stem
            ? ''
            : undefined
          : stem.startsWith(mapped.slice(0, star)) && stem.endsWith(mapped.slice(star + 1))
            ? stem.slice(star, stem.length - (mapped.length - star - 1))
            : undefined;
      if (middle === undefined) continue;
      const specifier = pattern.replace('*', middle.split(path.sep).join('/')) + extension;
      if (resolveThroughPaths(fromFile, specifier) === target) return specifier;
    }
  }
  return undefined;
}

/** What a `paths` pattern's `*` matches in a specifier, or undefined when it does not match. */
function matchPattern(pattern: string, specifier: string): string | undefined {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === specifier ? '' : undefined;
  const [prefix, suffix] = [pattern.slice(0, star), pattern.slice(star + 1)];
  return specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= prefix.length + suffix.length
    ? specifier.slice(prefix.length, specifier.length - suffix.length)
    : undefined;
}

function readIfFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The directory of the package.json nearest a file: the package it belongs to. */
export function packageDirOf(file: string): string | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
