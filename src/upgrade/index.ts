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
import { ZOD_IMPORT } from '../triggers.js';
import type { UnitTrace } from '../unitTrace.js';
import { declaresNoImport, importsToRequires, requiresToImports } from './commonjs.js';
import { markerLines, withCodemodMarkers } from './markers.js';
import type { Repair } from './repair.js';
import { boundOverloadsRepair } from './repairs/boundOverloads.js';
import { castHandlerKeysRepair, codemodHandlerKeys } from './repairs/castHandlerKeys.js';
import { contextCastsRepair } from './repairs/contextCasts.js';
import { contextMembers, contextParamsRepair, type ContextMembers } from './repairs/contextParams.js';
import { contextTypesRepair } from './repairs/contextTypes.js';
import { droppedImportsRepair, v1ImportNames } from './repairs/droppedImports.js';
import { codemodErrorCodeHomes, errorCodeNames, errorCodeUsesRepair, isErrorCodeSplitFinding } from './repairs/errorCodeUses.js';
import { addErrorCodeValues, errorCodeTypesRepair, type ErrorCodeValues } from './repairs/errorCodeTypes.js';
import { errorMessagesRepair } from './repairs/errorMessages.js';
import { withImportQuotes } from './repairs/importQuotes.js';
import { withRegistrationIndent } from './repairs/registrationIndent.js';
import { pickedMethodsRepair } from './repairs/pickedMethods.js';
import { rawShapesRepair, unverifiedSchemaStands } from './repairs/rawShapes.js';
import { annotateResultArraysRepair } from './repairs/resultArrays.js';
import { annotateToolListsRepair } from './repairs/toolLists.js';
import { toolOverloadsRepair } from './repairs/toolOverloads.js';
import { codemodTypeHomes, sdkSides, typeImportsRepair } from './repairs/typeImports.js';
import { zodApisRepair } from './repairs/zodApis.js';
import { registeredSchemaImports, zodJsonSchemaRepair } from './repairs/zodJsonSchema.js';
import { zodErrorParamsRepair } from './repairs/zodErrorParams.js';
import { zodRecordRepair } from './repairs/zodRecord.js';
import { descendantsOfKind } from '../analysis/descendants.js';

export { CODEMOD_MARKER, FAILS_AT_START, withCodemodMarkers } from './markers.js';

/** A file naming SDK 1.x: an import, a require, a dynamic import or an `import('…')` type (JSDoc ones too). */
export const V1_IMPORT = /from\s*['"]@modelcontextprotocol\/sdk[/'"]|(?:require|import)\(\s*['"]@modelcontextprotocol\/sdk[/'"]/;

/** What the official codemod is told the project is: mcp-migrate moves servers. */
const PROJECT_TYPE = 'server' as const;

export interface UpgradeResult {
  /** New text per upgraded file (absolute path). */
  texts: Map<string, string>;
  /** Its findings, each at its line in the text given. */
  notes: UpgradeNote[];
  /** SDK 1.x files the official codemod failed on, with why: left on 1.x, so nothing else of them may change. */
  failed: Map<string, string>;
}

/**
 * An in-memory project the upgrade edits one file in. Its repairs ask only which declaration of the file a
 * name is (the official codemod asks nothing of the checker): the default libraries, DOM included, which its
 * first question would parse and bind, are not read. One project per file: kept, the files upgraded before
 * would be in every later file's program, each of whose questions would then bind them all again; and a new
 * project costs less than removing a file, which forgets each of its nodes one by one.
 */
export function upgradeProject(): Project {
  return new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: true, noLib: true } });
}

/** `all`: every file of the run, where the modules registering a schema another file holds are found (zodJsonSchemaRepair). */
export function upgradeV1(
  files: { path: string; text: string }[],
  all: readonly { path: string; text: string }[] = files,
  trace?: UnitTrace,
): UpgradeResult {
  const v1 = files.filter(f => V1_IMPORT.test(f.text));
  if (v1.length === 0) return { texts: new Map(), notes: [], failed: new Map() };
  const run = runWide(v1, all);
  return joinUpgrades(v1.map(file => upgradeFile(file, run, trace)));
}

/**
 * An import of SDK 1.x, the first line of a file that imports none while it registers handlers on a server
 * declared in another module (`import { server } from './server.js'; server.tool(...)`): the official codemod
 * reads only files that import the SDK. It comes out of the upgrade as an import of the 2.x package, and is
 * taken off again; its name is one no code writes. A CommonJS file gets it as a require (an import would make
 * the file a module of imports, whose requires, `z`'s among them, the upgrade would not read as imports).
 */
const ANCHOR_NAME = 'McpMigrateUpgradeAnchor';
const ANCHORS = {
  import: {
    v1: `import type { McpServer as ${ANCHOR_NAME} } from '@modelcontextprotocol/sdk/server/mcp.js';\n`,
    upgraded: new RegExp(`^import type \\{ McpServer as ${ANCHOR_NAME} \\} from (['"])@modelcontextprotocol/server\\1;?\\r?\\n`),
  },
  require: {
    v1: `const { McpServer: ${ANCHOR_NAME} } = require('@modelcontextprotocol/sdk/server/mcp.js');\n`,
    upgraded: new RegExp(`^const \\{ McpServer: ${ANCHOR_NAME} \\} = require\\((['"])@modelcontextprotocol/server\\1\\);?\\r?\\n`),
  },
};

/**
 * A file of requires that declares no import, as the upgrade reads it (a `.cts` file writing imports reads them as
 * imports): its anchor is a require.
 */
function anchorFor(file: { path: string; text: string }): (typeof ANCHORS)['import'] {
  const commonJs =
    /\brequire\s*\(/.test(file.text) && declaresNoImport(ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false));
  return commonJs ? ANCHORS.require : ANCHORS.import;
}

/**
 * Upgrades files that import nothing of SDK 1.x but register handlers on a server declared in another module, as
 * files importing it are: read through an import of the SDK put first, and taken off again. A file whose first line
 * the upgrade did not leave as that import's 2.x form (merged with another) fails, left as it was. The findings'
 * lines are those of the file.
 */
export function upgradeRegistrants(
  files: { path: string; text: string }[],
  all: readonly { path: string; text: string }[],
  trace?: UnitTrace,
): UpgradeResult {
  const anchors = new Map(files.map(f => [f.path, anchorFor(f)]));
  const anchored = files.map(f => ({ path: f.path, text: anchors.get(f.path)!.v1 + f.text }));
  const upgraded = upgradeV1(anchored, all, trace);
  const result: UpgradeResult = { texts: new Map(), notes: [], failed: new Map(upgraded.failed) };
  for (const f of files) {
    if (result.failed.has(f.path)) continue;
    const text = upgraded.texts.get(f.path);
    const match = text === undefined ? null : anchors.get(f.path)!.upgraded.exec(text);
    if (!text || !match) {
      result.failed.set(f.path, 'the upgrade did not leave the import of SDK 1.x it was read with as one line to take off');
      continue;
    }
    // A blank line the upgrade put after the anchor, as after an import block, before a file's first statement.
    const rest = text.slice(match[0].length);
    const upgradedText = /^\r?\n/.test(rest) && !/^\r?\n/.test(f.text) ? rest.replace(/^\r?\n/, '') : rest;
    if (upgradedText !== f.text) result.texts.set(f.path, upgradedText);
  }
  for (const note of upgraded.notes)
    if (!result.failed.has(note.file) && note.line > 1) result.notes.push({ ...note, line: note.line - 1 });
  return result;
}

/** What the upgrade of one file reads of the others, read once before any is upgraded. */
interface RunWide {
  errorCodeValues: ErrorCodeValues;
  registered: ReadonlySet<string>;
}

/** `v1`: the files to upgrade; `all`: every file of the run. */
function runWide(v1: { path: string; text: string }[], all: readonly { path: string; text: string }[]): RunWide {
  return { errorCodeValues: errorCodeValuesOf(v1), registered: registeredSchemaImports(all) };
}

/** One file's upgrade: its new text (undefined where unchanged), its findings, and why it failed where it did. */
interface FileUpgrade {
  path: string;
  text?: string;
  notes: UpgradeNote[];
  failed?: string;
}

/** The files' upgrades as one result, in the order given. */
function joinUpgrades(upgrades: readonly FileUpgrade[]): UpgradeResult {
  const result: UpgradeResult = { texts: new Map(), notes: [], failed: new Map() };
  for (const u of upgrades) {
    result.notes.push(...u.notes);
    if (u.text !== undefined) result.texts.set(u.path, u.text);
    if (u.failed !== undefined) result.failed.set(u.path, u.failed);
  }
  return result;
}

/** Upgrades one SDK 1.x file, which depends on no other but through `run`. */
function upgradeFile(file: { path: string; text: string }, run: RunWide, trace: UnitTrace | undefined): FileUpgrade {
  const codemod = codemodReadings();
  // One file the official codemod cannot handle must not cost the others their upgrade.
  try {
    const sf = upgradeProject().createSourceFile(file.path, file.text);
    if (hasSyntaxErrors(sf)) {
      return {
        path: file.path,
        notes: [{ file: file.path, line: 1, level: 'error', message: 'not upgraded to SDK 2.x: the file has syntax errors' }],
      };
    }
    const upgraded = applyTransforms(sf, file.text, () => transformsFor(sf, file.text, codemod, run), trace);
    return { path: file.path, notes: upgraded.notes, text: upgraded.text !== file.text ? upgraded.text : undefined };
  } catch (error) {
    const why = oneLine(error);
    return {
      path: file.path,
      notes: [{ file: file.path, line: 1, level: 'error', message: `not upgraded to SDK 2.x: the official codemod failed (${why})` }],
      failed: `the official codemod failed on it (${why})`,
    };
  }
}

type Migration = NonNullable<ReturnType<typeof getMigration>>;

/** What the repairs learn of the official codemod by running it on probes: the same for every run, learnt once per thread. */
interface CodemodReadings {
  migration: Migration;
  typeHomes: ReturnType<typeof codemodTypeHomes>;
  errorCodeHomes: ReturnType<typeof codemodErrorCodeHomes>;
  members: ContextMembers;
  handlerKeys: ReturnType<typeof codemodHandlerKeys>;
}

let readings: CodemodReadings | undefined;

function codemodReadings(): CodemodReadings {
  if (readings) return readings;
  const migration = getMigration('v1-to-v2');
  if (!migration) throw new Error('the official codemod has no v1-to-v2 migration');
  readings = {
    migration,
    typeHomes: codemodTypeHomes(migration, PROJECT_TYPE),
    errorCodeHomes: codemodErrorCodeHomes(migration, PROJECT_TYPE),
    members: contextMembers(migration),
    handlerKeys: codemodHandlerKeys(migration),
  };
  return readings;
}

/** The official codemod's transforms for an SDK 1.x file, with the repairs before and after them. */
function transformsFor(sf: SourceFile, given: string, codemod: CodemodReadings, run: RunWide): TransformPlan {
  const { migration, typeHomes, errorCodeHomes, members, handlerKeys } = codemod;
  const sides = sdkSides(sf);
  // What the official codemod removes, read before it runs.
  const errorCodes = errorCodeNames(sf);
  const errorCodeRepairs = [
    errorCodeTypesRepair(errorCodes, run.errorCodeValues, sides, errorCodeHomes),
    errorCodeUsesRepair(errorCodes, sides, errorCodeHomes),
  ];
  const afterCodemod = [
    ...repairs((specifier, use) => typeHomes(specifier, use, sides), members, errorCodeRepairs, run.registered),
    droppedImportsRepair(v1ImportNames(sf)),
  ];
  return {
    transforms: [boundOverloadsRepair, toolOverloadsRepair, castHandlerKeysRepair(handlerKeys), ...migration.transforms, ...afterCodemod],
    quotesOf: given,
    // A finding about a construct a repair has since removed is no longer true.
    stands: d => stillApplies(d, sf) && !(errorCodes.length > 0 && isErrorCodeSplitFinding(d)),
  };
}

/** The transforms to run on a file, and which of their findings still stand after all of them ran. */
interface TransformPlan {
  transforms: Repair[];
  stands: (d: Diagnostic) => boolean;
  /** The file as written, whose quotes the imports the transforms rewrote or added get back (withImportQuotes). */
  quotesOf?: string;
}

/**
 * Runs the transforms `plan` reads off a file, CommonJS included (the official codemod reads import
 * declarations only: a CommonJS file goes through with its requires turned into imports, which the plan then
 * reads, and comes back with them turned into requires again); marks the standing findings that ask for it.
 * Returns the findings as notes, and the file's new text (the source file is left as the transforms left it).
 */
function applyTransforms(
  sf: SourceFile,
  given: string,
  plan: () => TransformPlan,
  trace?: UnitTrace,
): { notes: UpgradeNote[]; text: string } {
  const commonJs = requiresToImports(sf);
  const { transforms, stands, quotesOf } = plan();
  const found: { diagnostic: Diagnostic; seenIn: string }[] = [];
  for (const transform of transforms) {
    const seenIn = sf.getFullText();
    const { diagnostics } = transform.apply(sf, { projectType: PROJECT_TYPE });
    found.push(...diagnostics.map((diagnostic: Diagnostic) => ({ diagnostic, seenIn })));
    if (trace && (diagnostics.length > 0 || sf.getFullText() !== seenIn)) trace('upgrade', transform.id, sf.getFilePath());
  }
  const standing = found.filter(f => stands(f.diagnostic));
  // The quotes and the markers are edits of the text, not of the source file, each edit of which parses it
  // again and walks its tree. A quote for a quote moves nothing: the findings' nodes still give their lines.
  const quoted = quotesOf === undefined ? sf.getFullText() : withRegistrationIndent(sf, quotesOf, withImportQuotes(sf, quotesOf));
  const notes = locateNotes(standing, given, sf.getFilePath(), quoted);
  const text = withCodemodMarkers(quoted, markerLines(standing.map(f => f.diagnostic).filter(d => d.insertComment)));
  if (!commonJs) return { notes, text };
  const final = sf.getProject().createSourceFile(sf.getFilePath(), text, { overwrite: true });
  importsToRequires(final);
  return { notes, text: final.getFullText() };
}

/**
 * The zod repairs alone, for files of a package the run moves to SDK 2.x, and so to zod 4, that did not import
 * SDK 1.x: the official codemod (like upgradeV1) reads only files that import the SDK, and a schemas module of
 * the server would keep zod 3 calls that no longer compile. A file that does not parse is left.
 */
export function upgradeZodOnly(
  files: { path: string; text: string }[],
  all: readonly { path: string; text: string }[] = files,
): Omit<UpgradeResult, 'failed'> {
  const texts = new Map<string, string>();
  const registered = registeredSchemaImports(all);
  const notes: UpgradeNote[] = [];
  for (const file of files.filter(f => ZOD_IMPORT.test(f.text))) {
    const sf = upgradeProject().createSourceFile(file.path, file.text);
    if (!hasSyntaxErrors(sf)) {
      const upgraded = applyTransforms(sf, file.text, () => ({
        transforms: [zodRecordRepair, zodErrorParamsRepair, zodApisRepair, zodJsonSchemaRepair(registered)],
        stands: () => true,
        // A CommonJS file's requires go through as imports and come back in the file's own quotes.
        quotesOf: file.text,
      }));
      notes.push(...upgraded.notes);
      if (upgraded.text !== file.text) texts.set(file.path, upgraded.text);
    }
  }
  return { texts, notes };
}

/** The repairs, in the order they run after the official codemod's transforms (boundOverloadsRepair, toolOverloadsRepair and castHandlerKeysRepair run before them; droppedImportsRepair after these, with the names read before any ran). */
function repairs(
  homeOf: Parameters<typeof typeImportsRepair>[0],
  members: ContextMembers,
  errorCodes: Repair[],
  registered: ReadonlySet<string>,
): Repair[] {
  return [
    typeImportsRepair(homeOf),
    contextParamsRepair(members),
    contextCastsRepair(members),
    contextTypesRepair(members),
    annotateResultArraysRepair,
    annotateToolListsRepair,
    zodRecordRepair,
    zodErrorParamsRepair,
    zodApisRepair,
    zodJsonSchemaRepair(registered),
    rawShapesRepair,
    errorMessagesRepair,
    ...errorCodes,
    pickedMethodsRepair,
  ];
}

/**
 * The ErrorCode members every SDK 1.x file of the run names, read before the official codemod rewrites any:
 * what a value typed ErrorCode can be (errorCodeTypesRepair). Each file is read as the codemod reads it
 * (CommonJS requires as imports), in a project of its own, so the upgrade's sees none of them early.
 */
function errorCodeValuesOf(files: { path: string; text: string }[]): ErrorCodeValues {
  const project = upgradeProject();
  const values: ErrorCodeValues = { members: new Set(), whole: false };
  for (const file of files.filter(f => /\bErrorCode\b/.test(f.text))) {
    try {
      const sf = project.createSourceFile(file.path, file.text, { overwrite: true });
      requiresToImports(sf);
      addErrorCodeValues(sf, values);
    } catch {
      // Unread, it may name any member.
      values.whole = true;
    }
  }
  return values;
}

/** The official codemod's findings about a destructured context, or a schema it could not verify, stand while that construct does. */
function stillApplies(d: Diagnostic, sf: SourceFile): boolean {
  if (!unverifiedSchemaStands(d, sf)) return false;
  const destructured = /^Destructuring of context parameter (?:in signature|detected): "(?:const )?(.*?)(?: = \w+)?"\./s.exec(
    d.message,
  )?.[1];
  return destructured === undefined || descendantsOfKind(sf, SyntaxKind.ObjectBindingPattern).some(p => p.getText() === destructured);
}

/** The first line of an error message, without terminal colour codes. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .find(l => l.trim() !== '') ?? 'unknown error'
  ).trim();
}

/**
 * The findings, each at its line in the text as given. A finding that follows its node is located once
 * every transform has run (as the official runner does); the others name a line of the text the
 * transform that found them saw, which the transforms after it may have moved. `final`: the file's text
 * once every transform has run, `file` its path (for a finding that names none).
 */
function locateNotes(found: { diagnostic: Diagnostic; seenIn: string }[], given: string, file: string, final: string): UpgradeNote[] {
  const mappers = new Map<string, (p: Position) => Position>();
  const inGiven = (text: string, line: number) => {
    const map = mappers.get(text) ?? mappers.set(text, positionMapper(given, text)).get(text)!;
    return map({ line: line - 1, character: 0 }).line + 1;
  };
  return found.map(({ diagnostic: d, seenIn }) => {
    let line: number | undefined;
    try {
      if (d.resolveCurrentLine) line = inGiven(final, d.resolveCurrentLine());
    } catch {
      // the node moved or vanished; keep the line it was found on
    }
    line ??= inGiven(seenIn, d.line);
    return { file: d.file || file, line, level: d.level as UpgradeNote['level'], message: d.message };
  });
}

/** Syntax errors only (no type checking): what the parser itself reported. */
export function syntaxErrors(sf: SourceFile): ts.Diagnostic[] {
  return (sf.compilerNode as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
}

function hasSyntaxErrors(sf: SourceFile): boolean {
  return syntaxErrors(sf).length > 0;
}
