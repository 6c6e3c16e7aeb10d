/**
 * SEP-2577 deprecates sampling and roots (tooling SHOULD warn): every such site is reported as
 * migrated but deprecated, with the alternative, in the report's data (and so --json), the
 * human summary and the language server's diagnostics.
 */
import path from 'node:path';
import { DiagnosticTag } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatHuman, summarize, type RunReport } from '../src/format-report.js';
import { analyzeDocument } from '../src/lsp/analyze.js';
import { migrateSources } from '../src/pipeline.js';

const root = path.resolve(import.meta.dirname, '..');
// Inside the repo so the SDK resolves; nothing is written.
const file = path.join(root, '.tmp', 'deprecations', 'server.ts');
const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'deprecations', version: '1.0.0' });

server.registerTool('summarize', { inputSchema: { text: z.string() } }, async ({ text }) => {
  const summary = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  const { roots } = await server.server.listRoots();
  const answer = await server.server.elicitInput({ message: 'Keep it?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: \`\${summary.model} \${roots.length} \${answer.action}\` }] };
});
`;

describe('sampling and roots sites are migrated and reported deprecated (SEP-2577)', () => {
  it('in the report data, the human summary and the LSP diagnostics, with the alternative', async () => {
    const { report } = await migrateSources([{ path: file, text: source }], { cwd: path.dirname(file) });
    const byKind = Object.fromEntries(report.sites.map(s => [s.kind, s]));
    expect(byKind.sampling).toMatchObject({
      outcome: 'rewritten',
      deprecated: expect.stringMatching(/SEP-2577.*call a model from the server directly/),
    });
    expect(byKind.roots).toMatchObject({
      outcome: 'rewritten',
      deprecated: expect.stringMatching(/SEP-2577.*take the paths as tool arguments/),
    });
    expect(byKind.elicitation!.deprecated).toBeUndefined();

    const run: RunReport = {
      ...report,
      schemaVersion: 1,
      mode: 'dry-run',
      files: [],
      codemodLeftovers: [],
      sdkPatches: [],
      warnings: [],
      formatting: [],
      summary: summarize(report, []),
      exitCode: 0,
    };
    const human = formatHuman(run, { color: false });
    expect(human).toContain('deprecated: 1 sampling site; sampling is deprecated by SEP-2577');
    expect(human).toContain('deprecated: 1 roots site; roots are deprecated by SEP-2577');

    const analysis = await analyzeDocument(TextDocument.create(pathToFileURL(file).href, 'typescript', 1, source));
    const deprecated = analysis.diagnostics.filter(d => d.tags?.includes(DiagnosticTag.Deprecated));
    expect(deprecated.map(d => d.message)).toEqual([
      expect.stringMatching(/call a model from the server directly$/),
      expect.stringMatching(/take the paths as tool arguments$/),
    ]);
  });
});
