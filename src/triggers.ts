/**
 * The cheap text pre-filter, in a module with no runtime dependencies so that a run over files with
 * nothing to migrate never loads the parser, the type checker or the official codemod.
 */
import path from 'node:path';

/** Names whose presence makes a file worth analysing for server-initiated requests. */
export const TRIGGER_PATTERN = /\b(createMessage|elicitInput|listRoots|sendRequest|requestSampling|UrlElicitationRequiredError|mcpReq)\b/;

/** Files that import the SDK: where servers are built and connected, and what the v1-to-v2 upgrade touches. */
export const MCP_TEXT = /@modelcontextprotocol\//;

export function isCandidate(text: string): boolean {
  return MCP_TEXT.test(text) || TRIGGER_PATTERN.test(text);
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const RESOLVED_EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js'];

/**
 * The files worth type-checked analysis: those that mention the SDK, and those whose trigger names
 * sit beside a relative import of such a file (a helper handed a server). A `createMessage` on a
 * chat client in a file that neither mentions nor imports anything of the SDK's is not parsed.
 */
export function worthAnalysing<F extends { path: string; text: string }>(files: F[]): F[] {
  const mcp = new Set(files.filter(f => MCP_TEXT.test(f.text)).map(f => f.path));
  return files.filter(f => {
    if (mcp.has(f.path)) return true;
    if (!TRIGGER_PATTERN.test(f.text)) return false;
    for (const m of f.text.matchAll(RELATIVE_IMPORT)) {
      const base = path.resolve(path.dirname(f.path), m[1]!.replace(/\.[cm]?js$/, ''));
      if (RESOLVED_EXTENSIONS.some(ext => mcp.has(base + ext))) return true;
    }
    return false;
  });
}
