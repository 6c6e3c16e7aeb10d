/**
 * The cheap text pre-filter, in a module with no runtime dependencies so that a run over files with
 * nothing to migrate never loads the parser, the type checker or the official codemod.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Names whose presence makes a file worth analysing for server-initiated requests. */
export const TRIGGER_PATTERN = /\b(createMessage|elicitInput|listRoots|sendRequest|requestSampling|UrlElicitationRequiredError|mcpReq)\b/;

/** Files that import the SDK: where servers are built and connected, and what the v1-to-v2 upgrade touches. */
export const MCP_TEXT = /@modelcontextprotocol\//;

export function isCandidate(text: string): boolean {
  return MCP_TEXT.test(text) || TRIGGER_PATTERN.test(text);
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const BARE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^'"]*)?['"]/g;
const RESOLVED_EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js'];

/**
 * The files worth type-checked analysis: those that mention the SDK, and those whose trigger names
 * sit beside an import of such a file (a helper handed a server), by a relative path or by the name of
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
  return files.filter(f => mcp.has(f.path) || (TRIGGER_PATTERN.test(f.text) && (relativeImportsAmong(f, mcp).length > 0 || importsMcpPackage(f))));
}

/** The package names `file` imports, re-exports or requires (`@scope/name` or `name`, without a subpath). */
export function bareImports(file: { text: string }): string[] {
  return [...file.text.matchAll(BARE_IMPORT)].map(m => m[1]!);
}

/** The files of `known` that `file` imports, re-exports or requires by a relative path. */
export function relativeImportsAmong(file: { path: string; text: string }, known: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const m of file.text.matchAll(RELATIVE_IMPORT)) {
    const base = path.resolve(path.dirname(file.path), m[1]!.replace(/\.[cm]?js$/, ''));
    const hit = RESOLVED_EXTENSIONS.map(ext => base + ext).find(p => known.has(p));
    if (hit) found.push(hit);
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
