/**
 * src/rewrite/markers.ts: the `// mcp-migrate:` marker of each site the analysis left, a comment above its
 * statement; a statement written on one line with a braceless body is kept on its line.
 */
import { describe, expect, it } from 'vitest';
import { offset, planOf, rewritten } from './support.js';

const SOURCE = `import { McpServer } from '@modelcontextprotocol/server';

const server = new McpServer({ name: 's', version: '1.0.0' });

setInterval(() => void server.server.listRoots(), 1000);
if (process.env.WATCH) setInterval(() => void server.server.listRoots(), 5000);
`;

describe('markers', () => {
  it('puts each marker above its statement, changing no other line, and keeps a braceless if on its line', () => {
    const { text, acted } = rewritten(
      SOURCE,
      planOf({
        markers: [
          { at: offset(SOURCE, 'setInterval('), text: 'mcp-migrate: roots request in a timer' },
          { at: offset(SOURCE, 'if (process.env.WATCH)'), text: 'mcp-migrate: roots request in a timer, when watching' },
        ],
      }),
    );
    expect(acted).toEqual(['markers']);
    expect(text).toBe(`import { McpServer } from '@modelcontextprotocol/server';

const server = new McpServer({ name: 's', version: '1.0.0' });

// mcp-migrate: roots request in a timer
setInterval(() => void server.server.listRoots(), 1000);
// mcp-migrate: roots request in a timer, when watching
if (process.env.WATCH) setInterval(() => void server.server.listRoots(), 5000);
`);
  });

  it('joins only the marked statement, not one written alike on two lines before it', () => {
    const source = `if (process.env.WATCH)\n  setInterval(tick, 5000);\nif (process.env.WATCH) setInterval(tick, 5000);\n`;
    const at = source.lastIndexOf('if (process.env.WATCH)');
    const { text } = rewritten(source, planOf({ markers: [{ at, text: 'mcp-migrate: a timer' }] }));
    expect(text).toBe(
      `if (process.env.WATCH)\n  setInterval(tick, 5000);\n// mcp-migrate: a timer\nif (process.env.WATCH) setInterval(tick, 5000);\n`,
    );
  });

  it('keeps the indentation of a statement inside a function', () => {
    const source = `export function watch(run: () => void) {\n\tsetInterval(run, 1000);\n}\n`;
    const { text } = rewritten(source, planOf({ markers: [{ at: offset(source, 'setInterval('), text: 'mcp-migrate: a timer' }] }));
    expect(text).toBe(`export function watch(run: () => void) {\n\t// mcp-migrate: a timer\n\tsetInterval(run, 1000);\n}\n`);
  });
});
