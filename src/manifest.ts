/**
 * package.json edits for a run: the package that owns each changed file (nearest package.json walking up,
 * within the run's cwd) gets the SDK 2.x packages its files import after the run, and loses
 * `@modelcontextprotocol/sdk` once they import 2.x packages and none imports it any more, unless a package it
 * depends on declares the SDK as a peer (a framework built on it). Lockfiles are never touched; the
 * edit is textual, so indentation, key order, line endings and the final newline stay as they were. The
 * result is a plain {@link FileChange}, so it joins the dry-run diff like any other change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { SKIPPED_DIRECTORIES, SOURCE_EXTENSIONS, isDeclarationFile } from './files.js';
import { shownPath, type FileChange } from './report.js';
import { owningManifest } from './owningManifest.js';
import { isStateModuleFile } from './stateModule.js';
import { MCP_TEXT } from './triggers.js';
import { importTypes, importTypeSpecifier } from './typeImports.js';
import { isRecord } from './values.js';

export { owningManifest };

export const V1_PACKAGE = '@modelcontextprotocol/sdk';

/**
 * Caret ranges written for the 2.x packages: server, client, core and node at the versions this tool is
 * tested against; the framework adapters and the legacy package (which the official codemod's output
 * imports) at their current releases.
 */
export const V2_PACKAGE_VERSIONS: Readonly<Record<string, string>> = {
  '@modelcontextprotocol/server': '^2.4.0',
  '@modelcontextprotocol/client': '^2.4.0',
  '@modelcontextprotocol/core': '^2.4.0',
  '@modelcontextprotocol/node': '^2.1.2',
  '@modelcontextprotocol/express': '^2.0.2',
  '@modelcontextprotocol/hono': '^2.0.2',
  '@modelcontextprotocol/fastify': '^2.0.1',
  '@modelcontextprotocol/server-legacy': '^2.3.1',
};

const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** Where a text may name a package with an `import('…')` type. */
const MCP_TYPE_IMPORT = /import\(\s*['"]@modelcontextprotocol\//;

export interface ManifestInput {
  /** Root of the run: package.json files above it are never edited. */
  cwd: string;
  /** Every source of the run with its text after the run (unchanged files too). */
  files: { path: string; text: string }[];
  /** Paths of the sources the run changed or created. */
  changed: string[];
  /** Reads a file; `null` when it does not exist. Defaults to the file system. */
  readFile?: (file: string) => string | null;
  /** Source files of a package directory that are not among `files` (their imports count too). Defaults to a walk of the directory. */
  listSources?: (packageDir: string) => string[];
  /** Sources known not to mention `@modelcontextprotocol/` (the run's pre-filter read them): not read again. */
  withoutMcpText?: ReadonlySet<string>;
  /**
   * Sources the run upgraded that import nothing of the SDK but register handlers on an SDK server of another
   * package (src/pipeline.ts `registrantsStage`): their package hands SDK 2.x its zod schemas, so needs zod 4.
   */
  registrants?: ReadonlySet<string>;
}

export interface ManifestResult {
  changes: FileChange[];
  notes: string[];
  /** The package.json files whose zod stays on 3.x while the run moves the package to @modelcontextprotocol/server 2.x, which needs zod 4. */
  zodToRaise: string[];
  /** Changed files no package.json under the run's root owns: no manifest says what they import. */
  unowned: string[];
}

/**
 * The `@modelcontextprotocol/*` packages a source imports (static, dynamic, `require`, re-exports,
 * `import('…')` types), and those its JSDoc names with `import('…')` types: checked JavaScript resolves
 * them like imports, so a package they name must stay. Other comments are ignored.
 */
export function importedMcpPackages(text: string): Set<string> {
  const found = new Set<string>();
  if (!MCP_TEXT.test(text)) return found;
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map(ref => ref.fileName);
  // Parsing is dearer than the pre-processor's scan: only for a text that may hold such a type.
  if (MCP_TYPE_IMPORT.test(text)) {
    const sf = ts.createSourceFile('source.ts', text, ts.ScriptTarget.Latest, false);
    specifiers.push(...importTypes(sf).flatMap(node => importTypeSpecifier(node)?.text ?? []));
  }
  for (const specifier of specifiers) {
    const m = /^(@modelcontextprotocol\/[^/]+)/.exec(specifier);
    if (m) found.add(m[1]!);
  }
  return found;
}

export function planManifestChanges(input: ManifestInput): ManifestResult {
  const readFile = input.readFile ?? readIfExists;
  const listSources = input.listSources ?? walkSources;
  const cache = new Map<string, string | null>();
  const read = (p: string) => {
    if (!cache.has(p)) cache.set(p, readFile(p));
    return cache.get(p)!;
  };
  const exists = (p: string) => read(p) !== null;
  const texts = new Map(input.files.map(f => [path.resolve(f.path), f.text]));
  // Files of one directory share their package: asked once per directory, not once per file and package.
  const ownerOfDir = new Map<string, string | undefined>();
  const ownerOf = (file: string) => {
    const dir = path.dirname(path.resolve(file));
    if (!ownerOfDir.has(dir)) ownerOfDir.set(dir, owningManifest(file, input.cwd, exists));
    return ownerOfDir.get(dir);
  };

  // Which packages own a changed file.
  const manifests = new Set<string>();
  const unowned: string[] = [];
  for (const file of [...input.changed, ...(input.registrants ?? [])]) {
    const m = ownerOf(file);
    if (m) manifests.add(m);
    else unowned.push(file);
  }
  const textsByManifest = new Map<string | undefined, string[]>();
  for (const [p, text] of texts) {
    const owner = ownerOf(p);
    const list = textsByManifest.get(owner);
    if (list) list.push(text);
    else textsByManifest.set(owner, [text]);
  }

  const packages: Packages = { input, read, readFile, listSources, texts, textsByManifest, ownerOf };
  const changes: FileChange[] = [];
  const notes: string[] = [];
  const zodToRaise: string[] = [];
  const zodFromAbove: string[] = [];
  for (const manifest of [...manifests].sort()) {
    const planned = manifestChange(manifest, packages);
    notes.push(...planned.notes);
    if (planned.zodRaised) zodToRaise.push(manifest);
    if (planned.zodFromAbove) zodFromAbove.push(manifest);
    if (planned.change) changes.push(planned.change);
  }
  for (const raised of hoistedZodRaises(zodFromAbove, packages)) {
    // A root that moves to SDK 2.x itself had its zod raised (and said so) as its own.
    const own = zodToRaise.includes(raised.manifest);
    zodToRaise.push(...(own ? [] : [raised.manifest]), ...raised.users);
    if (own) continue;
    notes.push(raised.note);
    if (!raised.raise) continue;
    const change = changes.find(c => c.path === raised.manifest);
    if (change) change.after = withZod4(change.after, raised.section);
    else {
      const before = read(raised.manifest)!;
      changes.push({ path: raised.manifest, before, after: withZod4(before, raised.section) });
      notes.push(`${rel(input.cwd, raised.manifest)}: run your package manager's install to update the lockfile`);
    }
  }
  return { changes, notes, zodToRaise, unowned };
}

/** A source that imports zod (`zod`, `zod/v4`...), statically, dynamically or with require. */
const IMPORTS_ZOD = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]zod(?:\/[^'"]*)?['"]/;

/**
 * Packages moving to SDK 2.x whose code imports zod without declaring it: they use the one an enclosing package
 * declares (a workspace's root, which npm hoists), and SDK 2.x refuses the zod 3 schemas it makes. That
 * package.json's zod is raised as a package's own is (or the note says which peer holds it), once for all of them.
 */
function hoistedZodRaises(
  users: string[],
  { input, read, textsByManifest }: Packages,
): { manifest: string; users: string[]; note: string; section: string; raise: boolean }[] {
  const byDeclarer = new Map<string, string[]>();
  for (const manifest of users) {
    if (!(textsByManifest.get(manifest) ?? []).some(text => IMPORTS_ZOD.test(text))) continue;
    const declarer = enclosingZodDeclarer(manifest, input.cwd, read);
    if (declarer) byDeclarer.set(declarer, [...(byDeclarer.get(declarer) ?? []), manifest]);
  }
  return [...byDeclarer].flatMap(([manifest, using]) => {
    const json = parsedObject(read(manifest));
    const zod = json && zodRaise(json, true, path.dirname(manifest), read);
    if (!zod) return [];
    const whose = `${using.map(m => rel(input.cwd, m)).join(', ')} ${using.length > 1 ? 'declare' : 'declares'} no zod and ${using.length > 1 ? 'use' : 'uses'} this one`;
    return [{ manifest, users: using, note: `${rel(input.cwd, manifest)}: ${zod.note}; ${whose}`, section: zod.section, raise: zod.raise }];
  });
}

/** The nearest package.json above a package's, within the run's root, that declares zod. */
function enclosingZodDeclarer(manifest: string, cwd: string, read: (file: string) => string | null): string | undefined {
  const root = path.resolve(cwd);
  for (let dir = path.dirname(path.dirname(manifest)); dir === root || dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    const json = parsedObject(read(path.join(dir, 'package.json')));
    if (json && DEPENDENCY_SECTIONS.some(s => isRecord(json[s]) && 'zod' in (json[s] as Record<string, unknown>)))
      return path.join(dir, 'package.json');
    if (dir === root) break;
  }
  return undefined;
}

function parsedObject(text: string | null): Record<string, unknown> | undefined {
  if (text === null) return undefined;
  try {
    const json = JSON.parse(text) as unknown;
    return isRecord(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** How the sources of the run are read, and which package.json owns each: what planning one package's change reads. */
interface Packages {
  input: ManifestInput;
  /** A file's text, read once. */
  read: (file: string) => string | null;
  readFile: (file: string) => string | null;
  listSources: (packageDir: string) => string[];
  /** The run's files after it, by absolute path. */
  texts: Map<string, string>;
  textsByManifest: Map<string | undefined, string[]>;
  ownerOf: (file: string) => string | undefined;
}

/** The MCP packages every source of a package (not of a nested one) imports after the run. */
function importedByPackage(manifest: string, { input, readFile, listSources, texts, textsByManifest, ownerOf }: Packages): Set<string> {
  const imported = new Set<string>();
  for (const text of textsByManifest.get(manifest) ?? []) for (const pkg of importedMcpPackages(text)) imported.add(pkg);
  for (const p of listSources(path.dirname(manifest))) {
    const abs = path.resolve(p);
    if (texts.has(abs) || input.withoutMcpText?.has(abs) || ownerOf(abs) !== manifest) continue;
    const text = readFile(abs);
    if (text !== null) for (const pkg of importedMcpPackages(text)) imported.add(pkg);
  }
  return imported;
}

interface PlannedManifest {
  change?: FileChange;
  notes: string[];
  zodRaised: boolean;
  /** The package moves to SDK 2.x and declares no zod: what its code imports is an enclosing package's. */
  zodFromAbove: boolean;
}

/** One package.json's change (none when nothing is to change), the notes about it, and whether its zod is raised. */
function manifestChange(manifest: string, packages: Packages): PlannedManifest {
  const planned: PlannedManifest = { notes: [], zodRaised: false, zodFromAbove: false };
  const { input, read, ownerOf } = packages;
  const before = read(manifest)!;
  const dir = path.dirname(manifest);
  const imported = importedByPackage(manifest, packages);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(before) as Record<string, unknown>;
  } catch (error) {
    planned.notes.push(
      `${rel(input.cwd, manifest)} could not be parsed (${(error as Error).message}); add the @modelcontextprotocol 2.x packages yourself`,
    );
    return planned;
  }
  const sectionsOf = (name: string) => DEPENDENCY_SECTIONS.filter(s => isRecord(json[s]) && name in (json[s] as Record<string, unknown>));
  // The 2.x packages go where the SDK was declared (a library's peer and dev dependencies both), else to dependencies.
  const v1Sections = sectionsOf(V1_PACKAGE);
  const targets = v1Sections.length > 0 ? v1Sections : (['dependencies'] as const);
  const wanted = [...imported].filter(name => name !== V1_PACKAGE).sort();
  const unknown = wanted.filter(name => !(name in V2_PACKAGE_VERSIONS) && sectionsOf(name).length === 0);
  const added = targets.map(section => ({
    section,
    names: wanted.filter(n => n in V2_PACKAGE_VERSIONS && !sectionsOf(n).includes(section)),
  }));
  // The SDK goes once the package's code has moved to 2.x packages, and only while nothing it installs needs it.
  const needing = wanted.length > 0 && !imported.has(V1_PACKAGE) ? dependentsOnSdk(dir, json, read) : [];
  const removed = wanted.length === 0 || imported.has(V1_PACKAGE) || needing.length > 0 ? [] : v1Sections;
  if (v1Sections.length > 0 && needing.length > 0) {
    planned.notes.push(
      `${rel(input.cwd, manifest)}: ${V1_PACKAGE} stays: ${needing.join(', ')} ${needing.length > 1 ? 'declare' : 'declares'} it as a peer dependency`,
    );
  }

  let after = before;
  for (const { section, names } of added)
    if (names.length > 0) after = editSection(after, section, { add: Object.fromEntries(names.map(n => [n, V2_PACKAGE_VERSIONS[n]!])) });
  for (const section of removed) after = editSection(after, section, { remove: [V1_PACKAGE] });
  if (unknown.length > 0)
    planned.notes.push(
      `${rel(input.cwd, manifest)}: the code imports ${unknown.join(', ')}, which mcp-migrate has no version for: add ${unknown.length > 1 ? 'them' : 'it'} to package.json`,
    );
  const registers = [...(input.registrants ?? [])].some(file => ownerOf(file) === manifest);
  const movesToServer =
    wanted.includes('@modelcontextprotocol/server') || sectionsOf('@modelcontextprotocol/server').length > 0 || registers;
  planned.zodFromAbove = movesToServer && sectionsOf('zod').length === 0;
  const zod = zodRaise(json, movesToServer, dir, read);
  if (zod) {
    planned.zodRaised = true;
    if (zod.raise) after = withZod4(after, zod.section);
    planned.notes.push(`${rel(input.cwd, manifest)}: ${zod.note}`);
  }
  const typedStateModule = input.changed.some(f => ownerOf(f) === manifest && isTypeScriptStateModule(f));
  if (typedStateModule && sectionsOf('@types/node').length === 0) {
    planned.notes.push(
      `${rel(input.cwd, manifest)}: the requestState module uses Node's crypto, process and Buffer, and the package declares no @types/node: add it to devDependencies (npm i -D @types/node) for tsc`,
    );
  }
  if (after === before) return planned;
  planned.change = { path: manifest, before, after };

  // (a change of zod alone has its own note above)
  const summary = changeSummary(added, removed);
  planned.notes.push(
    `${rel(input.cwd, manifest)}: ${summary ? `${summary}; ` : ''}run your package manager's install to update the lockfile`,
  );
  return planned;
}

/** What a package.json change did, in one line per list of packages: `added X to devDependencies and peerDependencies`. */
function changeSummary(added: { section: string; names: string[] }[], removed: readonly string[]): string {
  const bySections = new Map<string, string[]>();
  for (const { section, names } of added) {
    const list = names.map(n => `${n}@${V2_PACKAGE_VERSIONS[n]}`).join(', ');
    if (names.length > 0) bySections.set(list, [...(bySections.get(list) ?? []), section]);
  }
  return [
    ...[...bySections].map(([list, sections]) => `added ${list} to ${sections.join(' and ')}`),
    ...(removed.length ? [`removed ${V1_PACKAGE} from ${removed.join(' and ')}`] : []),
  ].join('; ');
}

/** A requestState module the run wrote in TypeScript (tsc then checks its Node imports). */
function isTypeScriptStateModule(file: string): boolean {
  return isStateModuleFile(file) && /\.[cm]?ts$/.test(file) && !isDeclarationFile(path.basename(file));
}

/**
 * The package's dependencies that declare the SDK 1.x as a peer (a framework built on it, such as
 * mcp-framework), read from where Node would resolve them: node_modules of the package or above it.
 */
function dependentsOnSdk(dir: string, json: Record<string, unknown>, read: (file: string) => string | null): string[] {
  return peersOn(V1_PACKAGE, dir, json, read).map(p => p.name);
}

/** The installed dependencies of a package that declare `peer` as a peer dependency, with the range they declare. */
function peersOn(
  peer: string,
  dir: string,
  json: Record<string, unknown>,
  read: (file: string) => string | null,
): { name: string; range: string }[] {
  const names = new Set(
    DEPENDENCY_SECTIONS.flatMap(section => (isRecord(json[section]) ? Object.keys(json[section] as Record<string, unknown>) : [])),
  );
  names.delete(peer);
  const found: { name: string; range: string }[] = [];
  for (const name of [...names].sort()) {
    for (let at = dir; ; at = path.dirname(at)) {
      const text = read(path.join(at, 'node_modules', name, 'package.json'));
      if (text !== null) {
        try {
          const peers = (JSON.parse(text) as { peerDependencies?: unknown }).peerDependencies;
          if (isRecord(peers) && typeof peers[peer] === 'string') found.push({ name, range: peers[peer] as string });
        } catch {
          // an unreadable manifest declares nothing
        }
        break;
      }
      if (path.dirname(at) === at) break;
    }
  }
  return found;
}

function rel(cwd: string, p: string): string {
  return shownPath(cwd, p).split(path.sep).join('/');
}

/** What SDK 2.x needs of zod (the server package's own dependency range). */
const ZOD_4_RANGE = '^4.2.0';

/**
 * A package moving to SDK 2.x whose zod reaches only 3.x: SDK 2.x writes schemas with zod 4 and refuses a zod 3
 * one, so its tools would not list. zod is raised in package.json as the SDK is replaced (the upgrade has repaired
 * the zod 3 calls it knows and marked the others), unless a dependency declares zod 3 as its peer: then the note
 * names it and asks for the raise.
 */
function zodRaise(
  json: Record<string, unknown>,
  serverDeclared: boolean,
  dir: string,
  read: (file: string) => string | null,
): { section: string; raise: boolean; note: string } | undefined {
  const section = DEPENDENCY_SECTIONS.find(s => isRecord(json[s]) && 'zod' in (json[s] as Record<string, unknown>));
  const range = section ? (json[section] as Record<string, unknown>).zod : undefined;
  if (!section || !serverDeclared || typeof range !== 'string' || !reachesOnlyZod3(range)) return undefined;
  const holding = peersOn('zod', dir, json, read)
    .filter(p => reachesOnlyZod3(p.range))
    .map(p => p.name);
  if (holding.length > 0) {
    return {
      section,
      raise: false,
      note: `zod "${range}" stays on 3.x: ${holding.join(', ')} ${holding.length > 1 ? 'declare' : 'declares'} zod 3 as a peer dependency; but @modelcontextprotocol/server 2.x needs zod >= 4.2; raise it`,
    };
  }
  return {
    section,
    raise: true,
    note: `zod "${range}" raised to "${ZOD_4_RANGE}" in ${section}: @modelcontextprotocol/server 2.x needs zod >= 4.2 (the zod 3 calls zod 4 reads otherwise were repaired, or marked where they could not be)`,
  };
}

/** A package.json's text with its zod in `section` at the range SDK 2.x needs. */
function withZod4(text: string, section: string): string {
  return editSection(editSection(text, section, { remove: ['zod'] }), section, { add: { zod: ZOD_4_RANGE } });
}

function reachesOnlyZod3(range: string): boolean {
  return range.split('||').every(part => /^\s*[\^~=v]*\s*3(\.|\s*$|$)/.test(part) || /^\s*3\.x/.test(part));
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Source files under a package directory, skipping build output, node_modules and nested packages. */
function walkSources(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string, top: boolean) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    if (!top && entries.some(e => e.isFile() && e.name === 'package.json')) return;
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.includes(e.name) && !e.name.startsWith('.')) visit(p, false);
      } else if (e.isFile() && SOURCE_EXTENSIONS.includes(path.extname(e.name)) && !isDeclarationFile(e.name)) {
        out.push(p);
      }
    }
  };
  visit(dir, true);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Textual editing of one dependency object, keeping everything around it byte for byte.

interface Entry {
  key: string;
  /** The entry as written, from the key's opening quote to the end of its value. */
  raw: string;
}

interface Section {
  /** Offsets of `{` and `}` of the section's object. */
  open: number;
  close: number;
  entries: Entry[];
}

/** Adds and removes entries of a top-level dependency object (created at the end when missing). */
export function editSection(text: string, section: string, edit: { add?: Record<string, string>; remove?: string[] }): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const top = topLevelIndent(text);
  const found = findSection(text, section);
  const add = Object.entries(edit.add ?? {});
  if (!found) {
    if (add.length === 0) return text;
    const close = text.lastIndexOf('}');
    const lastValueEnd = text.slice(0, close).trimEnd().length;
    const hasMembers = text.slice(text.indexOf('{') + 1, lastValueEnd).trim().length > 0;
    const body = add.map(([k, v]) => `${top}${top}${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(`,${eol}`);
    const insertion = `${hasMembers ? ',' : ''}${eol}${top}${JSON.stringify(section)}: {${eol}${body}${eol}${top}}`;
    return text.slice(0, lastValueEnd) + insertion + eol + text.slice(close);
  }
  const remove = new Set(edit.remove ?? []);
  let entries = found.entries.filter(e => !remove.has(e.key));
  const fresh = add
    .filter(([k]) => !entries.some(e => e.key === k))
    .map(([k, v]) => ({ key: k, raw: `${JSON.stringify(k)}: ${JSON.stringify(v)}` }));
  if (fresh.length === 0 && entries.length === found.entries.length) return text;
  const sorted = entries.every((e, i) => i === 0 || entries[i - 1]!.key.localeCompare(e.key, 'en') <= 0);
  if (sorted) {
    for (const f of fresh) {
      const at = entries.findIndex(e => e.key.localeCompare(f.key, 'en') > 0);
      entries = at < 0 ? [...entries, f] : [...entries.slice(0, at), f, ...entries.slice(at)];
    }
  } else {
    entries = [...entries, ...fresh];
  }
  const inner = text.slice(found.open + 1, found.close);
  const multiline = inner.includes('\n') || found.entries.length === 0;
  let rendered: string;
  if (entries.length === 0) {
    rendered = '{}';
  } else if (multiline) {
    const entryIndent =
      found.entries.length > 0 ? lineIndentBefore(text, text.indexOf(JSON.stringify(found.entries[0]!.key), found.open)) : top + top;
    const closeIndent = found.entries.length > 0 && inner.includes('\n') ? lineIndentBefore(text, found.close) : top;
    rendered = `{${eol}${entries.map(e => entryIndent + e.raw).join(`,${eol}`)}${eol}${closeIndent}}`;
  } else {
    const pad = /^\{\s/.test(text.slice(found.open, found.open + 2)) ? ' ' : '';
    rendered = `{${pad}${entries.map(e => e.raw).join(', ')}${pad}}`;
  }
  return text.slice(0, found.open) + rendered + text.slice(found.close + 1);
}

function topLevelIndent(text: string): string {
  const m = /\{\r?\n([ \t]+)"/.exec(text);
  return m ? m[1]! : '  ';
}

function lineIndentBefore(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** Finds `"<section>": { ... }` among the top-level members, with its entries. */
function findSection(text: string, section: string): Section | undefined {
  let i = text.indexOf('{');
  if (i < 0) return undefined;
  i++;
  while (i < text.length) {
    i = skipSpace(text, i);
    if (text[i] === '}') return undefined;
    if (text[i] === ',') {
      i++;
      continue;
    }
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    i++; // ':'
    i = skipSpace(text, i);
    const valueEnd = valueEndAt(text, i);
    if (key === section && text[i] === '{') return { open: i, close: valueEnd - 1, entries: objectEntries(text, i) };
    i = valueEnd;
  }
  return undefined;
}

function objectEntries(text: string, open: number): Entry[] {
  const entries: Entry[] = [];
  let i = open + 1;
  while (i < text.length) {
    i = skipSpace(text, i);
    if (text[i] === '}') break;
    if (text[i] === ',') {
      i++;
      continue;
    }
    const start = i;
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd) + 1;
    i = skipSpace(text, i);
    const end = valueEndAt(text, i);
    entries.push({ key, raw: text.slice(start, end) });
    i = end;
  }
  return entries;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

function valueEndAt(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const ch = text[j]!;
      if (ch === '"') {
        j = stringEnd(text, j);
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return j;
  }
  let j = i;
  while (j < text.length && !/[,}\]\s]/.test(text[j]!)) j++;
  return j;
}
