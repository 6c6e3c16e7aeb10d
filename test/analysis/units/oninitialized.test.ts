/**
 * src/analysis/units/oninitialized.ts: tools, prompts and resources registered in `oninitialized`, which never
 * fires on 2026-07-28 (there is no initialize), marked where they are registered, there or in a function it calls.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
`;

describe('registrations made in oninitialized', () => {
  it('marks a registration in the callback and one in a function it calls, to be registered when the server is built', () => {
    const a = analysed({
      'server.ts': `${HEAD}function registerExtras() {
  server.registerPrompt('extra', {}, () => ({ messages: [] }));
}
server.server.oninitialized = () => {
  server.registerTool('late', {}, async () => ({ content: [] }));
  registerExtras();
};
`,
    });
    const registered = a.sites.filter(s => s.kind === 'registration');
    expect(registered.map(s => [s.source, s.outcome, s.handler])).toEqual([
      ["server.registerTool('late', {}, async () => ({ content: [] }));", 'marked', 'lifecycle'],
      ['registerExtras();', 'marked', 'lifecycle'],
    ]);
    expect(registered[0]!.reason).toBe(
      'server.registerTool() runs in oninitialized, which never fires on MCP 2026-07-28 (there is no initialize): register it when the server is built',
    );
    expect(a.acted).toContain('oninitialized server.ts');
  });

  it('marks no registration made when the server is built', () => {
    const a = analysed({ 'server.ts': `${HEAD}server.registerTool('early', {}, async () => ({ content: [] }));\n` });
    expect(a.acted).toEqual([]);
  });
});
