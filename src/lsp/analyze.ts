/**
 * One document through the migration pipeline (the same `migrateSources` the CLI runs), turned into
 * what the language server publishes and offers: diagnostics on every server-initiated request site,
 * and the file's migration as edits.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { migrateSources } from '../pipeline.js';
import type { SiteReport } from '../report.js';
import { causeOf } from '../tables/causes.js';
import { V1_IMPORT } from '../upgrade/index.js';
import { minimalEdits } from './edits.js';
import { reuseUnchanged } from './incremental.js';
import { CallIndex } from './positions.js';
import type { SiteData } from './siteData.js';

export const DIAGNOSTIC_SOURCE = 'mcp-migrate';
export const DIAGNOSTIC_CODE = 'mcp-migrate/server-initiated-request';
export const REWRITABLE_MESSAGE = 'server-initiated request: removed in MCP 2026-07-28';
/** For a serving entry, stdio or Streamable HTTP (moved by the file action only: it is no handler). */
export const CAPABILITIES_MESSAGE = 'client capabilities: a 2026-07-28 client declares them with each request, not at initialize';
export const CONNECTION_MESSAGE =
  "initialize: a 2026-07-28 client never sends it; each request carries the client's identity and revision instead";
export const ENTRY_MESSAGE = 'serving entry: MCP 2026-07-28 clients reach a server through serveStdio or, over HTTP, createMcpHandler';

export interface DocumentAnalysis {
  uri: string;
  version: number;
  /** The text analysed, which a re-analysis compares with. */
  text: string;
  diagnostics: Diagnostic[];
  /** The file has something to migrate (a site, or SDK 1.x to upgrade): the source action is offered, its edit made when asked for. */
  migratable: boolean;
  /** Why the document was not analysed (it does not parse, the pipeline failed); nothing is published then. */
  failure?: string;
}

/** A migration of the document as edits, and the files it creates (the requestState module, for `file:` documents only). */
export interface DocumentEdits {
  /** Empty when the migration leaves the text as it is. */
  edits: TextEdit[];
  created: { path: string; uri: string; text: string }[];
}

const EXTENSION_OF_LANGUAGE: Record<string, string> = {
  typescript: '.ts',
  typescriptreact: '.tsx',
  javascript: '.js',
  javascriptreact: '.jsx',
};

/** The path the pipeline sees for a document: its own for `file:` URIs, a stand-in otherwise. */
export function documentPath(doc: Pick<TextDocument, 'uri' | 'languageId'>): { path: string; onDisk: boolean } {
  if (doc.uri.startsWith('file:')) return { path: fileURLToPath(doc.uri), onDisk: true };
  const name = doc.uri.replace(/^[a-z][a-z0-9+.-]*:/i, '').replace(/[^\w.-]+/g, '_') || 'untitled';
  const ext = EXTENSION_OF_LANGUAGE[doc.languageId] ?? '.ts';
  return { path: path.join(path.parse(process.cwd()).root, 'mcp-migrate-untitled', name.endsWith(ext) ? name : name + ext), onDisk: false };
}

/**
 * Diagnostics only: the analysis of the text as typed, without the upgrade or the rewrite (the file's
 * migration runs when a code action's edit is asked for), so the first diagnostics come fast. With the
 * `previous` analysis of the document, the registrations the edit left as they were are not analysed again.
 */
export async function analyzeDocument(doc: TextDocument, previous?: DocumentAnalysis): Promise<DocumentAnalysis> {
  const text = doc.getText();
  const { path: file } = documentPath(doc);
  const reuse = previous && !previous.failure ? reuseUnchanged(previous, file, text) : undefined;
  const { report } = await migrateSources([{ path: file, text: reuse?.analysed ?? text }], { cwd: path.dirname(file), sitesOnly: true });
  const base = { uri: doc.uri, version: doc.version, text, diagnostics: [], migratable: false };
  const failed = report.files.find(f => f.outcome === 'error');
  if (failed && report.sites.length === 0) return { ...base, failure: failed.reason ?? 'the file could not be migrated' };
  const fresh = report.sites.length === 0 ? [] : siteDiagnostics(file, text, report.sites);
  const diagnostics = reuse
    ? [...reuse.kept, ...fresh].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)
    : fresh;
  return { ...base, diagnostics, migratable: diagnostics.length > 0 || V1_IMPORT.test(text) };
}

/** The file's migration as edits: exactly what `mcp-migrate <file>` writes. */
export async function fileEdits(doc: TextDocument): Promise<DocumentEdits> {
  return migrateDocument(doc);
}

/** The edits that convert only the handler holding the site at `at` (1-based, in the document). */
export async function handlerEdits(doc: TextDocument, at: { line: number; column: number }): Promise<DocumentEdits> {
  return migrateDocument(doc, at);
}

async function migrateDocument(doc: TextDocument, onlyAt?: { line: number; column: number }): Promise<DocumentEdits> {
  const text = doc.getText();
  const { path: file, onDisk } = documentPath(doc);
  const { changes } = await migrateSources([{ path: file, text }], {
    cwd: path.dirname(file),
    ...(onlyAt ? { onlyHandlerAt: { path: file, ...onlyAt } } : {}),
  });
  const own = changes.find(c => c.path === file);
  const created = onDisk
    ? changes.filter(c => c.before === null).map(c => ({ path: c.path, uri: pathToFileURL(c.path).href, text: c.after }))
    : [];
  return { edits: own ? minimalEdits(doc, own.after) : [], created };
}

const KIND_MESSAGES: Partial<Record<SiteReport['kind'], string>> = {
  entry: ENTRY_MESSAGE,
  capabilities: CAPABILITIES_MESSAGE,
  connection: CONNECTION_MESSAGE,
};

function siteDiagnostics(file: string, text: string, sites: SiteReport[]): Diagnostic[] {
  const calls = new CallIndex(file, text);
  return sites.map(site => {
    const range = calls.rangeAt({ line: site.line - 1, character: site.column - 1 });
    const rewritable = site.outcome === 'rewritten';
    const data: SiteData = {
      outcome: site.outcome,
      kind: site.kind,
      line: site.line,
      column: site.column,
      ...(site.handler ? { handler: site.handler } : {}),
    };
    // A site left carries its cause's id (docs/causes.md), as a lint rule's message carries its rule, at the
    // cause's level: an error where the migrated server fails, a warning where it needs a redesign.
    const cause = !rewritable && site.causeId ? causeOf(site) : undefined;
    return {
      range,
      severity: cause?.level === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
      source: DIAGNOSTIC_SOURCE,
      code: cause ? `${DIAGNOSTIC_SOURCE}/${cause.id}` : DIAGNOSTIC_CODE,
      message: `${KIND_MESSAGES[site.kind] ?? REWRITABLE_MESSAGE}${rewritable ? '' : `; not migrated automatically: ${site.reason}`}${site.deprecated ? `; ${site.deprecated}` : ''}`,
      ...(site.deprecated ? { tags: [DiagnosticTag.Deprecated] } : {}),
      data,
    } satisfies Diagnostic;
  });
}

export function isRewritable(d: Diagnostic): boolean {
  return d.source === DIAGNOSTIC_SOURCE && d.code === DIAGNOSTIC_CODE && (d.data as SiteData | undefined)?.outcome === 'rewritten';
}
