/**
 * A minimal LSP client for `mcp-migrate lsp` as a child process, speaking JSON-RPC over its stdio.
 * Used by the tests and the latency benchmark; editors bring their own client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type {
  ClientCapabilities,
  CodeAction,
  Command,
  PublishDiagnosticsParams,
  Range,
  TextDocumentContentChangeEvent,
  WorkspaceEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';

export interface LspClientOptions {
  cwd: string;
  initializationOptions?: unknown;
  /** Default: versioned edits with file creation, as VS Code has. */
  capabilities?: ClientCapabilities;
}

export class LspClient {
  private readonly published: PublishDiagnosticsParams[] = [];
  private readonly waiters: (() => void)[] = [];
  readonly stderr: string[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {
    connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.published.push(p);
      for (const w of this.waiters.splice(0)) w();
    });
    connection.onNotification('window/logMessage', () => {});
    // A server that dies publishes nothing more: whoever waits is told at once, not at their deadline.
    child.once('exit', () => {
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Spawn `command args` and initialize it. */
  static async start(command: string, args: string[], options: LspClientOptions): Promise<LspClient> {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspClient(child, connection);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => client.stderr.push(d));
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: options.capabilities ?? { workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } } },
      initializationOptions: options.initializationOptions,
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  async open(uri: string, text: string, languageId = 'typescript', version = 1): Promise<void> {
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  async change(uri: string, version: number, contentChanges: TextDocumentContentChangeEvent[]): Promise<void> {
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** The diagnostics published for `uri` at `version` (waits for them). */
  async diagnostics(uri: string, version: number, timeoutMs = 60_000): Promise<PublishDiagnosticsParams> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.published.find(p => p.uri === uri && p.version === version);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(
          `the server exited (${this.child.exitCode ?? this.child.signalCode}) before it published diagnostics for ${uri} v${version}; its stderr:\n${this.stderr.join('')}`,
        );
      if (Date.now() > deadline)
        throw new Error(`no diagnostics for ${uri} v${version} within ${timeoutMs} ms; server stderr:\n${this.stderr.join('')}`);
      await new Promise<void>(resolve => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  codeActions(
    uri: string,
    range: Range,
    only?: string[],
    diagnostics: PublishDiagnosticsParams['diagnostics'] = [],
  ): Promise<(CodeAction | Command)[]> {
    return this.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range,
      context: { diagnostics, ...(only ? { only } : {}) },
    });
  }

  /** shutdown + exit, then wait for the process to end. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>(resolve => {
      if (this.child.exitCode !== null) resolve(this.child.exitCode);
      else this.child.once('exit', code => resolve(code));
    });
    try {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
    } catch {
      this.child.kill();
    }
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}

/**
 * Apply a WorkspaceEdit as an editor would, to texts by URI (a missing URI is a file that does not
 * exist): versioned text edits, and file creation that honours `ignoreIfExists` / `overwrite`.
 */
export function applyWorkspaceEdit(edit: WorkspaceEdit, files: Map<string, string>): Map<string, string> {
  const out = new Map(files);
  const editText = (uri: string, edits: { range: Range; newText: string }[]): void => {
    const text = out.get(uri);
    if (text === undefined) throw new Error(`edit of ${uri}, which does not exist`);
    out.set(uri, TextDocument.applyEdits(TextDocument.create(uri, 'typescript', 0, text), edits));
  };
  for (const change of edit.documentChanges ?? []) {
    if ('kind' in change) {
      if (change.kind !== 'create') throw new Error(`unexpected resource operation ${change.kind}`);
      if (out.has(change.uri)) {
        if (change.options?.overwrite) out.set(change.uri, '');
        else if (!change.options?.ignoreIfExists) throw new Error(`create of ${change.uri}, which exists`);
      } else {
        out.set(change.uri, '');
      }
    } else {
      editText(
        change.textDocument.uri,
        change.edits.map(e => {
          if (!('newText' in e)) throw new Error('unexpected snippet edit');
          return e;
        }),
      );
    }
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) editText(uri, edits);
  return out;
}
