/**
 * The VS Code side of mcp-migrate: starts `mcp-migrate lsp` (the project's installed CLI, or the one
 * `mcpMigrate.serverPath` names) and adds the command "MCP: Migrate file to 2026-07-28", which applies
 * the server's `source.migrateToMcp2026` action to the active file. Everything else (diagnostics,
 * quick fixes) comes from the language server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

const MIGRATE_FILE_KIND = 'source.migrateToMcp2026';
const LANGUAGES = ['typescript', 'javascript', 'typescriptreact', 'javascriptreact'];

let client: LanguageClient | undefined;

/** The CLI entry of the mcp-migrate package installed in (or being developed in) a workspace folder. */
function cliInWorkspace(): string | undefined {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = folder.uri.fsPath;
    const installed = path.join(root, 'node_modules', 'mcp-migrate', 'dist', 'src', 'cli.js');
    if (fs.existsSync(installed)) return installed;
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: string };
      const own = path.join(root, 'dist', 'src', 'cli.js');
      if (pkg.name === 'mcp-migrate' && fs.existsSync(own)) return own;
    } catch {
      // no package.json, or not JSON: keep looking
    }
  }
  return undefined;
}

function configuredPath(): string | undefined {
  const raw = vscode.workspace.getConfiguration('mcpMigrate').get<string>('serverPath', '').trim();
  if (!raw) return undefined;
  const expanded = raw.startsWith('~') ? path.join(os.homedir(), raw.slice(1)) : raw;
  const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  return path.resolve(base, expanded);
}

function serverOptions(): ServerOptions {
  const cli = configuredPath() ?? cliInWorkspace();
  // A JavaScript entry runs on the Node.js that VS Code ships; anything else is an executable (default: on the PATH).
  if (cli && /\.[mc]?js$/.test(cli)) return { module: cli, args: ['lsp'], transport: TransportKind.stdio };
  return { command: cli ?? 'mcp-migrate', args: ['lsp'], transport: TransportKind.stdio, options: { shell: process.platform === 'win32' } };
}

async function migrateActiveFile(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !LANGUAGES.includes(editor.document.languageId)) {
    void vscode.window.showInformationMessage('mcp-migrate: open a TypeScript or JavaScript file first.');
    return;
  }
  const doc = editor.document;
  const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, whole, MIGRATE_FILE_KIND);
  const action = actions?.find(a => a.kind?.value === MIGRATE_FILE_KIND && a.edit);
  if (!action?.edit) {
    void vscode.window.showInformationMessage('mcp-migrate: nothing to migrate in this file.');
    return;
  }
  if (!(await vscode.workspace.applyEdit(action.edit))) {
    void vscode.window.showWarningMessage('mcp-migrate: the edit was not applied (the file changed meanwhile?); try again.');
    return;
  }
  void vscode.window.showInformationMessage(
    'mcp-migrate: migrated. Set MCP_REQUEST_STATE_KEY (at least 32 bytes) before starting the server, and add @modelcontextprotocol/server 2.x to package.json.',
  );
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGES.map(language => ({ scheme: 'file', language })),
  };
  client = new LanguageClient('mcpMigrate', 'mcp-migrate', serverOptions(), clientOptions);
  context.subscriptions.push(vscode.commands.registerCommand('mcpMigrate.migrateFile', migrateActiveFile));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async e => {
      if (!e.affectsConfiguration('mcpMigrate.serverPath') || !client) return;
      await client.stop();
      client = new LanguageClient('mcpMigrate', 'mcp-migrate', serverOptions(), clientOptions);
      await client.start();
    }),
  );
  try {
    await client.start();
  } catch (error) {
    void vscode.window.showErrorMessage(
      `mcp-migrate: could not start the language server (${(error as Error).message}). Install mcp-migrate in the workspace or set mcpMigrate.serverPath.`,
    );
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
