/**
 * `mcp-migrate lsp` as an editor runs it: the built CLI as a child process, LSP over its stdio.
 * Diagnostics land on the server-initiated request sites of the document as typed (not of the
 * codemod-upgraded text the pipeline analyses), and applying a code action's edit gives exactly what
 * the CLI's pipeline writes for the same file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DiagnosticSeverity,
  type CodeAction,
  type Command,
  type CreateFile,
  type Diagnostic,
  type Range,
  type TextDocumentEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspaceEdit, LspClient } from '../src/lsp/client.js';
import { migrateSources } from '../src/pipeline.js';
import { causeOf } from '../src/tables/causes.js';
import { assertBuilt, CLI, REPO } from './cli-helpers.js';

const work = path.join(REPO, '.tmp', 'lsp-test');
const CODE = 'mcp-migrate/server-initiated-request';
const REWRITABLE = 'server-initiated request: removed in MCP 2026-07-28';
const CAPABILITIES = 'client capabilities: a 2026-07-28 client declares them with each request, not at initialize';
const CONNECTION = "initialize: a 2026-07-28 client never sends it; each request carries the client's identity and revision instead";
const ENTRY = 'serving entry: MCP 2026-07-28 clients reach a server through serveStdio or, over HTTP, createMcpHandler';
const QUICK_FIX = 'Convert handler to input_required';
const SOURCE_ACTION = 'Migrate this file to MCP 2026-07-28';

let client: LspClient;

/** A fixture copied into its own directory (so the requestState module goes there), opened in the server. */
async function openFixture(name: string, options: { existingStateModule?: string; prefix?: string } = {}) {
  const dir = path.join(
    work,
    name + (options.existingStateModule !== undefined ? '-existing-state' : '') + (options.prefix ? '-prefixed' : ''),
  );
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const text = (options.prefix ?? '') + fs.readFileSync(path.join(REPO, '__testfixtures__', `${name}.input.ts`), 'utf8');
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(file, text);
  if (options.existingStateModule !== undefined) fs.writeFileSync(path.join(dir, 'mcp-migrate-state.ts'), options.existingStateModule);
  const uri = pathToFileURL(file).href;
  await client.open(uri, text);
  const published = await client.diagnostics(uri, 1);
  return { dir, file, uri, text, doc: TextDocument.create(uri, 'typescript', 1, text), diagnostics: published.diagnostics };
}

const actionsOnly = (list: (CodeAction | Command)[]): CodeAction[] => list.filter((a): a is CodeAction => 'edit' in a || 'kind' in a);
const rangeText = (doc: TextDocument, r: Range) => doc.getText(r);

beforeAll(async () => {
  assertBuilt();
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  client = await LspClient.start(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: work, initializationOptions: { debounceMs: 50 } });
});

afterAll(async () => {
  if (client) expect(await client.stop()).toBe(0);
});

describe('mcp-migrate lsp', () => {
  it('publishes a warning on a rewritable site, and its quick fix and source action apply what the CLI writes', async () => {
    const { file, uri, text, doc, diagnostics, dir } = await openFixture('elicit-form');
    expect(diagnostics).toHaveLength(1);
    const d = diagnostics[0]!;
    expect(d).toMatchObject({ severity: 2, source: 'mcp-migrate', code: CODE, message: REWRITABLE });
    expect(rangeText(doc, d.range)).toBe('server.server.elicitInput');
    expect(d.range.start).toEqual({ line: 8, character: 23 });

    const expected = await migrateSources([{ path: file, text }], { cwd: dir });
    const after = expected.changes.find(c => c.path === file)!.after;
    const stateModule = expected.changes.find(c => c.before === null)!;
    expect(stateModule.path).toBe(path.join(dir, 'mcp-migrate-state.ts'));
    const stateUri = pathToFileURL(stateModule.path).href;

    // The cursor inside the diagnostic: the quick fix is there.
    const cursor = { start: { line: 8, character: 30 }, end: { line: 8, character: 30 } };
    const quick = actionsOnly(await client.codeActions(uri, cursor, ['quickfix'], [d]));
    expect(quick.map(a => [a.title, a.kind])).toEqual([[QUICK_FIX, 'quickfix']]);
    expect(quick[0]!.diagnostics).toEqual([d]);

    const source = actionsOnly(await client.codeActions(uri, cursor, ['source']));
    expect(source.map(a => [a.title, a.kind])).toEqual([[SOURCE_ACTION, 'source.migrateToMcp2026']]);
    const sameKind = actionsOnly(await client.codeActions(uri, cursor, ['source.migrateToMcp2026']));
    expect(sameKind.map(a => a.title)).toEqual([SOURCE_ACTION]);

    for (const action of [quick[0]!, source[0]!]) {
      const changes = action.edit!.documentChanges!;
      // The document edit is versioned, so an editor refuses it once the text has moved on.
      expect((changes[0] as TextDocumentEdit).textDocument).toEqual({ uri, version: 1 });
      expect(changes[1]).toEqual({
        kind: 'create',
        uri: stateUri,
        options: { ignoreIfExists: true, overwrite: false },
      } satisfies CreateFile);
      const applied = applyWorkspaceEdit(action.edit!, new Map([[uri, text]]));
      expect(applied.get(uri)).toBe(after);
      expect(applied.get(stateUri)).toBe(stateModule.after);
      // Minimal edits, not one replacement of the whole text.
      expect((changes[0] as TextDocumentEdit).edits.length).toBeGreaterThan(1);
    }
    await client.close(uri);
  });

  it('converts only the handler under the cursor, resolving the edit when the client asks for it', async () => {
    const { file, uri, text, doc, dir, diagnostics } = await openFixture('loops-and-try');
    const countdown = diagnostics.find(d => rangeText(doc, d.range) === 'server.server.createMessage' && d.range.start.line < 30)!;
    const [action] = actionsOnly(await client.codeActions(uri, countdown.range, ['quickfix'], [countdown]));
    expect(action!.title).toBe(QUICK_FIX);
    const expected = await migrateSources([{ path: file, text }], {
      cwd: dir,
      onlyHandlerAt: { path: file, line: countdown.range.start.line + 1, column: countdown.range.start.character + 1 },
    });
    const after = expected.changes.find(c => c.path === file)!.after;
    expect(applyWorkspaceEdit(action!.edit!, new Map([[uri, text]])).get(uri)).toBe(after);
    // Only countdown's handler is migrated; the other handlers keep their requests as they are.
    expect(after.match(/resumable\(server\)/g)).toHaveLength(1);
    expect(after).toContain("resumable(server).registerTool('countdown',");
    expect(after).toContain("await ask(server.server, 'line').createMessage({");
    expect(after).toContain('await server.server.elicitInput({');
    expect(
      expected.report.sites
        .filter(s => s.outcome === 'skipped')
        .map(s => s.handler)
        .sort(),
    ).toEqual(['tools/call careful', 'tools/call insist', 'tools/call survey']);
    await client.close(uri);

    // A client that can resolve code actions gets the action at once and its edit on resolve.
    const resolving = await LspClient.start(process.execPath, [CLI, 'lsp', '--stdio'], {
      cwd: work,
      initializationOptions: { debounceMs: 50 },
      capabilities: {
        workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } },
        textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } },
      },
    });
    await resolving.open(uri, text);
    const [d] = (await resolving.diagnostics(uri, 1)).diagnostics.filter(x => x.range.start.line === countdown.range.start.line);
    const [lazy] = actionsOnly(await resolving.codeActions(uri, d!.range, ['quickfix'], [d!]));
    expect(lazy!.edit).toBeUndefined();
    const resolved = (await resolving.connection.sendRequest('codeAction/resolve', lazy)) as CodeAction;
    expect(applyWorkspaceEdit(resolved.edit!, new Map([[uri, text]])).get(uri)).toBe(after);
    await resolving.close(uri);
    expect(await resolving.stop()).toBe(0);
  }, 600_000);

  it('never creates the requestState module over an existing one', async () => {
    const { file, uri, text, dir, diagnostics } = await openFixture('elicit-form', { existingStateModule: '// my own state module\n' });
    const [action] = actionsOnly(await client.codeActions(uri, diagnostics[0]!.range, ['source']));
    expect(action!.edit!.documentChanges).toHaveLength(1);
    const expected = await migrateSources([{ path: file, text }], { cwd: dir });
    expect(expected.changes.map(c => c.path)).toEqual([file]);
    expect(applyWorkspaceEdit(action!.edit!, new Map([[uri, text]])).get(uri)).toBe(expected.changes[0]!.after);
    await client.close(uri);
  });

  it('gives a marked site a diagnostic with the reason and no quick fix', async () => {
    const { file, uri, text, doc, dir, diagnostics } = await openFixture('marked-only');
    const expected = await migrateSources([{ path: file, text }], { cwd: dir });
    const sites = expected.report.sites;
    // Every request is marked (the capability read, outside a request, becomes clientCapabilities(...), as before there).
    expect(sites.filter(s => s.kind === 'elicitation' || s.kind === 'roots').map(s => s.outcome)).toEqual(['marked', 'marked']);
    // Each range is the reported callee as the document spells it (the codemod's `ctx.mcpReq.send` was `extra.sendRequest`).
    const method = (callee: string) =>
      callee
        .replace(/\(\.\.\.\)$| = \.\.\.$/, '')
        .split('.')
        .pop()!
        .replace(/^sendRequest$/, 'send');
    expect(diagnostics).toHaveLength(sites.length);
    diagnostics.forEach((d, i) => {
      expect(rangeText(doc, d.range)).toMatch(/^[\w$]+(\.[\w$]+)+$/);
      expect(method(rangeText(doc, d.range))).toBe(method(sites[i]!.call));
    });
    expect(diagnostics.slice(0, 3).map(d => [rangeText(doc, d.range), d.range.start.line])).toEqual([
      ['server.server.oninitialized', 8],
      ['server.server.listRoots', 9],
      ['server.server.elicitInput', 14],
    ]);
    diagnostics.forEach((d, i) => {
      // A site left is coded by its cause, at the cause's level (docs/causes.md); one to rewrite by the request.
      const cause = sites[i]!.outcome === 'rewritten' ? undefined : causeOf(sites[i]!);
      expect(d.code).toBe(cause ? `mcp-migrate/${cause.id}` : CODE);
      expect(d.severity).toBe(cause?.level === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning);
      const headline = { entry: ENTRY, capabilities: CAPABILITIES, connection: CONNECTION }[sites[i]!.kind as string] ?? REWRITABLE;
      const left = sites[i]!.outcome === 'rewritten' ? '' : `; not migrated automatically: ${sites[i]!.reason}`;
      expect(d.message).toBe(`${headline}${left}${sites[i]!.deprecated ? `; ${sites[i]!.deprecated}` : ''}`);
    });
    expect(diagnostics[0]!.message).toMatch(/oninitialized/);

    for (const [i, d] of diagnostics.entries()) {
      if (sites[i]!.outcome === 'marked') expect(actionsOnly(await client.codeActions(uri, d.range, ['quickfix'], [d]))).toEqual([]);
    }
    // The file's migration still exists (it writes the `// mcp-migrate:` markers, and reads capabilities through the
    // requestState module, which it creates) and matches the CLI's.
    const [source] = actionsOnly(await client.codeActions(uri, diagnostics[0]!.range, ['source']));
    expect(source!.title).toBe(SOURCE_ACTION);
    expect(source!.edit!.documentChanges!.filter(c => 'kind' in c && c.kind === 'create')).toHaveLength(
      expected.changes.filter(c => c.before === null).length,
    );
    expect(applyWorkspaceEdit(source!.edit!, new Map([[uri, text]])).get(uri)).toBe(expected.changes.find(c => c.path === file)!.after);
    await client.close(uri);
  });

  it('places diagnostics on the text as typed when the official codemod rewrote the call', async () => {
    // The pipeline analyses `ctx.mcpReq.send(...)`; the document says `extra.sendRequest(...)`.
    const { doc, diagnostics } = await openFixture('extra-send-request');
    expect(diagnostics.map(d => [rangeText(doc, d.range), d.range.start.line])).toEqual([
      ['extra.sendRequest', 7],
      ['extra.sendRequest', 12],
    ]);
    await client.close(doc.uri);
  });

  it('places diagnostics right in a file with a shebang, and its edit keeps the shebang', async () => {
    const { file, dir, uri, text, doc, diagnostics } = await openFixture('v2-push-style', { prefix: '#!/usr/bin/env node\n' });
    expect(diagnostics.map(d => [rangeText(doc, d.range), d.range.start.line])).toEqual([
      ['ctx.mcpReq.elicitInput', 7],
      ['ctx.mcpReq.requestSampling', 12],
    ]);
    const expected = await migrateSources([{ path: file, text }], { cwd: dir });
    const [action] = actionsOnly(await client.codeActions(uri, diagnostics[1]!.range, ['quickfix']));
    const applied = applyWorkspaceEdit(action!.edit!, new Map([[uri, text]])).get(uri)!;
    expect(applied).toBe(expected.changes.find(c => c.path === file)!.after);
    expect(applied.startsWith('#!/usr/bin/env node\n')).toBe(true);
    await client.close(uri);
  });

  it('re-analyses after a change, and answers code actions for the new version only', async () => {
    const { uri, text, diagnostics } = await openFixture('elicit-form');
    const at = diagnostics[0]!.range;
    const header = '// a comment\n// another\n';
    await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: header }]);
    const moved = (await client.diagnostics(uri, 2)).diagnostics;
    expect(moved.map((d: Diagnostic) => d.range)).toEqual([
      { start: { line: at.start.line + 2, character: at.start.character }, end: { line: at.end.line + 2, character: at.end.character } },
    ]);
    const [action] = actionsOnly(await client.codeActions(uri, moved[0]!.range, ['quickfix']));
    expect((action!.edit!.documentChanges![0] as TextDocumentEdit).textDocument.version).toBe(2);
    expect(applyWorkspaceEdit(action!.edit!, new Map([[uri, header + text]])).get(uri)).toMatch(
      /^\/\/ a comment\n\/\/ another\n[\s\S]*await ask\(server\.server, 'answer'\)\.elicitInput\(/,
    );

    // Text that does not parse: nothing new is published and nothing is offered.
    await client.change(uri, 3, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'const = ;\n' }]);
    expect(await client.codeActions(uri, moved[0]!.range)).toEqual([]);
    await client.close(uri);
  });

  it('after an edit inside one handler, publishes what an analysis of the whole new text finds', async () => {
    const { file, uri, text, dir, diagnostics } = await openFixture('loops-and-try');
    // Two lines into countdown's handler (line 23, 1-based): its site moves, so do those of the handlers after it.
    const insert = { start: { line: 22, character: 0 }, end: { line: 22, character: 0 } };
    const added = '  const note = "edited";\n  void note;\n';
    await client.change(uri, 2, [{ range: insert, text: added }]);
    const now = (await client.diagnostics(uri, 2)).diagnostics;
    const lines = text.split('\n');
    const edited = [...lines.slice(0, 22), ...added.split('\n').slice(0, 2), ...lines.slice(22)].join('\n');
    const whole = await migrateSources([{ path: file, text: edited }], { cwd: dir, sitesOnly: true });
    expect(now).toHaveLength(diagnostics.length);
    expect(now.map(d => [d.range.start.line + 1, d.range.start.character + 1, (d.data as { line: number }).line])).toEqual(
      whole.report.sites.map(s => [s.line, s.column, s.line]),
    );
    expect(now.map(d => d.message)).toEqual(diagnostics.map(d => d.message));
    await client.close(uri);
  });

  it('has nothing to say about a file it migrated', async () => {
    const { file, uri, text, dir } = await openFixture('elicit-form', { prefix: '// migrated below\n' });
    await client.close(uri);
    const expected = await migrateSources([{ path: file, text }], { cwd: dir });
    for (const c of expected.changes) fs.writeFileSync(c.path, c.after);
    const migrated = expected.changes.find(c => c.path === file)!.after;
    await client.open(uri, migrated, 'typescript', 5);
    expect((await client.diagnostics(uri, 5)).diagnostics).toEqual([]);
    expect(await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } })).toEqual([]);
    await client.close(uri);
  });

  it('leaves a file without MCP code alone', async () => {
    const uri = pathToFileURL(path.join(work, 'plain.ts')).href;
    await client.open(uri, 'export const add = (a: number, b: number) => a + b;\n');
    expect((await client.diagnostics(uri, 1)).diagnostics).toEqual([]);
    expect(await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } })).toEqual([]);
    await client.close(uri);
  });
});
