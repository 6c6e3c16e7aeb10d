/**
 * The language server's analysis in process (src/lsp/analyze.ts), where its speed-ups must not change
 * what it finds: a re-analysis after successive edits (the registrations of the last text are kept
 * from one edit to the next) publishes what an analysis of the whole new text does, and the names a
 * file takes are found as ts-morph finds them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Project, SyntaxKind, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { identifierTexts } from '../src/analysis/names.js';
import { analysisProject, needsNodeDeclarations } from '../src/analysis/project.js';
import { analyzeDocument, type DocumentAnalysis } from '../src/lsp/analyze.js';

const REPO = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.join(REPO, '__testfixtures__');

const summary = (a: DocumentAnalysis) => a.diagnostics.map(d => ({ range: d.range, message: d.message, data: d.data }));

describe('LSP analysis', () => {
  it('after successive edits, each re-analysis finds what an analysis of the whole text finds', async () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'loops-and-try.input.ts'), 'utf8');
    const uri = pathToFileURL(path.join(REPO, '.tmp', 'lsp-analysis', 'loops-and-try.ts')).href;
    let previous = await analyzeDocument(TextDocument.create(uri, 'typescript', 1, text));
    expect(previous.diagnostics.length).toBeGreaterThan(1);
    const lines = text.split('\n');
    // Above every handler, then inside the handler at line 23 (1-based), then undoing the first edit.
    const versions = [
      ['// edited', ...lines].join('\n'),
      ['// edited', ...lines.slice(0, 22), '  const note = "edited";', '  void note;', ...lines.slice(22)].join('\n'),
      [...lines.slice(0, 22), '  const note = "edited";', '  void note;', ...lines.slice(22)].join('\n'),
    ];
    for (const [i, now] of versions.entries()) {
      const doc = TextDocument.create(uri, 'typescript', i + 2, now);
      const incremental = await analyzeDocument(doc, previous);
      const whole = await analyzeDocument(doc);
      expect(summary(incremental)).toEqual(summary(whole));
      previous = incremental;
    }
  });

  it('finds the identifiers getDescendantsOfKind(Identifier) finds, JSDoc included', () => {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
    const inputs = fs
      .readdirSync(FIXTURES)
      .filter(f => f.endsWith('.input.ts'))
      .map(f => fs.readFileSync(path.join(FIXTURES, f), 'utf8'));
    const js = [
      '/** @param {import("./ask.js").Asker} ask @returns {Promise<Answer>} */',
      'export async function run(ask, \\u0061nswer) { /** @type {Answer} */ const a = await ask(answer); return a; }',
      '/** @typedef {{ ok: boolean }} Answer */',
    ].join('\n');
    for (const [i, text] of [...inputs, js].entries()) {
      const sf = project.createSourceFile(`/f${i}.${i === inputs.length ? 'js' : 'ts'}`, text);
      expect(identifierTexts(sf)).toEqual(sf.getDescendantsOfKind(SyntaxKind.Identifier).map(id => id.getText()));
    }
  });

  // Diagnostics leave Node's declarations out for a document that cannot reach them: none of their names may be missed.
  it("loads Node's declarations for every global name they declare, and for imports other than the SDK and zod", () => {
    const scope = (nodeTypes: boolean) => {
      const project = analysisProject({ nodeTypes });
      const sf = project.createSourceFile('/scope.ts', 'export {};');
      const checker = project.getTypeChecker().compilerObject;
      const flags = ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace;
      return new Set(checker.getSymbolsInScope(sf.compilerNode, flags).map(s => s.name));
    };
    const library = scope(false);
    const nodeOnly = [...scope(true)].filter(name => !library.has(name) && /^\w+$/.test(name) && !name.startsWith('_'));
    expect(nodeOnly.length).toBeGreaterThan(50);
    expect(nodeOnly.filter(name => !needsNodeDeclarations([`${name};`]))).toEqual([]);
    // What Node adds to the library's own interfaces.
    for (const use of ['Error.captureStackTrace(e);', 'const d = Symbol.dispose;', 'import.meta.dirname;'])
      expect(needsNodeDeclarations([use])).toBe(true);
    for (const imported of [
      '/// <reference types="node" />',
      "import fs from 'node:fs';",
      "const s = /** @type {import('node:fs').Stats} */ (x);",
      "import { x } from './x.js';",
      "const e = require('express');",
      "export * from 'express';",
    ])
      expect(needsNodeDeclarations([imported])).toBe(true);
    const sdkOnly =
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';\nconst s = new McpServer({ name: 'a', version: '1' });";
    expect(needsNodeDeclarations([sdkOnly])).toBe(false);
  });
});
