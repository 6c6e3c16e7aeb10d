/**
 * SDK 1.x → 2.x: the official `@modelcontextprotocol/codemod` v1-to-v2 migration, applied in
 * memory to the files that import `@modelcontextprotocol/sdk`, so its changes join our diff and
 * its findings join our report. We never reimplement it; what its output still lacks on 2.x is
 * mended by repairs of its own shape (src/upgrade/repairs/), run after it.
 */
import { getMigration, type Diagnostic } from '@modelcontextprotocol/codemod';
import { Project, SyntaxKind, ts, type SourceFile } from 'ts-morph';
import { positionMapper, type Position } from '../positions.js';
import type { UpgradeNote } from '../report.js';
import { importsToRequires, requiresToImports } from './commonjs.js';
import { insertCodemodMarkers } from './markers.js';
import type { Repair } from './repair.js';
import { contextMembers, contextParamsRepair, type ContextMembers } from './repairs/contextParams.js';
import { contextTypesRepair } from './repairs/contextTypes.js';
import { errorMessagesRepair } from './repairs/errorMessages.js';
import { rawShapesRepair, unverifiedSchemaStands } from './repairs/rawShapes.js';
import { annotateResultArraysRepair } from './repairs/resultArrays.js';
import { annotateToolListsRepair } from './repairs/toolLists.js';
import { toolOverloadsRepair } from './repairs/toolOverloads.js';
import { codemodTypeHomes, sdkSides, typeImportsRepair } from './repairs/typeImports.js';
import { zodRecordRepair } from './repairs/zodRecord.js';

export { CODEMOD_MARKER } from './markers.js';

/** A file naming SDK 1.x: an import, a require, a dynamic import or an `import('…')` type (JSDoc ones too). */
export const V1_IMPORT = /from\s*['"]@modelcontextprotocol\/sdk[/'"]|(?:require|import)\(\s*['"]@modelcontextprotocol\/sdk[/'"]/;

export interface UpgradeResult {
  /** New text per upgraded file (absolute path). */
  texts: Map<string, string>;
  /** Its findings, each at its line in the text given. */
  notes: UpgradeNote[];
  /** SDK 1.x files the official codemod failed on, with why: left on 1.x, so nothing else of them may change. */
  failed: Map<string, string>;
}

export function upgradeV1(files: { path: string; text: string }[]): UpgradeResult {
  const texts = new Map<string, string>();
  const notes: UpgradeNote[] = [];
  const failed = new Map<string, string>();
  const v1 = files.filter(f => V1_IMPORT.test(f.text));
  if (v1.length === 0) return { texts, notes, failed };
  const migration = getMigration('v1-to-v2');
  if (!migration) throw new Error('the official codemod has no v1-to-v2 migration');
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: true } });
  const projectType = 'server' as const;
  const typeHomes = codemodTypeHomes(migration, projectType);
  const members = contextMembers(migration);
  for (const file of v1) {
    // One file the official codemod cannot handle must not cost the others their upgrade.
    try {
      const sf = project.createSourceFile(file.path, file.text, { overwrite: true });
      if (hasSyntaxErrors(sf)) {
        notes.push({ file: file.path, line: 1, level: 'error', message: 'not upgraded to SDK 2.x: the file has syntax errors' });
        continue;
      }
      // The official codemod reads import declarations only: a CommonJS file goes through it with
      // its requires turned into imports, and comes back with them turned into requires again.
      const commonJs = requiresToImports(sf);
      const sides = sdkSides(sf);
      const found: { diagnostic: Diagnostic; seenIn: string }[] = [];
      for (const transform of [toolOverloadsRepair, ...migration.transforms, ...repairs((specifier, use) => typeHomes(specifier, use, sides), members)]) {
        const seenIn = sf.getFullText();
        found.push(...transform.apply(sf, { projectType }).diagnostics.map((diagnostic: Diagnostic) => ({ diagnostic, seenIn })));
      }
      // A finding about a construct a repair has since removed is no longer true.
      const standing = found.filter(f => stillApplies(f.diagnostic, sf));
      notes.push(...locateNotes(standing, file.text, sf));
      insertCodemodMarkers(sf, standing.map(f => f.diagnostic).filter(d => d.insertComment));
      if (commonJs) importsToRequires(sf);
      const after = sf.getFullText();
      if (after !== file.text) texts.set(file.path, after);
    } catch (error) {
      notes.push({ file: file.path, line: 1, level: 'error', message: `not upgraded to SDK 2.x: the official codemod failed (${oneLine(error)})` });
      failed.set(file.path, `the official codemod failed on it (${oneLine(error)})`);
    }
  }
  return { texts, notes, failed };
}


/** The repairs, in the order they run after the official codemod's transforms (toolOverloadsRepair runs before them). */
function repairs(homeOf: Parameters<typeof typeImportsRepair>[0], members: ContextMembers): Repair[] {
  return [typeImportsRepair(homeOf), contextParamsRepair(members), contextTypesRepair(members), annotateResultArraysRepair, annotateToolListsRepair, zodRecordRepair, rawShapesRepair, errorMessagesRepair];
}

/** The official codemod's findings about a destructured context, or a schema it could not verify, stand while that construct does. */
function stillApplies(d: Diagnostic, sf: SourceFile): boolean {
  if (!unverifiedSchemaStands(d, sf)) return false;
  const destructured = /^Destructuring of context parameter (?:in signature|detected): "(?:const )?(.*?)(?: = \w+)?"\./s.exec(d.message)?.[1];
  return destructured === undefined || sf.getDescendantsOfKind(SyntaxKind.ObjectBindingPattern).some(p => p.getText() === destructured);
}

/** The first line of an error message, without terminal colour codes. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // eslint-disable-next-line no-control-regex
  return (text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find(l => l.trim() !== '') ?? 'unknown error').trim();
}

/**
 * The findings, each at its line in the text as given. A finding that follows its node is located once
 * every transform has run (as the official runner does); the others name a line of the text the
 * transform that found them saw, which the transforms after it may have moved.
 */
function locateNotes(found: { diagnostic: Diagnostic; seenIn: string }[], given: string, sf: SourceFile): UpgradeNote[] {
  const mappers = new Map<string, (p: Position) => Position>();
  const inGiven = (text: string, line: number) => {
    const map = mappers.get(text) ?? mappers.set(text, positionMapper(given, text)).get(text)!;
    return map({ line: line - 1, character: 0 }).line + 1;
  };
  const final = sf.getFullText();
  return found.map(({ diagnostic: d, seenIn }) => {
    let line: number | undefined;
    try {
      if (d.resolveCurrentLine) line = inGiven(final, d.resolveCurrentLine());
    } catch {
      // the node moved or vanished; keep the line it was found on
    }
    line ??= inGiven(seenIn, d.line);
    return { file: d.file || sf.getFilePath(), line, level: d.level as UpgradeNote['level'], message: d.message };
  });
}

/** Syntax errors only (no type checking): what the parser itself reported. */
export function syntaxErrors(sf: SourceFile): ts.Diagnostic[] {
  return (sf.compilerNode as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
}

function hasSyntaxErrors(sf: SourceFile): boolean {
  return syntaxErrors(sf).length > 0;
}
