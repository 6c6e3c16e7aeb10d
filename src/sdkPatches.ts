/**
 * patch-package patches of the SDK 1.x package (`patches/@modelcontextprotocol+sdk+1.17.0.patch`): once the
 * server runs on the 2.x packages, the code they changed is no longer the code that runs, so their change
 * is gone without a word (and once `@modelcontextprotocol/sdk` leaves package.json, patch-package reports a
 * patch for a package that is not installed). Each is reported with what it changed; `--check` fails while
 * one is left.
 *
 * Looked for where patch-package keeps them: `patches/` (or the directory a `patch-package --patch-dir <dir>`
 * script names) in each directory from the given paths up to the one the install runs from (its lockfile, or
 * the repository's top), and beside each package.json the run edits.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface SdkPatch {
  /** Absolute path of the .patch file. */
  file: string;
  /** The SDK version it was made against, from its name (`1.17.0`). */
  version?: string;
  /** The SDK's files it changes, relative to the package (`dist/esm/server/index.js`). */
  touches: string[];
}

/** `@modelcontextprotocol+sdk+1.17.0.patch`, `...+1.17.0+001+fix.patch`, `...+1.17.0.dev.patch`. */
const SDK_PATCH = /^@modelcontextprotocol\+sdk\+([^+]+?)(?:\+\d+\+[^/]*)?(?:\.dev)?\.patch$/;
const TOUCHED = /^diff --git a\/(?:.*?\/)?node_modules\/@modelcontextprotocol\/sdk\/(\S+) b\//gm;
/** Where an install runs from (and patch-package with it): the first of these up from a package ends the search. */
const INSTALL_ROOT_MARKS = ['.git', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb'];
/** How far up to look when nothing marks where the install runs from. */
const MAX_LEVELS = 12;

/** The SDK patches for a run over `roots` (absolute) that edits `manifests` (absolute package.json paths). */
export function findSdkPatches(roots: readonly string[], manifests: readonly string[] = []): SdkPatch[] {
  const dirs = new Set<string>();
  for (const root of roots) for (const dir of upToInstallRoot(startDir(root))) dirs.add(dir);
  for (const manifest of manifests) dirs.add(path.dirname(manifest));
  const found = new Map<string, SdkPatch>();
  for (const dir of dirs) {
    for (const patchDir of patchDirsOf(dir)) {
      for (const name of listDir(patchDir)) {
        const match = SDK_PATCH.exec(name);
        const file = path.join(patchDir, name);
        if (match && !found.has(file)) found.set(file, { file, version: match[1], touches: touchedFiles(file) });
      }
    }
  }
  return [...found.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** An import (or require) of a 2.x package: the code runs on SDK 2.x. */
const V2_IMPORT = /['"]@modelcontextprotocol\/(server|node|express|hono|fastify|core|client)(\/[^'"]*)?['"]/;

/** Whether any of the texts a run leaves imports a 2.x package: where the SDK 1.x patches stop applying. */
export function runsOnV2Packages(texts: Iterable<string>): boolean {
  for (const text of texts) if (V2_IMPORT.test(text)) return true;
  return false;
}

/** The report's note for a patch; `rel` gives a path relative to the run's directory. */
export function sdkPatchNote(patch: SdkPatch, rel: (abs: string) => string): string {
  const shown = patch.touches.slice(0, 4).join(', ') + (patch.touches.length > 4 ? ` and ${patch.touches.length - 4} more` : '');
  const what =
    patch.touches.length > 0
      ? `changes ${shown} of @modelcontextprotocol/sdk${patch.version ? ` ${patch.version}` : ''}`
      : `is a patch of @modelcontextprotocol/sdk${patch.version ? ` ${patch.version}` : ''}`;
  return `${rel(patch.file)} (patch-package) ${what}; the migrated server runs on the 2.x packages (@modelcontextprotocol/server and the rest), which it does not patch, so its change no longer takes effect: make the same change to the 2.x package that now does that work (patch-package @modelcontextprotocol/server once installed) or drop it, then delete this patch`;
}

function startDir(root: string): string {
  try {
    return fs.statSync(root).isDirectory() ? root : path.dirname(root);
  } catch {
    return path.dirname(root);
  }
}

/** `dir` and the directories above it, up to the first an install runs from (a lockfile, a repository's top). */
function upToInstallRoot(dir: string): string[] {
  const dirs: string[] = [];
  for (let at = path.resolve(dir), level = 0; level < MAX_LEVELS; level++) {
    dirs.push(at);
    if (INSTALL_ROOT_MARKS.some(mark => fs.existsSync(path.join(at, mark))) || path.dirname(at) === at) break;
    at = path.dirname(at);
  }
  return dirs;
}

/** `patches/` in a package directory, and the directory its scripts give `patch-package --patch-dir`. */
function patchDirsOf(dir: string): string[] {
  const dirs = [path.join(dir, 'patches')];
  let scripts: unknown;
  try {
    scripts = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: unknown }).scripts;
  } catch {
    return dirs;
  }
  if (typeof scripts !== 'object' || scripts === null) return dirs;
  for (const script of Object.values(scripts)) {
    const custom = typeof script === 'string' ? /patch-package\b[^&|;]*--patch-dir[ =](\S+)/.exec(script)?.[1] : undefined;
    if (custom) dirs.push(path.resolve(dir, custom.replace(/^['"]|['"]$/g, '')));
  }
  return dirs;
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** The SDK files a patch changes, from its `diff --git` headers. */
function touchedFiles(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return [...new Set([...text.matchAll(TOUCHED)].map(m => m[1]!))];
}
