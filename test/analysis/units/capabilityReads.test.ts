/**
 * src/analysis/units/capabilityReads.ts: `getClientCapabilities()` read while a handler runs becomes the
 * request's own (`clientCapabilities(server)`); read where no request runs (a lifecycle callback), marked.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
`;

describe('client capabilities', () => {
  it("reads a handler's capabilities from its request, in a helper it calls too", () => {
    const a = analysed({
      'server.ts': `${HEAD}const canSample = () => Boolean(server.server.getClientCapabilities()?.sampling);
server.registerTool('caps', {}, async () => {
  const caps = server.server.getClientCapabilities();
  return { content: [{ type: 'text', text: \`\${Boolean(caps?.elicitation)} \${canSample()}\` }] };
});
`,
    });
    expect(a.plan()?.capabilityReads).toEqual([
      { call: 'server.server.getClientCapabilities()', server: 'server.server' },
      { call: 'server.server.getClientCapabilities()', server: 'server.server' },
    ]);
    expect(a.sites.map(s => [s.source, s.outcome, s.handler])).toEqual([
      ['const canSample = () => Boolean(server.server.getClientCapabilities()?.sampling);', 'rewritten', 'tools/call caps'],
      ['const caps = server.server.getClientCapabilities();', 'rewritten', 'tools/call caps'],
    ]);
    expect(a.acted).toContain('capability-reads server.ts');
  });

  it('marks a read in oninitialized, where no request is running', () => {
    const a = analysed({
      'server.ts': `${HEAD}let sampling = false;
server.server.oninitialized = () => {
  sampling = Boolean(server.server.getClientCapabilities()?.sampling);
};
`,
    });
    expect(a.plan()?.capabilityReads).toBeUndefined();
    expect(a.sites.filter(s => s.kind === 'capabilities')).toEqual([
      expect.objectContaining({ source: 'sampling = Boolean(server.server.getClientCapabilities()?.sampling);', outcome: 'marked' }),
    ]);
    expect(a.sites[0]!.reason).toMatch(/^server\.server\.getClientCapabilities\(\) answers with what the client declared at initialize/);
  });
});
