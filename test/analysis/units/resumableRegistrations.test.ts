/**
 * src/analysis/units/resumableRegistrations.ts: the registration of each handler a request is asked in made
 * resumable (its receiver), in the file that registers it, and no other registration.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

describe('registrations made resumable', () => {
  it("plans the receiver of the asking handler's registration, in the file of the factory that registers it, and only that one", () => {
    const a = analysed({
      'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools } from './tools.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
registerTools(server);
`,
      'tools.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ask } from './ask.js';
export function registerTools(mcp: McpServer) {
  mcp.registerTool('echo', {}, async () => ({ content: [{ type: 'text', text: 'echo' }] }));
  mcp.registerTool('pick', {}, async () => ({ content: [{ type: 'text', text: await ask(mcp) }] }));
}
`,
      'ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export async function ask(mcp: McpServer): Promise<string> {
  const roots = await mcp.server.listRoots();
  return roots.roots.map(r => r.uri).join(', ');
}
`,
    });
    expect(a.plan('tools.ts')).toEqual(expect.objectContaining({ registrations: [{ receiver: 'mcp' }] }));
    expect(a.plan('tools.ts')?.asks).toBeUndefined();
    expect(a.plan('ask.ts')?.registrations).toBeUndefined();
    expect(a.acted).toContain('resumable-registrations tools.ts');
  });

  it('plans none where no handler asks', () => {
    const a = analysed({
      'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
server.registerTool('echo', {}, async () => ({ content: [{ type: 'text', text: 'echo' }] }));
`,
    });
    expect(a.plan()).toBeUndefined();
    expect(a.acted).toEqual([]);
  });
});
