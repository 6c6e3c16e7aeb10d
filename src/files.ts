/**
 * Discovery: which files under the given paths are candidate sources.
 *
 * Rules, in order:
 * - only regular files with a source extension (`.ts .tsx .mts .cts .js .jsx .mjs .cjs`), never declaration files;
 * - directories named node_modules, dist, build, out, coverage or .git are not entered;
 * - anything ignored by a `.gitignore` (the ones above a root up to the git top, and every nested one),
 *   or by `.git/info/exclude`, is left out; an ignored directory is not entered (as in git);
 * - `--include` / `--exclude` patterns (gitignore syntax, `{a,b}` braces allowed) are matched against the
 *   path relative to the cwd and relative to the given root;
 * - symbolic links are never followed out of the given roots.
 *
 * A path named explicitly on the command line is not subject to the built-in directory list, but still to
 * `.gitignore` (reported, so the user sees why) and to the globs.
 * Output is sorted by code point, independent of locale and directory order.
 */
import { promises as fs, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { byCodePoint } from './values.js';

export const SOURCE_EXTENSIONS: readonly string[] = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
export const SKIPPED_DIRECTORIES: readonly string[] = ['node_modules', 'dist', 'build', 'out', 'coverage', '.git'];

export interface DiscoverOptions {
  /** Directory globs are relative to, and paths in reasons are shown relative to. */
  cwd: string;
  /** Only files matching one of these (gitignore syntax) are kept. Empty or absent: all. */
  include?: readonly string[];
  /** Files matching one of these are dropped silently. */
  exclude?: readonly string[];
}

export interface SkippedPath {
  /** Absolute path. */
  path: string;
  reason: string;
}

export interface Discovery {
  /** Absolute, real paths of candidate sources, sorted, without duplicates. */
  files: string[];
  /** The given paths, resolved to real absolute paths. */
  roots: string[];
  /** Paths a user would want to hear about: links out of the roots, broken links, ignored explicit paths. */
  skipped: SkippedPath[];
}

/** A path given on the command line does not exist or cannot be examined. */
export class DiscoveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscoveryError';
  }
}

/** `.d.ts`, `.d.mts`, `.d.cts`. */
export function isDeclarationFile(file: string): boolean {
  return /\.d\.(ts|mts|cts)$/i.test(file);
}

/** Has a source extension and is not a declaration file. */
export function isSourceFile(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  return SOURCE_EXTENSIONS.includes(ext) && !isDeclarationFile(file);
}

/** Expand `{a,b}` alternatives (nested allowed); patterns without braces come back unchanged. */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      const body = pattern.slice(open + 1, i);
      const parts: string[] = [];
      let d = 0;
      let start = 0;
      for (let j = 0; j < body.length; j++) {
        if (body[j] === '{') d++;
        else if (body[j] === '}') d--;
        else if (body[j] === ',' && d === 0) {
          parts.push(body.slice(start, j));
          start = j + 1;
        }
      }
      parts.push(body.slice(start));
      if (parts.length < 2) return [pattern];
      const prefix = pattern.slice(0, open);
      const rest = expandBraces(pattern.slice(i + 1));
      return parts.flatMap(p => expandBraces(prefix + p)).flatMap(head => rest.map(tail => head + tail));
    }
  }
  return [pattern];
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** One ignore file, rooted at its directory. */
interface IgnoreLevel {
  dir: string;
  ig: Ignore;
}

/** The ignore levels that apply at a directory: outermost first. */
type IgnoreChain = readonly IgnoreLevel[];

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ignore levels that apply inside `dir` from above it: `.git/info/exclude` (lowest precedence), then every
 * `.gitignore` strictly above `dir`, outermost first, up to the git top (or the filesystem root outside git).
 */
async function ancestorChain(dir: string, cache: Map<string, IgnoreChain>): Promise<IgnoreChain> {
  const cached = cache.get(dir);
  if (cached) return cached;
  const ancestors: string[] = [];
  let gitTop: string | undefined;
  for (let d = dir; ;) {
    if (await exists(path.join(d, '.git'))) {
      gitTop = d;
      break;
    }
    const parent = path.dirname(d);
    if (parent === d) break;
    ancestors.push(parent);
    d = parent;
  }
  const levels: IgnoreLevel[] = [];
  if (gitTop !== undefined) {
    const exclude = await readIfExists(path.join(gitTop, '.git', 'info', 'exclude'));
    if (exclude) levels.push({ dir: gitTop, ig: ignore().add(exclude) });
  }
  for (const d of ancestors.reverse()) {
    const text = await readIfExists(path.join(d, '.gitignore'));
    if (text) levels.push({ dir: d, ig: ignore().add(text) });
  }
  cache.set(dir, levels);
  return levels;
}

/** The chain for entries of `dir`: what applies from above plus `dir`'s own `.gitignore`. */
async function withOwn(dir: string, chain: IgnoreChain): Promise<IgnoreChain> {
  const own = await readIfExists(path.join(dir, '.gitignore'));
  return own ? [...chain, { dir, ig: ignore().add(own) }] : chain;
}

/** Whether `target` (absolute) is ignored by the chain; `isDir` adds the trailing slash git matches directories with. */
function isIgnored(chain: IgnoreChain, target: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { dir, ig } of chain) {
    const rel = toPosix(path.relative(dir, target));
    if (rel === '' || rel.startsWith('..')) continue;
    const r = ig.test(isDir ? `${rel}/` : rel);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

function globMatcher(patterns: readonly string[] | undefined): Ignore | undefined {
  const list = (patterns ?? []).flatMap(p => expandBraces(p.trim())).filter(p => p !== '');
  return list.length ? ignore().add(list.map(p => p.replace(/^\.\//, ''))) : undefined;
}

function globMatches(matcher: Ignore, file: string, root: string, cwd: string): boolean {
  for (const base of [cwd, root]) {
    const rel = toPosix(path.relative(base, file));
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (matcher.ignores(rel)) return true;
  }
  return false;
}

/**
 * List candidate sources under `paths` (files or directories, relative to `options.cwd` or absolute).
 * Throws DiscoveryError for a path that does not exist.
 */
export async function discoverSources(paths: readonly string[], options: DiscoverOptions): Promise<Discovery> {
  const cwd = path.resolve(options.cwd);
  const chainCache = new Map<string, IgnoreChain>();
  const roots = await resolvedRoots(paths, cwd);
  const rootDirs = roots.map(r => (r.isDir ? r.real : path.dirname(r.real)));
  const found = new SourceWalk(roots, globMatcher(options.include), globMatcher(options.exclude), cwd);
  for (let i = 0; i < roots.length; i++) {
    const { given, real, isDir } = roots[i]!;
    const chain = isDir
      ? await ancestorChain(real, chainCache)
      : await withOwn(path.dirname(real), await ancestorChain(path.dirname(real), chainCache));
    if (isIgnored(chain, real, isDir)) {
      found.skipped.set(given, 'ignored by .gitignore');
      continue;
    }
    if (isDir) {
      await found.walk(real, chain, rootDirs[i]!);
    } else if (!isSourceFile(real)) {
      found.skipped.set(given, isDeclarationFile(real) ? 'declaration file' : 'not a JavaScript or TypeScript source file');
    } else {
      found.keep(real, rootDirs[i]!);
    }
  }

  for (const f of found.files) found.skipped.delete(f);
  return {
    files: [...found.files].sort(byCodePoint),
    roots: roots.map(r => r.real),
    skipped: [...found.skipped].map(([p, reason]) => ({ path: p, reason })).sort((a, b) => byCodePoint(a.path, b.path)),
  };
}

interface Root {
  /** As given, made absolute. */
  given: string;
  real: string;
  isDir: boolean;
}

/** Every root at its real path, first: "out of the roots" is judged against all of them. */
async function resolvedRoots(paths: readonly string[], cwd: string): Promise<Root[]> {
  const roots: Root[] = [];
  for (const p of paths.length ? paths : ['.']) {
    const abs = path.resolve(cwd, p);
    let real: string;
    let stat;
    try {
      real = await fs.realpath(abs);
      stat = await fs.stat(real);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new DiscoveryError(code === 'ENOENT' ? `${p}: no such file or directory` : `${p}: cannot be read (${code ?? String(err)})`);
    }
    roots.push({ given: abs, real, isDir: stat.isDirectory() });
  }
  return roots;
}

/** The walk of the roots' directories: the sources it keeps, and what it skips with why. */
class SourceWalk {
  readonly files = new Set<string>();
  readonly skipped = new Map<string, string>();

  constructor(
    private readonly roots: readonly Root[],
    private readonly include: ReturnType<typeof globMatcher>,
    private readonly exclude: ReturnType<typeof globMatcher>,
    private readonly cwd: string,
  ) {}

  keep(file: string, root: string): void {
    if (this.include && !globMatches(this.include, file, root, this.cwd)) return;
    if (this.exclude && globMatches(this.exclude, file, root, this.cwd)) return;
    this.files.add(file);
  }

  async walk(dir: string, chain: IgnoreChain, root: string): Promise<void> {
    let entries: Dirent[];
    try {
      // Synchronous: a tree of small directories costs several times more through the thread pool.
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      this.skipped.set(dir, `directory cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      return;
    }
    // Only a directory that lists a .gitignore costs a read (a failed open per directory adds up at 10k files).
    const here = entries.some(e => e.name === '.gitignore') ? await withOwn(dir, chain) : chain;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_DIRECTORIES.includes(entry.name)) continue;
        if (isIgnored(here, full, true)) continue;
        await this.walk(full, here, root);
      } else if (entry.isFile()) {
        if (!isSourceFile(entry.name) || isIgnored(here, full, false)) continue;
        this.keep(full, root);
      } else if (entry.isSymbolicLink()) {
        await this.visitLink(full, here, root);
      }
      // FIFOs, sockets, devices: never sources, never read.
    }
  }

  private insideRoots(p: string): boolean {
    return this.roots.some(r => (r.isDir ? isInside(p, r.real) : p === r.real));
  }

  private async visitLink(link: string, chain: IgnoreChain, root: string): Promise<void> {
    let target: string;
    let isDir: boolean;
    let isFile: boolean;
    try {
      target = await fs.realpath(link);
      const st = await fs.stat(target);
      isDir = st.isDirectory();
      isFile = st.isFile();
    } catch {
      if (isSourceFile(link) && !isIgnored(chain, link, false)) this.skipped.set(link, 'broken symbolic link');
      return;
    }
    if (isIgnored(chain, link, isDir)) return;
    if (isDir) {
      if (!this.insideRoots(target)) this.skipped.set(link, `symbolic link to a directory outside the given paths (${target})`);
      // A link to a directory inside the roots: its files are found through their real path.
      return;
    }
    if (!isFile || !isSourceFile(link) || !isSourceFile(target)) return;
    if (!this.insideRoots(target)) {
      this.skipped.set(link, `symbolic link to a file outside the given paths (${target})`);
      return;
    }
    // Work on the real file, so a write replaces its content and not the link.
    this.keep(target, root);
  }
}

/** One CI job's part of the files: `index` of `count`, 1-based (`--shard 2/4`). */
export interface Shard {
  index: number;
  count: number;
}

/** Parse `i/n` (1 ≤ i ≤ n); undefined when malformed. */
export function parseShard(text: string): Shard | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index >= 1 && count >= 1 && index <= count && count <= 1_000_000 ? { index, count } : undefined;
}

/**
 * Which shard (1-based) a file belongs to: FNV-1a (32 bit) of its UTF-8 path relative to the cwd with
 * forward slashes, modulo `count`. Stable across machines, runs, directory order and the other files present,
 * so shards 1..n of a tree are disjoint and together are the whole tree.
 */
export function shardOf(relativePath: string, count: number): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(relativePath, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % count) + 1;
}

/** Keep the files and skipped paths of one shard; paths are judged relative to `cwd`. */
export function selectShard(discovery: Discovery, shard: Shard, cwd: string): Discovery {
  const mine = (abs: string) => shardOf(toPosix(path.relative(cwd, abs)) || '.', shard.count) === shard.index;
  return { ...discovery, files: discovery.files.filter(mine), skipped: discovery.skipped.filter(s => mine(s.path)) };
}
