/**
 * The self-check a rewritten file passes before it is handed to the user (src/analysis/selfCheck.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analysisProject } from '../src/analysis/project.js';
import { importBindings, selfCheck, type SelfCheckOptions } from '../src/analysis/selfCheck.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { readFileSync } from 'node:fs';
const server = new McpServer({ name: 's', version: '1' });
`;

function check(before: string, after: string, options: SelfCheckOptions = {}, file = 'server.ts') {
  const project = analysisProject();
  const sf = project.createSourceFile(path.join(os.tmpdir(), 'self-check', file), before);
  const bindings = importBindings(sf);
  sf.replaceWithText(after);
  return selfCheck(sf, bindings, options).map(f => `${f.line}: ${f.message}`);
}

describe('self-check', () => {
  it('fails a request left without a marker, and passes one with its marker', () => {
    const unmarked = `${HEAD}server.registerTool('t', {}, async () => {\n  const a = await server.server.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });\n  return { content: [{ type: 'text', text: a.action }] };\n});\n`;
    expect(check(unmarked, unmarked)).toEqual(['6: a elicitation request (server.server.elicitInput) is left without a marker']);
    const marked = unmarked.replace('  const a =', '  // mcp-migrate: left as it is\n  const a =');
    expect(check(marked, marked)).toEqual([]);
  });

  it('fails a stdio connect left in place without a marker', () => {
    const text = `${HEAD}await server.connect(new StdioServerTransport());\n`;
    expect(check(text, text)).toEqual(['5: a stdio connect() is left without serveStdio or a marker']);
  });

  it('fails a name read after the rewrite that no longer comes from the module it came from', () => {
    const before = `${HEAD}export const text = readFileSync('x', 'utf8');\n`;
    const after = before.replace("import { readFileSync } from 'node:fs';\n", "import { readFileSync } from './fs.js';\n");
    expect(check(before, after)).toEqual(['1: readFileSync now comes from ./fs.js, not node:fs']);
    const dropped = before.replace("import { readFileSync } from 'node:fs';\n", '');
    expect(check(before, dropped)).toEqual(['1: readFileSync, imported from node:fs before the rewrite, is no longer imported']);
  });

  it("counts a name a JSDoc type reads (a JavaScript file's types)", () => {
    const before = `import { Widget } from './widget.js';\n/** @param {Widget} w */\nexport function show(w) { return String(w); }\n`;
    const dropped = before.replace("import { Widget } from './widget.js';\n", '');
    expect(check(before, dropped, {}, 'show.js')).toEqual([
      '2: Widget, imported from ./widget.js before the rewrite, is no longer imported',
    ]);
  });

  it('looks for requests in a file that imports no request method under another name where its text names one', () => {
    const unmarked = `${HEAD}server.registerTool('t', {}, async () => {\n  const a = await server.server.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });\n  return { content: [{ type: 'text', text: a.action }] };\n});\n`;
    expect(check(unmarked, unmarked, { importsRequestAliases: false })).toEqual([
      '6: a elicitation request (server.server.elicitInput) is left without a marker',
    ]);
  });
});
