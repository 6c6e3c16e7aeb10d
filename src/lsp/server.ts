/**
 * `mcp-migrate lsp`: a language server on stdio. On open and (debounced) change of a TypeScript or
 * JavaScript document it runs the migration pipeline on the document's text and publishes a
 * diagnostic on every server-initiated request site: the analysis of the text as typed, without the
 * upgrade or the rewrite, which run only for a code action's edit. The source action applies the file's
 * migration, exactly what `mcp-migrate <file>` would write; the quick fix converts the one handler the
 * site is in. Their edits are computed when the client resolves the action (or at once for a client that
 * cannot). The last analysis and the last file migration per document version are cached.
 */
import { existsSync } from 'node:fs';
import { format } from 'node:util';
import {
  CodeActionKind,
  createConnection,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type CodeAction,
  type CodeActionParams,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
  type Range,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeDocument, fileEdits, handlerEdits, isRewritable, type DocumentAnalysis, type DocumentEdits } from './analyze.js';
import type { SiteData } from './siteData.js';
import { workspaceEdit, type EditCapabilities } from './edits.js';

/**
 * What a code action carries until it is resolved: the document version and, for a quick fix, the site
 * naming the handler (the source action has none: it migrates the file).
 */
interface ActionData {
  uri: string;
  version: number;
  line?: number;
  column?: number;
}

export const MIGRATE_FILE_KIND = 'source.migrateToMcp2026';
export const MIGRATE_FILE_TITLE = 'Migrate this file to MCP 2026-07-28';
/** The quick fix converts only the handler the site is in (with the server wiring it needs). */
export const QUICK_FIX_TITLE = 'Convert handler to input_required';

const LANGUAGES = new Set(['typescript', 'javascript', 'typescriptreact', 'javascriptreact']);

export interface LanguageServerOptions {
  /**
   * Quiet period after the last change before a document is analysed again (ms). Default 150: a re-analysis
   * of what an edit touched takes a fraction of that on a 2,000-line file, so the quiet period was most of
   * the wait for diagnostics after an edit (300 ms of about 500 ms measured).
   */
  debounceMs?: number;
}

export function startLanguageServer(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
  options: LanguageServerOptions = {},
): Connection {
  // Streams (not readers): the connection then exits when the client closes stdin.
  const connection = createConnection(input, output);
  if (output === process.stdout) {
    // stdout carries the protocol: anything a dependency logs goes to stderr instead.
    const toStderr = (...args: unknown[]): void => void process.stderr.write(`${format(...args)}\n`);
    console.log = console.info = console.debug = console.warn = toStderr;
  }
  new MigrationServer(connection, options.debounceMs ?? 150).listen();
  return connection;
}

/** The documents a client has open, their analyses and migrations, and the requests the client sends about them. */
class MigrationServer {
  private readonly documents = new TextDocuments(TextDocument);
  private caps: EditCapabilities & { resolveEdit: boolean } = { documentChanges: false, createFiles: false, resolveEdit: false };
  private readonly cache = new Map<string, DocumentAnalysis>();
  private readonly migrations = new Map<string, { version: number; done: Promise<DocumentEdits> }>();
  private readonly running = new Map<string, { version: number; done: Promise<DocumentAnalysis | undefined> }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** TextDocuments reports an open as an open followed by a content change: an opened document is analysed at once. */
  private readonly opened = new Set<string>();
  // One pipeline run at a time: it is CPU-bound, and runs for stale versions are dropped.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connection: Connection,
    private debounceMs: number,
  ) {}

  listen(): void {
    const { connection, documents } = this;
    connection.onInitialize(params => this.initialize(params));
    documents.onDidOpen(e => this.opened.add(e.document.uri));
    documents.onDidChangeContent(e => this.schedule(e.document, this.opened.delete(e.document.uri) ? 0 : this.debounceMs));
    documents.onDidClose(e => this.close(e.document.uri));
    connection.onCodeAction((params, token) => this.codeActions(params, token));
    connection.onCodeActionResolve(action => this.resolveAction(action));
    connection.onShutdown(() => {
      for (const t of this.timers.values()) clearTimeout(t);
      this.timers.clear();
    });
    documents.listen(connection);
    connection.listen();
  }

  private initialize(params: InitializeParams): InitializeResult {
    const workspace = params.capabilities.workspace?.workspaceEdit;
    this.caps = {
      documentChanges: workspace?.documentChanges === true,
      createFiles: workspace?.documentChanges === true && (workspace.resourceOperations ?? []).includes('create'),
      resolveEdit: params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true,
    };
    const init = params.initializationOptions as { debounceMs?: unknown } | undefined;
    if (typeof init?.debounceMs === 'number' && init.debounceMs >= 0) this.debounceMs = init.debounceMs;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source, MIGRATE_FILE_KIND], resolveProvider: true },
      },
      serverInfo: { name: 'mcp-migrate' },
    };
  }

  private close(uri: string): void {
    this.opened.delete(uri);
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.cache.delete(uri);
    this.migrations.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private wanted(doc: TextDocument): boolean {
    return LANGUAGES.has(doc.languageId) || /\.[mc]?[jt]sx?$/.test(doc.uri);
  }

  /** The analysis of `doc` at its current version: from the cache, the run under way, or a new run. */
  private analysisOf(doc: TextDocument): Promise<DocumentAnalysis | undefined> {
    const cached = this.cache.get(doc.uri);
    if (cached?.version === doc.version) return Promise.resolve(cached);
    const current = this.running.get(doc.uri);
    if (current?.version === doc.version) return current.done;
    clearTimeout(this.timers.get(doc.uri));
    this.timers.delete(doc.uri);
    const version = doc.version;
    const done = this.queue.then(() => this.analyse(doc.uri, version));
    this.queue = done;
    this.running.set(doc.uri, { version, done });
    return done;
  }

  /** One run of the analysis of a document at `version`, published; none where the document has moved on. */
  private async analyse(uri: string, version: number): Promise<DocumentAnalysis | undefined> {
    const latest = this.documents.get(uri);
    if (!latest || latest.version !== version) return undefined;
    try {
      const result = await analyzeDocument(latest, this.cache.get(uri));
      if (this.documents.get(uri)?.version !== version) return result;
      // A failure is cached too: code actions on text that does not parse must not re-run the pipeline.
      this.cache.set(uri, result);
      if (result.failure) this.connection.console.log(`mcp-migrate: ${uri} v${version} not analysed: ${result.failure}`);
      // Text that does not parse publishes nothing: the last diagnostics stay until it parses again.
      else void this.connection.sendDiagnostics({ uri, version, diagnostics: result.diagnostics });
      return result;
    } catch (error) {
      this.connection.console.error(`mcp-migrate: analysis of ${uri} failed: ${(error as Error)?.stack ?? String(error)}`);
      return undefined;
    } finally {
      if (this.running.get(uri)?.version === version) this.running.delete(uri);
    }
  }

  /** Runs `work` after the pipeline runs queued before it. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** The file's migration at `doc`'s version, run once per version. */
  private migrationOf(doc: TextDocument): Promise<DocumentEdits> {
    const current = this.migrations.get(doc.uri);
    if (current?.version === doc.version) return current.done;
    const done = this.enqueue(() => fileEdits(doc));
    this.migrations.set(doc.uri, { version: doc.version, done });
    return done;
  }

  private schedule(doc: TextDocument, delay: number): void {
    if (!this.wanted(doc)) return;
    clearTimeout(this.timers.get(doc.uri));
    this.timers.set(
      doc.uri,
      setTimeout(() => {
        this.timers.delete(doc.uri);
        const latest = this.documents.get(doc.uri);
        if (latest) void this.analysisOf(latest);
      }, delay),
    );
  }

  private async codeActions(params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
    const doc = this.documents.get(params.textDocument.uri);
    if (!doc || !this.wanted(doc)) return [];
    // A request that waits for a running analysis gives up when the client cancels it (the cursor moved on).
    const analysis = await Promise.race([
      this.analysisOf(doc),
      new Promise<undefined>(resolve => {
        if (token.isCancellationRequested) resolve(undefined);
        token.onCancellationRequested(() => resolve(undefined));
      }),
    ]);
    if (!analysis || analysis.failure || analysis.version !== doc.version || !analysis.migratable) return [];
    const only = params.context.only;
    const asked = (kind: string): boolean => !only || only.some(o => kind === o || kind.startsWith(`${o}.`));
    const offered = [
      ...(asked(CodeActionKind.QuickFix) ? quickFixes(doc, analysis, params.range) : []),
      ...(asked(MIGRATE_FILE_KIND) ? [fileAction(doc, analysis)] : []),
    ];
    const actions: CodeAction[] = [];
    // A client that cannot resolve gets the edit at once, and no action when there is nothing to edit.
    for (const action of offered) {
      const ready = this.caps.resolveEdit ? action : await this.resolveAction(action);
      if (ready.edit || this.caps.resolveEdit) actions.push(ready);
    }
    return actions;
  }

  /** Computes an action's edit: the file's migration, or the run restricted to the quick fix's handler. */
  private async resolveAction(action: CodeAction): Promise<CodeAction> {
    const data = action.data as ActionData | undefined;
    const doc = data && this.documents.get(data.uri);
    if (!data || !doc || doc.version !== data.version) return action;
    const at = data.line !== undefined && data.column !== undefined ? { line: data.line, column: data.column } : undefined;
    const { edits, created } = await (at ? this.enqueue(() => handlerEdits(doc, at)) : this.migrationOf(doc));
    if (edits.length === 0) return action;
    // Never over an existing file, even one created since the run.
    return {
      ...action,
      edit: workspaceEdit(
        doc,
        edits,
        created.filter(f => !existsSync(f.path)),
        this.caps,
      ),
    };
  }
}

/** One quick fix per handler with a site under the cursor (an HTTP entry is moved with the whole file, by the source action). */
function quickFixes(doc: TextDocument, analysis: DocumentAnalysis, range: Range): CodeAction[] {
  const here = analysis.diagnostics.filter(d => isRewritable(d) && (d.data as SiteData).kind !== 'entry' && overlaps(d.range, range));
  const byHandler = new Map<string, Diagnostic[]>();
  for (const d of here) {
    const key = (d.data as SiteData).handler ?? `${(d.data as SiteData).line}`;
    byHandler.set(key, [...(byHandler.get(key) ?? []), d]);
  }
  return [...byHandler.values()].map(diagnostics => {
    const site = diagnostics[0]!.data as SiteData;
    const data: ActionData = { uri: doc.uri, version: doc.version, line: site.line, column: site.column };
    return { title: QUICK_FIX_TITLE, kind: CodeActionKind.QuickFix, diagnostics, isPreferred: true, data };
  });
}

/** The source action that migrates the whole file. */
function fileAction(doc: TextDocument, analysis: DocumentAnalysis): CodeAction {
  const data: ActionData = { uri: doc.uri, version: doc.version };
  return { title: MIGRATE_FILE_TITLE, kind: MIGRATE_FILE_KIND, diagnostics: analysis.diagnostics.filter(isRewritable), data };
}

function before(a: { line: number; character: number }, b: { line: number; character: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Ranges touch or overlap (an empty range at a diagnostic's edge counts: that is where the cursor is). */
function overlaps(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}
