/**
 * src/analysis/units/outsideRun.ts: a request in a file outside the run that a handler of the run reaches is not
 * migrated: marked where the run's code calls into that file.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { confirm } from './shared/confirm.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
server.registerTool('wipe', {}, async () => {
  const ok = await confirm(server, 'Wipe?');
  return { content: [{ type: 'text', text: String(ok) }] };
});
`;

const CONFIRM = `import type { McpServer } from '@modelcontextprotocol/server';
export async function confirm(server: McpServer, message: string): Promise<boolean> {
  const result = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return result.action === 'accept';
}
`;

describe('requests reached in files outside the run', () => {
  it("marks the run's call into the file, saying the handler fails there on 2026-07-28 and to migrate the files together", () => {
    const a = analysed({ 'server.ts': SERVER }, { outside: { 'shared/confirm.ts': CONFIRM } });
    expect(a.sites).toEqual([
      expect.objectContaining({
        file: 'server.ts',
        source: "const ok = await confirm(server, 'Wipe?');",
        outcome: 'marked',
        handler: 'tools/call wipe',
      }),
    ]);
    expect(a.sites[0]!.reason).toMatch(
      /^confirm\(\) reaches server\.server\.elicitInput\(\.\.\.\) in shared\/confirm\.ts, a file outside this run, which is not migrated: on MCP 2026-07-28 tools\/call wipe fails there/,
    );
    expect(a.plan()?.markers).toEqual([
      { at: "const ok = await confirm(server, 'Wipe?');", text: expect.stringMatching(/^mcp-migrate: confirm\(\) reaches/) },
    ]);
    expect(a.acted).toContain('outside-run server.ts');
  });

  it('leaves the same file alone when it is in the run: its request is asked there', () => {
    const a = analysed({ 'server.ts': SERVER, 'shared/confirm.ts': CONFIRM });
    expect(a.acted.filter(u => u.startsWith('outside-run'))).toEqual([]);
    expect(a.plan('shared/confirm.ts')?.asks).toEqual([{ target: 'server.server', key: 'result' }]);
  });
});
