/**
 * src/analysis/units/serverWiring.ts: every SDK server the project constructs is wired with
 * `requestState: { verify }` once any handler asks, a project subclass at its `super(...)`; none where no
 * handler asks.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const ASKING_TOOL = `server.registerTool('roots', {}, async () => {
  const { roots } = await server.server.listRoots();
  return { content: [{ type: 'text', text: roots.map(r => r.uri).join(', ') }] };
});
`;

describe('servers wired with requestState', () => {
  it('plans each construction, with its options object where it has one', () => {
    const a = analysed({
      'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } });
export const spare = new McpServer({ name: 'spare', version: '1.0.0' });
${ASKING_TOOL}`,
    });
    expect(a.plan()?.servers).toEqual([
      {
        construct: "new McpServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } })",
        options: '{ capabilities: { tools: {} } }',
        optionsIsObjectLiteral: true,
        optionProperties: ['capabilities: { tools: {} }'],
        firstArg: "{ name: 's', version: '1.0.0' }",
        alreadyWired: false,
      },
      {
        construct: "new McpServer({ name: 'spare', version: '1.0.0' })",
        optionsIsObjectLiteral: false,
        firstArg: "{ name: 'spare', version: '1.0.0' }",
        alreadyWired: false,
      },
    ]);
    expect(a.acted).toContain('server-wiring server.ts');
  });

  it("wires a project's subclass of McpServer at its super(...) call", () => {
    const a = analysed({
      'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
class NotesServer extends McpServer {
  constructor() {
    super({ name: 'notes', version: '1.0.0' });
  }
}
const server = new NotesServer();
${ASKING_TOOL}`,
    });
    expect(a.plan()?.servers).toEqual([
      expect.objectContaining({ construct: "super({ name: 'notes', version: '1.0.0' })", alreadyWired: false }),
    ]);
  });

  it('wires nothing where no handler asks', () => {
    const a = analysed({
      'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
server.registerTool('echo', {}, async () => ({ content: [] }));
`,
    });
    expect(a.plan()?.servers).toBeUndefined();
  });
});
