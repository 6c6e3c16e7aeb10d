/**
 * The text pre-filter's reach into helper files: which imported files become candidates, read lazily.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELPER_IMPORT_DEPTH, importedHelpers, REQUEST_METHOD_VALUE, worthAnalysing } from '../src/triggers.js';

const dir = path.resolve('/project/src');
const file = (name: string, text: string) => ({ path: path.join(dir, name), text });

describe('importedHelpers', () => {
  const server = file(
    'server.ts',
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { ask } from './via.js';\nimport { add } from './math.js';\n`,
  );
  const via = file('via.ts', `export { ask } from './ask.js';\n`);
  const ask = file('ask.ts', `export async function ask(send: any) { return send({ method: 'elicitation/create', params: {} }); }\n`);
  const math = file('math.ts', `export const add = (a: number, b: number) => a + b;\n`);
  const lookAlike = file('chat.ts', `export const reply = (chat: any) => chat.createMessage({});\n`);

  it('keeps the helper files a candidate reaches, and the files on the way, but not a file without a request', () => {
    const kept = worthAnalysing([server, via, ask, math, lookAlike]).map(f => path.basename(f.path));
    expect(kept).toEqual(['server.ts', 'via.ts', 'ask.ts']);
  });

  it('reads only the files it reaches, each once, and none when nothing is worth analysing', () => {
    const read: string[] = [];
    const textOf = (f: { path: string; text: string }) => (read.push(path.basename(f.path)), f.text);
    importedHelpers([server], [server, via, ask, math, lookAlike], textOf);
    expect(read.sort()).toEqual(['ask.ts', 'math.ts', 'server.ts', 'via.ts']);
    read.length = 0;
    expect(worthAnalysing([math, lookAlike])).toEqual([]);
    expect(importedHelpers([], [math, lookAlike], textOf)).toEqual([]);
    expect(read).toEqual([]);
  });

  it("keeps a file importing a framework built on the SDK, which may import nothing of the SDK's, but not a look-alike package name", () => {
    const tools = [
      file('fast.ts', `import { FastMCP } from 'fastmcp';\n`),
      file('tool.ts', `import { MCPTool } from "mcp-framework";\n`),
      file('use.ts', `const { createMCPServer } = require('mcp-use/server');\n`),
      file('agent.ts', `import { McpAgent } from 'agents/mcp';\n`),
      file('other.ts', `import { Agent } from 'agents';\nimport x from 'fastmcp-helpers';\n`),
    ];
    expect(worthAnalysing(tools).map(f => path.basename(f.path))).toEqual(['fast.ts', 'tool.ts', 'use.ts', 'agent.ts']);
  });

  it('keeps a file importing a module that reads a request method as a value, which it may call under another name', () => {
    const holder = file(
      'holder.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const mcp = new McpServer({ name: 'x', version: '1' });\nexport const ask = mcp.server.elicitInput.bind(mcp.server);\n`,
    );
    const caller = file('tools.ts', `import { ask } from './holder.js';\nexport const run = () => ask({ message: 'ok?' });\n`);
    const plain = file(
      'plain.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const other = new McpServer({ name: 'y', version: '1' });\n`,
    );
    const bystander = file('bystander.ts', `import { other } from './plain.js';\nexport const name = other;\n`);
    expect(worthAnalysing([holder, caller, plain, bystander]).map(f => path.basename(f.path))).toEqual([
      'holder.ts',
      'tools.ts',
      'plain.ts',
    ]);
    for (const value of ['const { listRoots } = server.server;', 'ask = srv.createMessage;', 'const ask = srv.elicitInput\n'])
      expect(REQUEST_METHOD_VALUE.test(value), value).toBe(true);
    for (const call of ['await srv.elicitInput({})', 'srv.createMessage (x)', "typeof srv.listRoots === 'function'"])
      expect(REQUEST_METHOD_VALUE.test(call), call).toBe(false);
  });

  it('keeps the files registering tools that call a helper of another module, though they name neither the SDK nor a request, and the helpers on the way', () => {
    const made = file(
      'server.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const server = new McpServer({ name: 'x', version: '1' });\n`,
    );
    const asker = file(
      'asker.ts',
      `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport class Asker { constructor(private mcp: McpServer) {} name() { return this.mcp.server.elicitInput({}); } }\n`,
    );
    const tools = file(
      'tools.ts',
      `import { server } from './server.js';\nimport { Asker } from './asker.js';\nconst asker = new Asker(server);\nserver.registerTool('t', {}, async () => asker.name());\n`,
    );
    const greet = file('greet.ts', `import { Asker } from './asker.js';\nexport const greet = (a: Asker) => a.name();\n`);
    const more = file(
      'more.ts',
      `import { server } from './server.js';\nimport { greet } from './greet.js';\nserver.registerTool('g', {}, async () => greet(x));\n`,
    );
    // Imports a module with a request, registers nothing: a barrel or an entry, nothing of it is asked.
    const entry = file('index.ts', `import './tools.js';\nimport { Asker } from './asker.js';\n`);
    const kept = worthAnalysing([made, asker, tools, greet, more, entry, math]).map(f => path.basename(f.path));
    expect(kept).toEqual(['server.ts', 'asker.ts', 'tools.ts', 'greet.ts', 'more.ts']);
  });

  it(`follows at most ${HELPER_IMPORT_DEPTH} hops`, () => {
    const chain = Array.from({ length: HELPER_IMPORT_DEPTH + 2 }, (_, i) =>
      file(`h${i}.ts`, i === HELPER_IMPORT_DEPTH + 1 ? 'x.server.elicitInput({})' : `import { f } from './h${i + 1}.js';\n`),
    );
    const seed = file('seed.ts', `import '@modelcontextprotocol/sdk/server/mcp.js';\nimport { f } from './h0.js';\n`);
    expect(importedHelpers([seed], [seed, ...chain])).toEqual([]);
    const near = [...chain.slice(0, HELPER_IMPORT_DEPTH - 1), file(`h${HELPER_IMPORT_DEPTH - 1}.ts`, 'x.server.elicitInput({})')];
    expect(importedHelpers([seed], [seed, ...near]).map(f => path.basename(f.path))).toEqual(near.map(f => path.basename(f.path)));
  });
});

describe('imports through a tsconfig.json paths alias', () => {
  // `import { server } from '@/server'`: resolved as the project's compiler resolves it (the files on disk).
  it('keeps a file that registers on, or asks of, a server it imports by an alias; not one importing an unmapped package', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-triggers-')));
    try {
      const files = {
        'tsconfig.json':
          '{\n  // a template\'s\n  "compilerOptions": { "moduleResolution": "bundler", "baseUrl": ".", "paths": { "@/*": ["src/*"] } },\n}\n',
        'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const server = new McpServer({ name: 'a', version: '1' });\n`,
        'src/tools/echo.ts': `import { server } from '@/server';\nserver.tool('echo', async () => ({ content: [] }));\n`,
        'src/tools/ask.ts': `import { server } from '@/server';\nexport const ask = () => server.server.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } });\n`,
        'src/chat.ts': `import { agent } from 'agents';\nagent.tool('reply', () => agent.createMessage({}));\n`,
      };
      const inputs = Object.entries(files)
        .filter(([rel]) => rel.endsWith('.ts'))
        .map(([rel, text]) => {
          fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
          return { path: path.join(root, rel), text };
        });
      for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text);
      expect(worthAnalysing(inputs).map(f => path.relative(root, f.path))).toEqual([
        'src/server.ts',
        'src/tools/echo.ts',
        'src/tools/ask.ts',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
