/**
 * Stdio entries in every shape and file kind a server is written in: each becomes `serveStdio(...)` or
 * carries a `// mcp-migrate:` marker with a report line, never neither. Promise chains on `connect()`
 * (`.catch`, `.then`, both), ESM and CommonJS (`require`, `.cjs`, `.cts`), transports known by what
 * they are (an aliased import, a class of the project wrapping or extending the SDK's stdio transport,
 * an HTTP+SSE transport moved to server-legacy under an alias), and transports no one can tell the
 * kind of. One migrated CommonJS server is then served to a 2026-07-28 client and a 2025-era one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';
import { runScenario, type Scenario } from '../src/verify/index.js';
import { assertBuilt, makeTree, removeTree, runCli } from './cli-helpers.js';

const REPO = path.resolve(import.meta.dirname, '..');
/** Inside the repository: the migrated files resolve the SDK packages from its node_modules. */
const WORK = path.join(REPO, '.tmp', 'stdio-entries');

const ESM_IMPORTS = [
  "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
  "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';",
  "import { z } from 'zod';",
].join('\n');
const CJS_IMPORTS = [
  "const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');",
  "const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');",
  "const { z } = require('zod');",
].join('\n');
const TOOL = `
const server = new McpServer({ name: 'entries', version: '1.0.0' });

server.registerTool('greet', { inputSchema: { name: z.string() } }, async ({ name }) => {
  const answer = await server.server.elicitInput({ message: 'Which greeting?', requestedSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } });
  const word = answer.action === 'accept' ? String(answer.content?.word) : 'hello';
  return { content: [{ type: 'text', text: \`\${word}, \${name}\` }] };
});
`;

const KINDS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'] as const;
const commonJs = (ext: string) => ext === 'cjs' || ext === 'cts';

/** Entry statements that move to serveStdio, with what must follow it in the output. */
const MOVED: Record<string, { entry: string; expect: RegExp[] }> = {
  catch: {
    entry: 'server.connect(new StdioServerTransport()).catch((error) => { console.error(error); process.exit(1); });',
    expect: [/serveStdio\(\(\) => server, \{ onerror: \(error\) => \{ console\.error\(error\); process\.exit\(1\); \} \}\);/],
  },
  then: {
    entry: "server.connect(new StdioServerTransport()).then(() => console.error('ready on stdio'));",
    expect: [/serveStdio\(\(\) => server\);\nconsole\.error\('ready on stdio'\);/],
  },
  'then-catch': {
    entry:
      "server.connect(new StdioServerTransport()).then(() => {\n  console.error('ready');\n  console.error('on stdio');\n}).catch((error) => console.error(error));",
    expect: [
      /serveStdio\(\(\) => server, \{ onerror: \(error\) => console\.error\(error\) \}\);\nconsole\.error\('ready'\);\nconsole\.error\('on stdio'\);/,
    ],
  },
  'then-rejected': {
    entry:
      "void server.connect(new StdioServerTransport()).then(function () { console.error('ready'); }, (error) => console.error(error));",
    expect: [/serveStdio\(\(\) => server, \{ onerror: \(error\) => console\.error\(error\) \}\);\nconsole\.error\('ready'\);/],
  },
  'then-declares': {
    entry:
      "server.connect(new StdioServerTransport()).then(() => {\n  const started = Date.now();\n  console.error('ready at', started);\n});",
    expect: [/serveStdio\(\(\) => server\);\n\{\n  const started = Date\.now\(\);\n  console\.error\('ready at', started\);\n\}/],
  },
};

/** Entry statements that stay on connect(): marked, with why. */
const MARKED: Record<string, { entry: string; because: RegExp }> = {
  'then-uses-server': {
    entry: "server.connect(new StdioServerTransport()).then(() => server.server.sendLoggingMessage({ level: 'info', data: 'up' }));",
    because: /used once connected, in the \.then callback/,
  },
  'then-awaits': {
    entry:
      "server.connect(new StdioServerTransport()).then(async () => { await new Promise((resolve) => setTimeout(resolve, 1)); console.error('up'); });",
    because: /the promise connect\(\) returns is used/,
  },
  'then-this': {
    entry: 'server.connect(new StdioServerTransport()).then(function () { console.error(typeof this); });',
    because: /the promise connect\(\) returns is used/,
  },
  finally: {
    entry: "server.connect(new StdioServerTransport()).finally(() => console.error('done'));",
    because: /the promise connect\(\) returns is used/,
  },
};

function source(ext: string, entry: string): string {
  return `${commonJs(ext) ? CJS_IMPORTS : ESM_IMPORTS}\n${TOOL}\n${entry}\n`;
}

/** Each file in a directory of its own (its own requestState module), migrated in one run. */
async function migrateEach(
  files: Record<string, string>,
): Promise<{ result: MigrateResult; output: (file: string) => string; sitesOf: (file: string) => MigrateResult['report']['sites'] }> {
  const root = path.join(WORK, 'units');
  const inputs = Object.entries(files).map(([rel, text]) => ({ path: path.join(root, rel), text }));
  const result = await migrateSources(inputs, { cwd: root });
  const output = (file: string) => {
    const change = result.changes.find(c => c.path === path.join(root, file));
    if (!change) throw new Error(`${file} was not changed: ${JSON.stringify(result.report.files.find(f => f.file === file))}`);
    return change.after;
  };
  return { result, output, sitesOf: file => result.report.sites.filter(s => s.file === file) };
}

/** The connect() calls left in a text, each with whether a marker is on the line above it. */
function connectsLeft(text: string): { line: string; marked: boolean }[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) =>
    /\.connect\(/.test(line) && !/^\s*\/\//.test(line) ? [{ line: line.trim(), marked: /\/\/ mcp-migrate:/.test(lines[i - 1] ?? '') }] : [],
  );
}

describe('stdio entries written as promise chains, in every file kind', { timeout: 600_000 }, () => {
  let run: Awaited<ReturnType<typeof migrateEach>>;
  const file = (form: string, ext: string) => `${form}-${ext}/server.${ext}`;
  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (const ext of KINDS)
      for (const [form, { entry }] of Object.entries({ ...MOVED, ...MARKED })) files[file(form, ext)] = source(ext, entry);
    run = await migrateEach(files);
  });

  it('no file fails its rewrite or its self-check', () => {
    expect(run.result.report.files.filter(f => f.outcome === 'error' || f.outcome === 'skipped')).toEqual([]);
  });

  for (const ext of KINDS) {
    for (const [form, { expect: wanted }] of Object.entries(MOVED)) {
      it(`.${ext}: ${form} becomes serveStdio, with the callback's body after it`, () => {
        const out = run.output(file(form, ext));
        expect(connectsLeft(out)).toEqual([]);
        for (const pattern of wanted) expect(out).toMatch(pattern);
        // The stdio transport the entry no longer names is no longer imported (or required).
        expect(out).not.toMatch(/\bStdioServerTransport\b/);
        expect(out).toMatch(
          commonJs(ext)
            ? /const \{ serveStdio \} = require\(['"]@modelcontextprotocol\/server\/stdio['"]\);/
            : /import \{ serveStdio \} from ['"]@modelcontextprotocol\/server\/stdio['"];/,
        );
        expect(run.sitesOf(file(form, ext)).filter(s => s.kind === 'entry')).toEqual([]);
      });
    }
    for (const [form, { because }] of Object.entries(MARKED)) {
      it(`.${ext}: ${form} stays on connect(), marked and reported`, () => {
        const out = run.output(file(form, ext));
        expect(connectsLeft(out)).toEqual([expect.objectContaining({ marked: true })]);
        const entries = run.sitesOf(file(form, ext)).filter(s => s.kind === 'entry');
        expect(entries).toEqual([expect.objectContaining({ outcome: 'marked', reason: expect.stringMatching(because) })]);
        expect(out).toContain(`// mcp-migrate: ${entries[0]!.reason}`);
      });
    }
  }
});

describe('stdio transports known by what they are', { timeout: 600_000 }, () => {
  const TRANSPORT_TYPES = [
    "import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';",
    "import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';",
  ].join('\n');
  /** A class of the project's that forwards to the SDK's stdio transport it holds. */
  const LOGGED = `${TRANSPORT_TYPES}
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export class LoggedStdioTransport implements Transport {
  private readonly inner = new StdioServerTransport();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  async start(): Promise<void> {
    this.inner.onmessage = message => this.onmessage?.(message);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = error => this.onerror?.(error);
    await this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    console.error('->', message);
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
`;
  const APP = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LoggedStdioTransport } from './transport.js';

export class App {
  private readonly sdkServer = new McpServer({ name: 'wrapped', version: '1.0.0' });
  private readonly transport = new LoggedStdioTransport();

  async start(): Promise<void> {
    await this.sdkServer.connect(this.transport);
  }
}
`;
  const EXTENDED = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport as Stdio } from '@modelcontextprotocol/sdk/server/stdio.js';

class QuietStdio extends Stdio {}

const server = new McpServer({ name: 'extended', version: '1.0.0' });
const transport: QuietStdio = new QuietStdio();
await server.connect(transport);
`;
  const JS_WRAPPER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

class Tee {
  constructor() {
    this.inner = new StdioServerTransport();
  }
  start() { this.inner.onmessage = m => this.onmessage?.(m); return this.inner.start(); }
  send(m) { return this.inner.send(m); }
  close() { return this.inner.close(); }
}

const server = new McpServer({ name: 'tee', version: '1.0.0' });
server.connect(new Tee()).catch(error => console.error(error));
`;
  const PASSED_IN = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export async function serve(server: McpServer, transport: Transport): Promise<void> {
  await server.connect(transport);
}
`;
  const IN_MEMORY = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

const server = new McpServer({ name: 'paired', version: '1.0.0' });
const [, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
`;
  const SSE = `import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport as SseTransport } from '@modelcontextprotocol/sdk/server/sse.js';

const server = new McpServer({ name: 'sse', version: '1.0.0' });
const transports: Record<string, SseTransport> = {};
const app = express();
app.get('/sse', async (_req, res) => {
  const transport = new SseTransport('/messages', res);
  transports[transport.sessionId] = transport;
  await server.connect(transport);
});
app.listen(3000);
`;
  let run: Awaited<ReturnType<typeof migrateEach>>;
  beforeAll(async () => {
    run = await migrateEach({
      'wrapped/transport.ts': LOGGED,
      'wrapped/app.ts': APP,
      'extended/index.ts': EXTENDED,
      'js-wrapper/index.mjs': JS_WRAPPER,
      'passed-in/serve.ts': PASSED_IN,
      'in-memory/index.ts': IN_MEMORY,
      'sse/index.ts': SSE,
    });
  });

  it("a field holding the project's wrapper of the stdio transport: served by serveStdio, handed the wrapper", () => {
    const out = run.output('wrapped/app.ts');
    expect(out).toContain('serveStdio(() => this.sdkServer, { transport: this.transport });');
    expect(connectsLeft(out)).toEqual([]);
  });

  it('a subclass of the stdio transport imported under an alias, held in a typed variable: served by serveStdio', () => {
    const out = run.output('extended/index.ts');
    expect(out).toContain('serveStdio(() => server, { transport });');
    expect(connectsLeft(out)).toEqual([]);
  });

  it('a JavaScript class that makes the stdio transport in its constructor: served by serveStdio', () => {
    const out = run.output('js-wrapper/index.mjs');
    expect(out).toContain('serveStdio(() => server, { transport: new Tee(), onerror: error => console.error(error) });');
  });

  it('a transport passed in as Transport: marked, saying what to do over stdio and over HTTP', () => {
    const out = run.output('passed-in/serve.ts');
    expect(connectsLeft(out)).toEqual([{ line: 'await server.connect(transport);', marked: true }]);
    const [site] = run.sitesOf('passed-in/serve.ts').filter(s => s.kind === 'entry');
    expect(site).toMatchObject({ outcome: 'marked', handler: 'serving entry' });
    expect(site!.reason).toMatch(
      /connects the server by hand through transport \(a Transport\).*2025-era clients only.*serveStdio\(\(\) => server, \{ transport: transport \}\).*createMcpHandler/,
    );
  });

  it('an in-memory pair is no serving entry: left as it is, unmarked', () => {
    expect(run.sitesOf('in-memory/index.ts').filter(s => s.kind === 'entry')).toEqual([]);
  });

  it('an HTTP+SSE transport imported under an alias (server-legacy/sse after the upgrade): marked where it is made', () => {
    const out = run.output('sse/index.ts');
    expect(out).toContain("from '@modelcontextprotocol/server-legacy/sse'");
    const [site] = run.sitesOf('sse/index.ts').filter(s => s.kind === 'entry');
    expect(site).toMatchObject({ outcome: 'marked', line: 9 });
    expect(site!.reason).toMatch(/a 2026-07-28 client cannot reach this endpoint/);
    expect(out).toMatch(/\/\/ mcp-migrate: SSEServerTransport .*\n\s+const transport = new SseTransport\('\/messages', res\);/);
  });
});

describe('--check while a stdio entry is left', { timeout: 600_000 }, () => {
  const trees: string[] = [];
  beforeAll(assertBuilt);
  afterAll(async () => {
    await Promise.all(trees.map(removeTree));
  });
  const PACKAGE = JSON.stringify({
    name: 'cjs-entry',
    version: '1.0.0',
    dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.2.0' },
  });

  it('a CommonJS entry that stays on connect(): --check fails and names it; one that moves: --check passes once written', async () => {
    const left = await makeTree({ 'package.json': PACKAGE, 'src/index.cjs': source('cjs', MARKED['then-awaits']!.entry) });
    const moved = await makeTree({ 'package.json': PACKAGE, 'src/index.cjs': source('cjs', MOVED.then!.entry) });
    trees.push(left, moved);
    const written = await runCli(['src'], left);
    expect(written.code, written.stderr).toBe(0);
    const check = await runCli(['--check', 'src'], left);
    expect(check.code, check.stderr).toBe(1);
    expect(check.stderr).toMatch(/src\/index\.cjs:\d+:\d+\s+entry\s+server\.connect\(new StdioServerTransport\(\)\) stays/);

    expect((await runCli(['src'], moved)).code).toBe(0);
    const clean = await runCli(['--check', 'src'], moved);
    expect(clean.code, clean.stderr).toBe(0);
  });
});

describe('a CommonJS server whose entry was a .then chain, migrated and served', { timeout: 600_000 }, () => {
  const scenario: Scenario = {
    calls: [
      {
        name: 'greet',
        method: 'tools/call',
        params: { name: 'greet', arguments: { name: 'Ada' } },
        answers: { elicitation: [{ action: 'accept', content: { word: 'hi' } }] },
      },
    ],
  };
  let dir: string;
  beforeAll(async () => {
    dir = path.join(WORK, 'served');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'server.cjs');
    const result = await migrateSources([{ path: file, text: source('cjs', MOVED['then-catch']!.entry) }], { cwd: dir });
    for (const change of result.changes) if (change.path.startsWith(dir)) fs.writeFileSync(change.path, change.after);
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`answers a ${era === 'modern' ? '2026-07-28' : '2025-era'} client, asking its question`, async () => {
      // Generous: the limit only ends a server that hangs; a slow machine passes.
      const ran = await runScenario({ command: `node server.cjs`, cwd: dir, era, scenario, timeoutMs: 120_000 });
      expect(ran.fatal, ran.stderr).toBeUndefined();
      if (era === 'modern') expect(ran.protocolVersion).toBe('2026-07-28');
      expect(ran.calls[0]).toMatchObject({ result: { content: [{ type: 'text', text: 'hi, Ada' }] } });
      expect(ran.calls[0]!.requests.map(r => r.method)).toEqual(['elicitation/create']);
      expect(ran.stderr).toContain('ready');
    });
  }
});
