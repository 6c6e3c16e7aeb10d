/**
 * What a run writes of the requestState module (src/stateModule.ts: the module and the seal it imports),
 * never over an existing file: both files where the handlers the run migrated need them; what an
 * interrupted earlier run left missing (the module its handlers import, the seal a module imports); and
 * notes on an existing module, from an earlier version, that lacks what the rewritten handlers use. A
 * module from before the seal (one self-contained file) imports none, and none is written beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileChange } from './report.js';
import {
  boundCallMethods,
  STATE_MODULE_BASENAME,
  STATE_SEAL_BASENAME,
  stateExports,
  stateModuleFiles,
  stateModuleText,
  type ModuleFlavour,
} from './stateModule.js';
import type { StateModulePlace } from './stateModulePlaces.js';
import { restyled } from './restyle.js';
import { codeStyle } from './rewrite/style.js';

export interface CreatedFile {
  path: string;
  text: string;
}

/** The extensions a module (or seal) may have: one with any of them is there. */
const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.cjs'];

/** How the rewrite imports the module, and the module its seal: the specifier, the file's base name, its extension. */
const STATE_IMPORT = new RegExp(
  `(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\brequire\\s*\\(\\s*)['"](\\.{1,2}/(?:[^'"\\n]*/)?(${STATE_SEAL_BASENAME}|${STATE_MODULE_BASENAME})(\\.[cm]?js)?)['"]`,
  'g',
);

/**
 * The files of the modules at `places` (those the run's handlers use) that do not exist yet, the module
 * naming its seal as the changed files name the module; and the notes on those that exist.
 */
export function placedStateModules(
  places: StateModulePlace[],
  changes: FileChange[],
  rel: (p: string) => string,
): { created: CreatedFile[]; notes: string[] } {
  const created: CreatedFile[] = [];
  const notes: string[] = [];
  for (const place of places) {
    if (place.exists) {
      notes.push(...existingModuleNotes(place.path, changes, rel));
      continue;
    }
    const imports = importsOfModule(place.path, changes);
    // A project resolving imports without an extension gets its seal named alike; the module is written in its first importer's style.
    const extensionless = imports.some(i => i.extension === undefined);
    const importer = imports[0]?.change;
    const style = importer && codeStyle(importer.before ?? importer.after);
    const files = stateModuleFiles(place.path, place.flavour, { extensionless, declarations: place.declarations, style });
    created.push(...files.filter(f => !fs.existsSync(f.path)));
  }
  return { created, notes };
}

/** Each import of the module at `modulePath` in the changed files, in their order: the file, and the specifier's extension if it has one. */
function importsOfModule(modulePath: string, changes: FileChange[]): { change: FileChange; extension: string | undefined }[] {
  const base = modulePath.replace(/\.[cm]?[jt]s$/, '');
  return changes.flatMap(change =>
    [...change.after.matchAll(STATE_IMPORT)]
      .filter(m => path.resolve(path.dirname(change.path), m[1]!.replace(/\.[cm]?js$/, '')) === base)
      .map(m => ({ change, extension: m[3] })),
  );
}

/** What an existing module, made by an earlier version, lacks that the changed files use; said, never overwritten. */
function existingModuleNotes(modulePath: string, changes: FileChange[], rel: (p: string) => string): string[] {
  const missing = missingStateExports(modulePath, changes);
  if (missing.length === 0) return [];
  // Deleting it would break the handlers an earlier run migrated, which the current module does not serve.
  if (numberedPhases(modulePath)) {
    return [
      `${rel(modulePath)} comes from an mcp-migrate before named steps: its resumeCall resumes numbered phases (resumed.phase, call.unknownPhase), which the handlers it migrated use, and has no ${missing.join(', ')}, which the handlers rewritten now use (resumed.step, call.unknownStep). It is never overwritten: have the earlier handlers dispatch on steps too (git checkout their pre-migration text and run again), then delete it and run again to have it generated anew`,
    ];
  }
  return [
    `${rel(modulePath)} has no ${missing.join(', ')}, which the rewritten handlers use: it comes from an earlier mcp-migrate and is never overwritten; delete it and run again to have it generated anew (or copy those functions from a new one)`,
  ];
}

/** The text of an existing module with its seal's, where it has one (its exports are in either). */
function existingModuleText(modulePath: string): string | undefined {
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  const module = read(modulePath);
  if (module === undefined) return undefined;
  const seal = MODULE_EXTENSIONS.map(ext => read(path.join(path.dirname(modulePath), STATE_SEAL_BASENAME + ext)));
  return [module, ...seal.filter(text => text !== undefined)].join('\n');
}

/**
 * The requestState module's exports, and methods of the call it binds, that the changed files call and an
 * existing module (made by an earlier version) lacks.
 */
function missingStateExports(modulePath: string, changes: FileChange[]): string[] {
  const text = existingModuleText(modulePath);
  if (text === undefined) return [];
  const newlyCalled = (call: string) => changes.some(c => new RegExp(call).test(c.after) && !new RegExp(call).test(c.before ?? ''));
  const functions = Object.values(stateExports)
    .filter(name => newlyCalled(`\\b${name}\\(`))
    .filter(
      name =>
        !new RegExp(`\\bexport\\s+(?:async\\s+)?function\\s+${name}\\b|\\bexports\\.${name}\\s*=|\\bexport\\s*\\{[^}]*\\b${name}\\b`).test(
          text,
        ),
    );
  // A method is declared on the bound call, and implemented where it is made, at the start of a line.
  const methods = Object.values(boundCallMethods)
    .filter(name => newlyCalled(`\\.${name}\\(`))
    .filter(name => !new RegExp(`^\\s*(?:async\\s+)?${name}(?:<\\w+>)?\\(`, 'm').test(text))
    .map(name => `the bound call's ${name} method`);
  return [...functions, ...methods];
}

/** Whether an existing requestState module is the one before named steps (its calls resume numbered phases). */
function numberedPhases(modulePath: string): boolean {
  try {
    return /^\s*unknownPhase\(/m.test(fs.readFileSync(modulePath, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The files of the requestState module that the texts import (the handlers the module, as the rewrite
 * writes the import; a module its seal) and that exist neither on disk nor among the texts: an earlier
 * run was interrupted between its writes. Each with the file that imports it, for the note.
 */
export function missingStateModules(texts: ReadonlyMap<string, string>): (CreatedFile & { importer: string })[] {
  const there = (file: string) => texts.has(file) || fs.existsSync(file);
  const missing = new Map<string, CreatedFile & { importer: string }>();
  for (const [file, text] of texts) {
    if (!text.includes(STATE_MODULE_BASENAME)) continue;
    for (const m of text.matchAll(STATE_IMPORT)) {
      const base = path.resolve(path.dirname(file), m[1]!.replace(/\.[cm]?js$/, ''));
      if (MODULE_EXTENSIONS.some(ext => there(base + ext) || missing.has(base + ext))) continue;
      const { flavour, at } = importedAs(file, base, m[3], m[0].startsWith('require'));
      const files =
        m[2] === STATE_SEAL_BASENAME
          ? [{ path: at, text: restyled(stateModuleText(flavour, STATE_SEAL_BASENAME), codeStyle(text), at) }]
          : stateModuleFiles(at, flavour, { extensionless: m[3] === undefined, style: codeStyle(text) });
      // A seal written with its module is imported by the module.
      for (const f of files) if (!there(f.path)) missing.set(f.path, { ...f, importer: f.path === at ? file : at });
    }
  }
  return [...missing.values()];
}

/** The flavour and the file an import of `base` from `importer` asks for, with `extension` (none, `.js`, `.mjs`, `.cjs`). */
function importedAs(
  importer: string,
  base: string,
  extension: string | undefined,
  required: boolean,
): { flavour: ModuleFlavour; at: string } {
  if (extension === '.cjs') return { flavour: 'cjs', at: `${base}.cjs` };
  if (extension === '.mjs') return { flavour: 'esm', at: `${base}.mjs` };
  if (/\.[cm]?tsx?$/.test(importer)) return { flavour: 'ts', at: `${base}.ts` };
  return { flavour: required ? 'cjs' : 'esm', at: `${base}.js` };
}
