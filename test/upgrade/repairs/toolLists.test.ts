/**
 * src/upgrade/repairs/toolLists.ts: a tool list a tools/list handler returns, typed (a constant) or its schemas cast
 * (computed), so its input schemas keep type "object".
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('tool lists a tools/list handler returns', () => {
  it('types a constant tool list a tools/list handler returns, so its input schemas keep type "object"', () => {
    const { text, notes } = upgraded(`import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
const tools = [
  { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
  { name: 'b', inputSchema: { type: 'object', properties: {} } },
];
let others = [{ name: 'c', inputSchema: { type: 'object' } }];
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
`);
    expect(text).toContain("const tools: ListToolsResult['tools'] = [");
    expect(text).toContain("server.setRequestHandler('tools/list', async () => ({ tools }));");
    // a list that is not a constant may change before it is listed: left as written
    expect(text).toContain("let others = [{ name: 'c'");
    expect(text).toMatch(
      /import type \{[^}]*\bListToolsResult\b[^}]*\} from '@modelcontextprotocol\/server'|import \{[^}]*\btype ListToolsResult\b[^}]*\} from '@modelcontextprotocol\/server'/,
    );
    expect(notes).toContainEqual(expect.stringMatching(/^info: "tools" is typed ListToolsResult\['tools'\]/));
  });

  it('casts the schemas of a tool list the tools/list handler computes from a type of the project', () => {
    const { text, notes } = upgraded(`import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
interface ToolDef { name: string; inputSchema: unknown; outputSchema?: Record<string, unknown> }
declare const defs: ToolDef[];
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: defs.map(d => ({ name: d.name, inputSchema: d.inputSchema, outputSchema: d.outputSchema ?? undefined, annotations: { title: d.name } })),
}));
`);
    expect(text).toContain(
      "inputSchema: d.inputSchema as Tool['inputSchema'], outputSchema: (d.outputSchema ?? undefined) as Tool['outputSchema']",
    );
    expect(text).toMatch(
      /import \{[^}]*\btype Tool\b[^}]*\} from '@modelcontextprotocol\/server'|import type \{[^}]*\bTool\b[^}]*\} from '@modelcontextprotocol\/server'/,
    );
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: the inputSchema of a tool list the tools\/list handler computes is cast to Tool\['inputSchema'\]/),
    );
  });
});
