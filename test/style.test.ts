/**
 * The file's own style, read from its text (src/rewrite/style.ts): here the line width that decides
 * whether an import the rewrite writes stays on one line, and the imports it adds (src/rewrite/imports.ts).
 */
import jscodeshift, { type Program } from 'jscodeshift';
import { describe, expect, it } from 'vitest';
import { editImports, type ImportChanges, type ImportKind } from '../src/rewrite/imports.js';
import { rewriteParser } from '../src/rewrite/parsers.js';
import { codeStyle, importText, lineWidth } from '../src/rewrite/style.js';

const NAMES = ['elicitResult', 'requireClientSupport', 'resumeCall', 'verifyRequestState'];
/** A line of code `n` characters long. */
const line = (n: number) => `const x = '${'a'.repeat(n - 13)}';`;

describe('lineWidth', () => {
  it('is the longest line of code, within 80 and 120', () => {
    expect(lineWidth([line(60), line(70)].join('\n'))).toBe(80);
    expect(lineWidth([line(60), line(102)].join('\n'))).toBe(102);
    expect(lineWidth([line(60), line(150)].join('\n'))).toBe(120);
  });

  it('leaves comments out: a long URL in a comment is no width the code keeps to', () => {
    const text = [line(70), `// see https://example.com/${'a'.repeat(120)}`, ` * ${'b'.repeat(130)}`, '/* c */'].join('\n');
    expect(lineWidth(text)).toBe(80);
  });
});

describe('importText', () => {
  const oneLine = `import { ${NAMES.join(', ')} } from './mcp-migrate-state.js';`;

  it("keeps an import on one line in a file whose lines are as wide (its author's width)", () => {
    expect(oneLine.length).toBeGreaterThan(100);
    expect(importText(NAMES, './mcp-migrate-state.js', 'import', codeStyle([line(130)].join('\n')))).toBe(oneLine);
  });

  it('breaks it, one name per line, in a file a formatter keeps at 80', () => {
    const style = codeStyle(["import { a } from 'b';", line(78), 'f(a, {', '  b,', '});'].join('\n'));
    expect(importText(NAMES, './mcp-migrate-state.js', 'import', style)).toBe(
      `import {\n  ${NAMES.join(',\n  ')},\n} from './mcp-migrate-state.js';`,
    );
  });
});

describe('editImports', () => {
  const j = jscodeshift.withParser(rewriteParser('server.ts'));
  const statements = (text: string): Program['body'] => j(text, { tabWidth: 1 }).find(j.Program).get().node.body;
  /** The edits made in the file's tree, printed as the rewrite prints it. */
  const edit = (text: string, changes: ImportChanges) => {
    const root = j(text, { tabWidth: 1 });
    const body = (root.find(j.Program).get().node as Program).body;
    editImports({ body, written: new Set(body), source: text, style: codeStyle(text), parse: statements }, changes);
    return root.toSource({ quote: 'single', reuseWhitespace: true });
  };
  const add = (module: string, kind: ImportKind, ...names: string[]) => ({
    module,
    kind,
    names: names.map((n): [string, string] => [n, n]),
  });

  it("writes a module's new values and types in one declaration, as the file writes no `import type`", () => {
    const text = `import { z } from 'zod';\n\nexport const x = z.string().describe('${'a'.repeat(70)}');\n`;
    const out = edit(text, {
      add: [
        add('@modelcontextprotocol/server', 'import', 'inputRequired'),
        add('@modelcontextprotocol/server', 'import type', 'ElicitRequestFormParams'),
        add('./state.js', 'import', 'resumeCall'),
      ],
      remove: new Set(),
    });
    expect(out).toBe(
      `import { z } from 'zod';\nimport { inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';\nimport { resumeCall } from './state.js';\n\nexport const x = z.string().describe('${'a'.repeat(70)}');\n`,
    );
  });

  it('keeps them apart in a file that writes its types in `import type` declarations', () => {
    const text = "import type { Z } from 'zod';\n";
    const out = edit(text, {
      add: [
        add('@modelcontextprotocol/server', 'import type', 'ElicitRequestFormParams'),
        add('@modelcontextprotocol/server', 'import', 'inputRequired'),
      ],
      remove: new Set(),
    });
    expect(out).toBe(
      "import type { Z } from 'zod';\nimport type { ElicitRequestFormParams } from '@modelcontextprotocol/server';\nimport { inputRequired } from '@modelcontextprotocol/server';\n",
    );
  });
  it('takes a declaration out with its line, and keeps the comment above it', () => {
    const text =
      "import { a } from 'x';\n// keep me\nimport { StdioServerTransport } from '@modelcontextprotocol/server/stdio';\nimport { b } from 'y';\n\nconst c = a + b;\n";
    expect(edit(text, { add: [], remove: new Set(['StdioServerTransport']) })).toBe(
      "import { a } from 'x';\n// keep me\nimport { b } from 'y';\n\nconst c = a + b;\n",
    );
  });

  it('keeps declarations rewritten one after the other on lines of their own, and the blank line between them', () => {
    const text =
      "import { A, B } from '@modelcontextprotocol/server';\nimport { E, F } from '@modelcontextprotocol/node';\n\nimport { C, D } from '@modelcontextprotocol/client';\nconst c = [A, C, E];\n";
    expect(edit(text, { add: [], remove: new Set(['B', 'D', 'F']) })).toBe(
      "import { A } from '@modelcontextprotocol/server';\nimport { E } from '@modelcontextprotocol/node';\n\nimport { C } from '@modelcontextprotocol/client';\nconst c = [A, C, E];\n",
    );
  });

  it('adds after the last import, before the blank line that followed it, in a file without semicolons', () => {
    const text =
      "import { x } from './a.js' // trailing\nimport { McpServer, StdioServerTransport } from '@modelcontextprotocol/server'\n\nx()\n";
    const out = edit(text, { add: [add('./state.js', 'import', 'ask')], remove: new Set(['StdioServerTransport']) });
    expect(out).toBe(
      "import { x } from './a.js' // trailing\nimport { McpServer } from '@modelcontextprotocol/server'\nimport { ask } from './state.js'\n\nx()\n",
    );
  });

  it('puts the first import of a file that has none above its code, a blank line after it', () => {
    expect(edit('const x = 1;\n', { add: [add('./state.js', 'import', 'ask')], remove: new Set() })).toBe(
      "import { ask } from './state.js';\n\nconst x = 1;\n",
    );
  });
  it("rewrites a declaration under the file's header comment and before its own trailing one, both kept as written, and adds one", () => {
    const text =
      "/**\n * A server.\n *\n * It asks the client as it goes.\n *\n * Run it with tsx.\n */\nimport { McpServer, StdioServerTransport } from '@modelcontextprotocol/server'; // the SDK\nimport { z } from 'zod';\n\nz.string();\n";
    expect(edit(text, { add: [add('./state.js', 'import', 'ask')], remove: new Set(['StdioServerTransport']) })).toBe(
      "/**\n * A server.\n *\n * It asks the client as it goes.\n *\n * Run it with tsx.\n */\nimport { McpServer } from '@modelcontextprotocol/server'; // the SDK\nimport { z } from 'zod';\nimport { ask } from './state.js';\n\nz.string();\n",
    );
  });

  it('keeps the comment above a declaration taken out where the next one is rewritten too', () => {
    const text =
      "// The SDK:\nimport { StdioServerTransport } from '@modelcontextprotocol/server/stdio';\nimport { McpServer, ErrorCode } from '@modelcontextprotocol/server';\n\nnew McpServer();\n";
    expect(edit(text, { add: [], remove: new Set(['StdioServerTransport', 'ErrorCode']) })).toBe(
      "// The SDK:\nimport { McpServer } from '@modelcontextprotocol/server';\n\nnew McpServer();\n",
    );
  });
  it('keeps the comment above a declaration taken out on the next one, which keeps its own layout', () => {
    const text =
      "import { McpServer } from '@modelcontextprotocol/server';\n// transports\nimport { StdioServerTransport } from '@modelcontextprotocol/server/stdio';\nimport {\n  alpha,\n  beta,\n} from \"./x.js\"; // local\n\nnew McpServer(alpha, beta);\n";
    expect(edit(text, { add: [], remove: new Set(['StdioServerTransport']) })).toBe(
      'import { McpServer } from \'@modelcontextprotocol/server\';\n// transports\nimport {\n  alpha,\n  beta,\n} from "./x.js"; // local\n\nnew McpServer(alpha, beta);\n',
    );
  });
});
