/**
 * src/analysis/units/requests.ts: each request to the client followed to the handlers that may run it; asked
 * where it is written when a tools/call, prompts/get or resources/read handler may run it, else marked with why.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1.0.0' });
const sure = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
`;

describe('requests', () => {
  it("asks a handler's request where it is written, under the name its answer is bound to", () => {
    const a = analysed({
      'server.ts': `${HEAD}
server.registerTool('deploy', { inputSchema: { env: z.string() } }, async ({ env }) => {
  const answer = await server.server.elicitInput({ message: \`Deploy to \${env}?\`, requestedSchema: sure });
  await server.server.createMessage({ messages: [], maxTokens: 10 });
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
    });
    expect(a.plan()?.asks).toEqual([{ target: 'server.server', key: 'answer' }, { target: 'server.server' }]);
    expect(a.sites.map(s => [s.kind, s.outcome, s.handler])).toEqual([
      ['elicitation', 'rewritten', 'tools/call deploy'],
      ['sampling', 'rewritten', 'tools/call deploy'],
    ]);
    expect(a.acted[0]).toBe('requests server.ts');
  });

  it('asks a request of a helper in another file once, in the helper, for every handler that calls it', () => {
    const a = analysed({
      'server.ts': `${HEAD}import { confirm } from './confirm.js';
server.registerTool('deploy', {}, async () => ({ content: [{ type: 'text', text: String(await confirm(server, 'Deploy?')) }] }));
server.registerTool('wipe', {}, async () => ({ content: [{ type: 'text', text: String(await confirm(server, 'Wipe?')) }] }));
`,
      'confirm.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export async function confirm(server: McpServer, message: string): Promise<boolean> {
  const result = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return result.action === 'accept';
}
`,
    });
    expect(a.plan('confirm.ts')?.asks).toEqual([{ target: 'server.server', key: 'result' }]);
    expect(a.plan()?.asks).toBeUndefined();
    expect(a.sites).toEqual([
      expect.objectContaining({
        file: 'confirm.ts',
        outcome: 'rewritten',
        reason: 'asked through the requestState module while tools/call deploy, tools/call wipe run',
      }),
    ]);
  });

  it('marks a request no handler runs (a timer runs it) with what runs it and what to do, and asks nothing', () => {
    const a = analysed({ 'server.ts': `${HEAD}setInterval(() => void server.server.listRoots(), 60_000);\n` });
    expect(a.plan()?.asks).toBeUndefined();
    expect(a.plan()?.markers).toEqual([
      {
        at: 'setInterval(() => void server.server.listRoots(), 60_000);',
        text: expect.stringMatching(
          /^mcp-migrate: roots request in a callback passed to setInterval\(\).*await it in the handler, or call it from one$/,
        ),
      },
    ]);
    expect(a.sites).toEqual([
      expect.objectContaining({ kind: 'roots', outcome: 'marked', source: 'setInterval(() => void server.server.listRoots(), 60_000);' }),
    ]);
  });
});
