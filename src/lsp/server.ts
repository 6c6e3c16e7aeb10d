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
  const documents = new TextDocuments(TextDocument);
  let debounceMs = options.debounceMs ?? 150;
  let caps: EditCapabilities & { resolveEdit: boolean } = { documentChanges: false, createFiles: false, resolveEdit: false };

  const cache = new Map<string, DocumentAnalysis>();
  const migrations = new Map<string, { version: number; done: Promise<DocumentEdits> }>();
  const running = new Map<string, { version: number; done: Promise<DocumentAnalysis | undefined> }>();
  const timers = new Map<string, NodeJS.Timeout>();
  // One pipeline run at a time: it is CPU-bound, and runs for stale versions are dropped.
  let queue: Promise<unknown> = Promise.resolve();

  const wanted = (doc: TextDocument): boolean => LANGUAGES.has(doc.languageId) || /\.[mc]?[jt]sx?$/.test(doc.uri);

  /** The analysis of `doc` at its current version: from the cache, the run under way, or a new run. */
  function analysisOf(doc: TextDocument): Promise<DocumentAnalysis | undefined> {
    const cached = cache.get(doc.uri);
    if (cached?.version === doc.version) return Promise.resolve(cached);
    const current = running.get(doc.uri);
    if (current?.version === doc.version) return current.done;
    clearTimeout(timers.get(doc.uri));
    timers.delete(doc.uri);
    const version = doc.version;
    const done = queue.then(async () => {
      const latest = documents.get(doc.uri);
      if (!latest || latest.version !== version) return undefined;
      try {
        const result = await analyzeDocument(latest, cache.get(doc.uri));
        if (documents.get(doc.uri)?.version !== version) return result;
        // A failure is cached too: code actions on text that does not parse must not re-run the pipeline.
        cache.set(doc.uri, result);
        if (result.failure) connection.console.log(`mcp-migrate: ${doc.uri} v${version} not analysed: ${result.failure}`);
        // Text that does not parse publishes nothing: the last diagnostics stay until it parses again.
        else void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics: result.diagnostics });
        return result;
      } catch (error) {
        connection.console.error(`mcp-migrate: analysis of ${doc.uri} failed: ${(error as Error)?.stack ?? String(error)}`);
        return undefined;
      } finally {
        if (running.get(doc.uri)?.version === version) running.delete(doc.uri);
      }
    });
    queue = done;
    running.set(doc.uri, { version, done });
    return done;
  }

  /** Runs `work` after the pipeline runs queued before it. */
  function enqueue<T>(work: () => Promise<T>): Promise<T> {
    const done = queue.then(work);
    queue = done.catch(() => undefined);
    return done;
  }

  /** The file's migration at `doc`'s version, run once per version. */
  function migrationOf(doc: TextDocument): Promise<DocumentEdits> {
    const current = migrations.get(doc.uri);
    if (current?.version === doc.version) return current.done;
    const done = enqueue(() => fileEdits(doc));
    migrations.set(doc.uri, { version: doc.version, done });
    return done;
  }

  function schedule(doc: TextDocument, delay: number): void {
    if (!wanted(doc)) return;
    clearTimeout(timers.get(doc.uri));
    timers.set(
      doc.uri,
      setTimeout(() => {
        timers.delete(doc.uri);
        const latest = documents.get(doc.uri);
        if (latest) void analysisOf(latest);
      }, delay),
    );
  }

  connection.onInitialize(params => {
    const workspace = params.capabilities.workspace?.workspaceEdit;
    caps = {
      documentChanges: workspace?.documentChanges === true,
      createFiles: workspace?.documentChanges === true && (workspace.resourceOperations ?? []).includes('create'),
      resolveEdit: params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true,
    };
    const init = params.initializationOptions as { debounceMs?: unknown } | undefined;
    if (typeof init?.debounceMs === 'number' && init.debounceMs >= 0) debounceMs = init.debounceMs;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source, MIGRATE_FILE_KIND], resolveProvider: true },
      },
      serverInfo: { name: 'mcp-migrate' },
    };
  });

  // TextDocuments reports an open as an open followed by a content change: analyse an opened document at once.
  const opened = new Set<string>();
  documents.onDidOpen(e => opened.add(e.document.uri));
  documents.onDidChangeContent(e => schedule(e.document, opened.delete(e.document.uri) ? 0 : debounceMs));
  documents.onDidClose(e => {
    opened.delete(e.document.uri);
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    cache.delete(e.document.uri);
    migrations.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onCodeAction(async (params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !wanted(doc)) return [];
    // A request that waits for a running analysis gives up when the client cancels it (the cursor moved on).
    const analysis = await Promise.race([
      analysisOf(doc),
      new Promise<undefined>(resolve => {
        if (token.isCancellationRequested) resolve(undefined);
        token.onCancellationRequested(() => resolve(undefined));
      }),
    ]);
    if (!analysis || analysis.failure || analysis.version !== doc.version || !analysis.migratable) return [];
    const only = params.context.only;
    const asked = (kind: string): boolean => !only || only.some(o => kind === o || kind.startsWith(`${o}.`));
    const actions: CodeAction[] = [];
    // A client that cannot resolve gets the edit at once, and no action when there is nothing to edit.
    const offer = async (action: CodeAction): Promise<void> => {
      const ready = caps.resolveEdit ? action : await resolveAction(action);
      if (ready.edit || caps.resolveEdit) actions.push(ready);
    };
    if (asked(CodeActionKind.QuickFix)) {
      // An HTTP entry is moved with the whole file (source action), not as a handler.
      const here = analysis.diagnostics.filter(
        d => isRewritable(d) && (d.data as SiteData).kind !== 'entry' && overlaps(d.range, params.range),
      );
      // One action per handler under the cursor.
      const byHandler = new Map<string, Diagnostic[]>();
      for (const d of here) {
        const key = (d.data as SiteData).handler ?? `${(d.data as SiteData).line}`;
        byHandler.set(key, [...(byHandler.get(key) ?? []), d]);
      }
      for (const diagnostics of byHandler.values()) {
        const site = diagnostics[0]!.data as SiteData;
        const data: ActionData = { uri: doc.uri, version: doc.version, line: site.line, column: site.column };
        await offer({ title: QUICK_FIX_TITLE, kind: CodeActionKind.QuickFix, diagnostics, isPreferred: true, data });
      }
    }
    if (asked(MIGRATE_FILE_KIND)) {
      const diagnostics: Diagnostic[] = analysis.diagnostics.filter(isRewritable);
      const data: ActionData = { uri: doc.uri, version: doc.version };
      await offer({ title: MIGRATE_FILE_TITLE, kind: MIGRATE_FILE_KIND, diagnostics, data });
    }
    return actions;
  });

  /** Computes an action's edit: the file's migration, or the run restricted to the quick fix's handler. */
  async function resolveAction(action: CodeAction): Promise<CodeAction> {
    const data = action.data as ActionData | undefined;
    const doc = data && documents.get(data.uri);
    if (!data || !doc || doc.version !== data.version) return action;
    const at = data.line !== undefined && data.column !== undefined ? { line: data.line, column: data.column } : undefined;
    const { edits, created } = await (at ? enqueue(() => handlerEdits(doc, at)) : migrationOf(doc));
    if (edits.length === 0) return action;
    // Never over an existing file, even one created since the run.
    return {
      ...action,
      edit: workspaceEdit(
        doc,
        edits,
        created.filter(f => !existsSync(f.path)),
        caps,
      ),
    };
  }
  connection.onCodeActionResolve(resolveAction);

  connection.onShutdown(() => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}

function before(a: { line: number; character: number }, b: { line: number; character: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Ranges touch or overlap (an empty range at a diagnostic's edge counts: that is where the cursor is). */
function overlaps(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}
