/**
 * src/analysis/units/listChanges.ts: a tool, prompt or resource list changed behind an entry the run moves to
 * createMcpHandler, where 2026-07-28 clients learn of list changes on subscriptions/listen streams that a server
 * instance's own notification never reaches: marked. Behind any other entry: left.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export function buildServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool('add', {}, async () => {
    server.registerTool('added', {}, async () => ({ content: [] }));
    server.sendToolListChanged();
    return { content: [] };
  });
  return server;
}
`;

describe('list changes behind createMcpHandler', () => {
  it('marks the notification of a server a stateless HTTP entry builds', () => {
    const a = analysed(
      {
        'server.ts': SERVER,
        'http.ts': `import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildServer } from './server.js';
createServer(async (req, res) => {
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(3000);
`,
      },
      { nodeTypes: true },
    );
    expect(a.sites.filter(s => s.kind === 'list-change').map(s => [s.file, s.source, s.outcome, s.handler])).toEqual([
      ['server.ts', "server.registerTool('added', {}, async () => ({ content: [] }));", 'marked', 'tools/call add'],
      ['server.ts', 'server.sendToolListChanged();', 'marked', 'tools/call add'],
    ]);
    expect(a.sites[1]!.reason).toMatch(/whose subscriptions\/listen streams such a notification never reaches/);
    expect(a.acted).toContain('list-changes server.ts');
  });

  it('leaves it behind a stdio entry, whose one server is the one its client listens to', () => {
    const a = analysed({
      'server.ts': SERVER,
      'index.ts': `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildServer } from './server.js';
await buildServer().connect(new StdioServerTransport());
`,
    });
    expect(a.sites.filter(s => s.kind === 'list-change')).toEqual([]);
    expect(a.acted.filter(u => u.startsWith('list-changes'))).toEqual([]);
  });
});
