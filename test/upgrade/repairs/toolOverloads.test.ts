/**
 * src/upgrade/repairs/toolOverloads.ts: tool() and prompt() calls the official codemod leaves or misreads,
 * registered with registerTool() and registerPrompt().
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('tool() and prompt() calls the official codemod leaves or misreads', () => {
  it('registers a tool named and described by constants, here and in a relative module', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-tool-overloads-'));
    fs.writeFileSync(
      path.join(dir, 'names.ts'),
      "export const TOOLS = { search: { name: 'search', description: 'Finds things' } } as const;\n",
    );
    const { text, notes } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { TOOLS } from './names.js';
const ASK = 'ask';
const server = new McpServer({ name: 's', version: '1' });
server.tool(TOOLS.search.name, TOOLS.search.description, { q: z.string() }, async ({ q }) => ({ content: [{ type: 'text', text: q }] }));
server.prompt(ASK, 'Asks', async () => ({ messages: [] }));
`,
      path.join(dir, 'server.ts'),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain(
      'server.registerTool(TOOLS.search.name, { description: TOOLS.search.description, inputSchema: z.object({ q: z.string() }) }, async ({ q }) =>',
    );
    expect(text).toContain("server.registerPrompt(ASK, { description: 'Asks' }, async () => ({ messages: [] }));");
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes).toContainEqual(expect.stringMatching(/^info: \.tool\(TOOLS\.search\.name, \.\.\.\) written as \.registerTool\(\)/));
  });

  it('registers annotations as annotations, not as the input schema', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.tool('read', { readOnlyHint: true }, async () => ({ content: [] }));
server.tool('wipe', 'Wipes', { destructiveHint: true, title: 'Wipe' }, async () => ({ content: [] }));
`);
    expect(text).toContain("server.registerTool('read', { annotations: { readOnlyHint: true } }, async () => ({ content: [] }));");
    expect(text).toContain(
      "server.registerTool('wipe', { description: 'Wipes', annotations: { destructiveHint: true, title: 'Wipe' } }, async () => ({ content: [] }));",
    );
  });

  it('registers a parameter shape whose only key is title as the input schema, not as annotations', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const DESCRIPTION = 'Deletes a note';
const server = new McpServer({ name: 's', version: '1' });
server.tool('delete', DESCRIPTION, { title: z.string() }, async ({ title }) => ({ content: [{ type: 'text', text: title }] }));
server.tool('wipe', DESCRIPTION, { title: 'Wipe', destructiveHint: true }, async () => ({ content: [] }));
`);
    expect(text).toContain(
      "server.registerTool('delete', { description: DESCRIPTION, inputSchema: z.object({ title: z.string() }) }, async ({ title }) =>",
    );
    expect(text).toContain(
      "server.registerTool('wipe', { description: DESCRIPTION, annotations: { title: 'Wipe', destructiveHint: true } }, async () =>",
    );
  });

  it('registers the tools of a constant table walked by a loop, wrapping the raw shapes its entries hold', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-tool-table-'));
    fs.mkdirSync(path.join(dir, 'tools'));
    fs.writeFileSync(
      path.join(dir, 'tools', 'search.ts'),
      "import { z } from 'zod';\nexport const search = { name: 'search', description: 'Finds', schema: z.object({ q: z.string() }) };\n",
    );
    fs.writeFileSync(
      path.join(dir, 'tools', 'index.ts'),
      "import { z } from 'zod';\nimport { search } from './search.js';\nexport const TOOLS = [search, { name: 'ping', description: 'Pings', schema: z.object({}) }] as const;\n",
    );
    const { text } = upgraded(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { TOOLS } from './tools/index.js';
const server = new McpServer({ name: 's', version: '1' });
const RAW = [{ name: 'a', description: 'A', shape: { x: z.string() } }, { name: 'b', description: 'B', shape: {} }];
for (const t of RAW) {
  server.tool(t.name, t.description, t.shape, async () => ({ content: [] }));
}
TOOLS.forEach(tool => server.tool(tool.name, tool.description, tool.schema, async () => ({ content: [] })));
`,
      path.join(dir, 'server.ts'),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('server.registerTool(t.name, { description: t.description, inputSchema: z.object(t.shape) }, async () =>');
    expect(text).toContain('server.registerTool(tool.name, { description: tool.description, inputSchema: tool.schema }, async () =>');
    expect(text).not.toContain('@mcp-codemod-error');
  });

  it('leaves a table whose entries disagree on what a member is to the codemod, and its finding', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const MIXED = [{ name: 'a', extra: 'A' }, { name: 'b', extra: { readOnlyHint: true } }];
for (const t of MIXED) server.tool(t.name, t.extra, async () => ({ content: [] }));
`);
    expect(text).toContain('server.tool(t.name, t.extra');
    expect(text).toContain('@mcp-codemod-error Could not automatically migrate .tool() call');
  });

  it('leaves a call whose arguments it cannot tell apart to the codemod, and its finding', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe } from 'elsewhere';
const server = new McpServer({ name: 's', version: '1' });
for (const tool of [{ name: 'a' }]) server.tool(tool.name, describe(tool), async () => ({ content: [] }));
`);
    expect(text).toContain('server.tool(tool.name, describe(tool)');
    expect(text).toContain('@mcp-codemod-error Could not automatically migrate .tool() call');
  });
});
