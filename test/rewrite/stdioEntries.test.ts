/**
 * src/rewrite/stdioEntries.ts: a server connected to a StdioServerTransport served by `serveStdio(() => server)`,
 * the transport's declaration taken out where it was made for that call, handed on where it is used again, a
 * `.catch` handler made serveStdio's onerror.
 */
import { createRequire } from 'node:module';
import type { JSCodeshift } from 'jscodeshift';
import { describe, expect, it } from 'vitest';
import transformer, { rewriteParser } from '../../transforms/mrtr.js';
import { FILE, planOf, range, rewritten } from './support.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const server = new McpServer({ name: 's', version: '1.0.0' });
`;

describe('stdio entries', () => {
  it('serves the server by serveStdio, the transport made for it taken out with its import', () => {
    const source = `${HEAD}\nconst transport = new StdioServerTransport();\nawait server.connect(transport);\n`;
    const { text, acted } = rewritten(
      source,
      planOf({
        stdio: [
          {
            call: range(source, 'server.connect(transport)'),
            serverText: 'server',
            removeDeclaration: range(source, 'const transport = new StdioServerTransport();'),
          },
        ],
      }),
    );
    expect(acted).toEqual(['stdio-entries']);
    expect(text).toBe(`import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const server = new McpServer({ name: 's', version: '1.0.0' });

serveStdio(() => server);
`);
  });

  it("hands on a transport used again, and a .catch's handler as onerror", () => {
    const source = `${HEAD}const transport = new StdioServerTransport();
server.connect(transport).catch(error => console.error('failed', error));
transport.onclose = () => console.error('closed');
`;
    const { text } = rewritten(
      source,
      planOf({
        stdio: [
          {
            call: range(source, "server.connect(transport).catch(error => console.error('failed', error))"),
            serverText: 'server',
            transportText: 'transport',
            onerrorText: "error => console.error('failed', error)",
          },
        ],
      }),
    );
    expect(text).toContain("serveStdio(() => server, { transport, onerror: error => console.error('failed', error) });");
    // (wrapped as a formatter at the file's width would wrap it: no line of this file is longer than 80)
    expect(text).toContain("import {\n  StdioServerTransport,\n  serveStdio\n} from '@modelcontextprotocol/server/stdio';");
  });

  it('keeps a shebang on its line under jscodeshift, the plan at offsets of the text after it, as mcp-migrate reads a file', () => {
    const source = `${HEAD}\nconst transport = new StdioServerTransport();\nawait server.connect(transport);\n`;
    const plan = planOf({
      stdio: [
        {
          call: range(source, 'server.connect(transport)'),
          serverText: 'server',
          removeDeclaration: range(source, 'const transport = new StdioServerTransport();'),
        },
      ],
    });
    const jscodeshift = createRequire(import.meta.url)('jscodeshift') as JSCodeshift;
    const j = jscodeshift.withParser(rewriteParser(FILE));
    const api = { jscodeshift: j, j, stats: () => {}, report: () => {} };
    const out = transformer({ path: FILE, source: `#!/usr/bin/env node\n${source}` }, api, { plan });
    expect(out).toBe(`#!/usr/bin/env node\n${rewritten(source, plan).text}`);
    expect(out).toContain('#!/usr/bin/env node\nimport { McpServer }');
  });
});
