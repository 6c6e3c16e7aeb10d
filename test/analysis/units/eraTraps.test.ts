/**
 * src/analysis/units/eraTraps.ts: what else a 2026-07-28 client breaks (src/analysis/eraTraps.ts finds it;
 * test/era-traps.test.ts tests the finding) marked where it is written, with a site line that names the handler.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1.0.0' });
`;

describe('era traps', () => {
  it('marks an oninitialized callback that reads the client version, and a cache keyed on the session id in a handler', () => {
    const a = analysed({
      'server.ts': `${HEAD}let client = 'unknown';
server.server.oninitialized = () => {
  client = server.server.getClientVersion()?.name ?? 'unknown';
};
const seen = new Map<string, number>();
server.registerTool('count', { inputSchema: { n: z.number() } }, async ({ n }, extra) => {
  seen.set(extra.sessionId ?? 'none', (seen.get(extra.sessionId ?? 'none') ?? n) + 1);
  return { content: [{ type: 'text', text: client }] };
});
`,
    });
    expect(a.sites.map(s => [s.source, s.kind, s.outcome, s.handler])).toEqual([
      ['server.server.oninitialized = () => {', 'connection', 'marked', 'lifecycle'],
      ["seen.set(ctx.sessionId ?? 'none', (seen.get(ctx.sessionId ?? 'none') ?? n) + 1);", 'connection', 'marked', 'tools/call count'],
    ]);
    expect(a.plan()?.markers).toEqual([
      {
        at: 'server.server.oninitialized = () => {',
        text: expect.stringMatching(/^mcp-migrate: server\.server\.oninitialized = \.\.\. runs once a client has sent initialize/),
      },
      {
        at: "seen.set(ctx.sessionId ?? 'none', (seen.get(ctx.sessionId ?? 'none') ?? n) + 1);",
        text: expect.stringMatching(/a 2026-07-28 request has no session/),
      },
    ]);
    expect(a.acted).toEqual(['era-traps server.ts']);
  });

  it('marks nothing in a server that reads none of them', () => {
    const a = analysed({ 'server.ts': `${HEAD}server.registerTool('echo', {}, async () => ({ content: [] }));\n` });
    expect(a.acted).toEqual([]);
  });
});
