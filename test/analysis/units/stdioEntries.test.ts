/**
 * src/analysis/units/stdioEntries.ts: a server connected to a StdioServerTransport served by serveStdio (the
 * transport's declaration taken out where it was made for that call, kept and handed on where it is used
 * again), or marked with why not.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 's', version: '1.0.0' });
`;

describe('stdio entries', () => {
  it('serves a server connected to a transport made for the call by serveStdio, the declaration taken out', () => {
    const a = analysed({ 'index.ts': `${HEAD}const transport = new StdioServerTransport();\nawait server.connect(transport);\n` });
    expect(a.plan()?.stdio).toEqual([
      { call: 'server.connect(transport)', serverText: 'server', removeDeclaration: 'const transport = new StdioServerTransport();' },
    ]);
    expect(a.acted).toEqual(['stdio-entries index.ts']);
  });

  it("hands on a transport used after connect, and a .catch's handler as serveStdio's onerror", () => {
    const a = analysed({
      'index.ts': `${HEAD}const transport = new StdioServerTransport();
server.connect(transport).catch(error => console.error('failed', error));
transport.onclose = () => console.error('closed');
`,
    });
    expect(a.plan()?.stdio).toEqual([
      {
        call: "server.connect(transport).catch(error => console.error('failed', error))",
        serverText: 'server',
        transportText: 'transport',
        onerrorText: "error => console.error('failed', error)",
      },
    ]);
  });

  it('plans nothing for a server connected to a transport of another kind', () => {
    const a = analysed({
      'index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export async function serve(server: McpServer, transport: Transport) {
  await server.connect(transport);
}
`,
    });
    expect(a.plan()?.stdio).toBeUndefined();
  });
});
