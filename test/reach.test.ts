/**
 * What replay reaches, in projects shaped as users' projects are: each project is migrated in a fresh
 * directory outside the repository, twice: with nothing installed (node's and the SDK's declarations do not
 * resolve there) and with the packages installed (a node_modules link); both runs must give the same
 * result. The outputs are then typechecked against the real types.
 *
 * A request some tools/call, prompts/get or resources/read handler may run is rewritten where it is written,
 * in whatever file: its receiver goes through ask(...), and the registration of each handler that may run it
 * through resumable(...). A helper's file is edited there and nowhere else, but for work done before a later
 * question (journaled(...)): nothing is pasted into the handler, exported, given a setter or labelled.
 * A request no such handler can run (a lifecycle callback, a notification handler, a timer, module level)
 * is marked with why. Where a migrated project can be served, verify compares it with the original on both eras.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { partitionCandidates } from '../src/partition.js';
import { finishRun, migrateGroup, migrateSources, placeStateModules, type MigrateResult } from '../src/pipeline.js';
import { upgradeV1 } from '../src/upgrade/index.js';
import { formatVerifyTable, parseScenario, verify, type VerifyResult } from '../src/verify/index.js';
import { Project, ts } from 'ts-morph';
import { typecheckFiles } from './support/typecheck.js';
import { discardedWork } from './support/journaledWork.js';

const root = path.resolve(import.meta.dirname, '..');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

interface Migrated {
  dir: string;
  result: MigrateResult;
  /** A file's text after the run (as it was when unchanged), by its path in the project. */
  text(rel: string): string;
  /** A source as the official v1-to-v2 upgrade alone leaves it (as it was when it has nothing of SDK 1.x). */
  upgraded(rel: string): string;
  sites(rel: string): MigrateResult['report']['sites'];
}

/** Writes the project into a fresh directory outside the repository. */
function writeProject(files: Record<string, string>, installed: boolean): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-reach-')));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  if (installed) fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

const isSource = (rel: string) => /\.[cm]?[jt]s$/.test(rel);

/** Migrates the project's sources (those under `only`, if given) in a fresh directory, and writes the changes. */
async function migrate(files: Record<string, string>, installed: boolean, only = ''): Promise<Migrated> {
  const dir = writeProject(files, installed);
  const sources = Object.entries(files)
    .filter(([rel]) => isSource(rel) && rel.startsWith(only))
    .map(([rel, text]) => ({ path: path.join(dir, rel), text }));
  const result = await migrateSources(sources, { cwd: dir });
  for (const c of result.changes) fs.writeFileSync(c.path, c.after);
  let upgrades: Map<string, string> | undefined;
  return {
    dir,
    result,
    text: rel => fs.readFileSync(path.join(dir, rel), 'utf8'),
    upgraded: rel => {
      upgrades ??= upgradeV1(
        Object.entries(files)
          .filter(([r]) => isSource(r))
          .map(([r, text]) => ({ path: path.join(dir, r), text })),
      ).texts;
      return upgrades.get(path.join(dir, rel)) ?? files[rel]!;
    },
    sites: rel => result.report.sites.filter(s => s.file === rel),
  };
}

/** The same project migrated with nothing installed and with the packages installed: the same result. */
async function bothWays(files: Record<string, string>): Promise<Migrated> {
  const bare = await migrate(files, false);
  const installed = await migrate(files, true);
  const outputs = (m: Migrated) => m.result.changes.map(c => ({ path: path.relative(m.dir, c.path), after: c.after }));
  expect(outputs(installed)).toEqual(outputs(bare));
  expect(installed.result.report.sites).toEqual(bare.result.report.sites);
  return installed;
}

function typecheck(m: Migrated): string[] {
  const files = fs
    .readdirSync(m.dir, { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules'))
    .map(f => path.join(m.dir, f));
  return typecheckFiles(files, m.dir);
}

/** Each site as `file:line outcome kind`, to compare in one look. */
const outcomes = (m: Migrated) => m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind}`);

/** `name(target)` as the rewrite writes a request's receiver, with or without the key the answer is asked under. */
function asked(target: string, name = 'ask'): RegExp {
  return new RegExp(`\\b${name}\\(${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:, '[^']*')?\\)`);
}

/**
 * The text with the replay's edits taken off: `ask(x)`, `resumable(x)` and `journaled(() => x)` back to `x`,
 * `clientCapabilities(x)` back to `x.getClientCapabilities()`, the `rethrowIfSuspended();` lines, the
 * requestState option of the server's construction and the import of the requestState module gone. What is
 * left differs from the upgraded original only by what else the run did (markers, serving entries).
 */
function unreplayed(text: string, fileName = 'file.ts'): string {
  const kind = /\.[cm]?jsx?$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  for (;;) {
    const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
    const slice = (node: ts.Node) => text.slice(node.getStart(sf), node.getEnd());
    const wholeLines = (node: ts.Node) => {
      const end = text.indexOf('\n', node.getEnd());
      return { start: text.lastIndexOf('\n', node.getStart(sf) - 1) + 1, end: end < 0 ? text.length : end + 1 };
    };
    // The requestState module's names as the file imports them (aliased where the file has the name).
    const names = new Map<string, string>();
    let stateImport: { start: number; end: number } | undefined;
    for (const st of sf.statements) {
      if (
        !ts.isImportDeclaration(st) ||
        !ts.isStringLiteral(st.moduleSpecifier) ||
        !/(^|\/)mcp-migrate-state(\.[cm]?[jt]s)?$/.test(st.moduleSpecifier.text)
      )
        continue;
      const bindings = st.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) names.set(e.name.text, (e.propertyName ?? e.name).text);
      stateImport = wholeLines(st);
    }
    let edit: { start: number; end: number; text: string } | undefined;
    // The innermost edit first: the text it puts back is then the original's.
    const visit = (node: ts.Node): void => {
      ts.forEachChild(node, visit);
      if (edit) return;
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.has(node.expression.text)) {
        const what = names.get(node.expression.text);
        const [arg] = node.arguments;
        const at = { start: node.getStart(sf), end: node.getEnd() };
        if ((what === 'ask' || what === 'resumable') && arg) edit = { ...at, text: slice(arg) };
        else if (what === 'journaled' && arg && ts.isArrowFunction(arg) && !ts.isBlock(arg.body)) edit = { ...at, text: slice(arg.body) };
        else if (what === 'journaled' && arg && ts.isArrowFunction(arg) && discardedWork(arg.body, ts.isAwaitExpression(node.parent)))
          edit = { ...at, text: slice(discardedWork(arg.body, ts.isAwaitExpression(node.parent))!) };
        else if (what === 'clientCapabilities' && arg) edit = { ...at, text: `${slice(arg)}.getClientCapabilities()` };
        else if (what === 'rethrowIfSuspended' && ts.isExpressionStatement(node.parent)) edit = { ...wholeLines(node.parent), text: '' };
      }
      if (
        ts.isPropertyAssignment(node) &&
        node.name.getText(sf) === 'requestState' &&
        /\bverifyRequestState\b/.test(slice(node.initializer))
      ) {
        const options = node.parent;
        const made = options.parent;
        if (options.properties.length === 1 && ts.isNewExpression(made) && made.arguments?.length === 2)
          edit = { start: made.arguments[0]!.getEnd(), end: options.getEnd(), text: '' };
        else
          edit = { start: node.getStart(sf), end: node.getEnd() + (/^\s*,\s*/.exec(text.slice(node.getEnd()))?.[0].length ?? 0), text: '' };
      }
    };
    visit(sf);
    // (an import the run put first in a file that had none, with a blank line after it)
    if (!edit && stateImport)
      edit = {
        start: stateImport.start,
        end: stateImport.end + (stateImport.start === 0 && text[stateImport.end] === '\n' ? 1 : 0),
        text: '',
      };
    if (!edit) return text;
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  }
}

/** The lines the run marked (`// mcp-migrate: ...`), taken off. */
const unmarked = (text: string) => text.replace(/^[ \t]*\/\/ mcp-migrate: [^\n]*\n/gm, '');

/** The upgraded original's stdio entry as the run moves it: `serveStdio(() => server)`. */
function servedByServeStdio(text: string): string {
  return text
    .replace(
      /^import \{ StdioServerTransport \} from '@modelcontextprotocol\/server\/stdio';$/m,
      "import { serveStdio } from '@modelcontextprotocol/server/stdio';",
    )
    .replace(/^await ([\w.]+)\.connect\(new StdioServerTransport\(\)\);$/m, 'serveStdio(() => $1);');
}

/** Asserts that the run edited the file only by the replay's wrapping (and the marks and entries given). */
function expectOnlyReplayEdits(m: Migrated, rel: string, { marks = false, stdio = false } = {}): void {
  let after = unreplayed(m.text(rel), rel);
  if (marks) after = unmarked(after);
  const before = stdio ? servedByServeStdio(m.upgraded(rel)) : m.upgraded(rel);
  expect(after, rel).toBe(before);
}

/** The project with a stdio entry for the server `server` of `rel`, so verify can serve it. */
function withStdio(files: Record<string, string>, rel: string, server = 'server'): Record<string, string> {
  const entry = "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';\n";
  return { ...files, [rel]: `${entry}${files[rel]}\nawait ${server}.connect(new StdioServerTransport());\n` };
}

type Call = { name: string; tool: string; arguments?: Record<string, unknown>; elicitation?: unknown[]; sampling?: unknown[] };

/**
 * The original (SDK 1.x, a 2025-era client) and the migrated project (a 2026-07-28 client, and a 2025-era one
 * through the SDK's legacy shim) served over stdio, the same calls made of each, in order on one connection.
 */
async function verifyBothEras(files: Record<string, string>, entry: string, calls: Call[]): Promise<VerifyResult> {
  const before = writeProject(files, true);
  const after = await migrate(files, true);
  return verify({
    before: `${tsx} ${path.join(before, entry)}`,
    after: `${tsx} ${path.join(after.dir, entry)}`,
    scenario: parseScenario({
      calls: calls.map(c => ({
        name: c.name,
        method: 'tools/call',
        params: { name: c.tool, ...(c.arguments ? { arguments: c.arguments } : {}) },
        answers: { ...(c.elicitation ? { elicitation: c.elicitation } : {}), ...(c.sampling ? { sampling: c.sampling } : {}) },
      })),
    }),
    env: { ...process.env, MCP_REQUEST_STATE_KEY: 'test-key-for-request-state-0123456789abcdef' },
    timeoutMs: 120_000,
  });
}

/** Whether every run of the named calls gave the original's result and requests. */
function sameOnBothEras(result: VerifyResult, ...names: string[]): void {
  const rows = result.rows.filter(r => names.includes(r.call));
  expect(rows, formatVerifyTable(result)).toHaveLength(names.length * 3);
  expect(
    rows.filter(r => !r.ok).map(r => `${r.call} (${r.run}): ${r.reason ?? ''}`),
    formatVerifyTable(result),
  ).toEqual([]);
}

/** A project's package.json on SDK 1.x and zod 4, an ES module package or (by default) a CommonJS one. */
function legacyPackage(name: string, type?: 'module'): string {
  return JSON.stringify({ name, ...(type ? { type } : {}), dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^4.2.0' } });
}

const PACKAGE = legacyPackage('bindings', 'module');

describe('a helper that uses names of node built-ins', () => {
  // The handler's file imports readFileSync from node:fs and declares an isAbsolute of its own; the helper
  // imports isAbsolute from node:path and existsSync and statSync from node:fs. Nothing moves between the
  // files, so each name keeps the module it comes from, whatever is installed.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { askPath } from './ask.js';

const server = new McpServer({ name: 'bindings', version: '1.0.0' });

/** The server's own isAbsolute: the helper's, from node:path, is imported under another name. */
function isAbsolute(p: string): boolean {
  return p.startsWith('~');
}

server.registerTool('read', { inputSchema: { hint: z.string() } }, async ({ hint }) => {
  const p = await askPath(server, hint);
  return { content: [{ type: 'text', text: isAbsolute(p) ? 'home' : readFileSync(p, 'utf8') }] };
});

await server.connect(new StdioServerTransport());
`,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { isAbsolute } from 'node:path';
import { existsSync, statSync } from 'node:fs';

export async function askPath(server: McpServer, hint: string): Promise<string> {
  const answer: ElicitResult = await server.server.elicitInput({ message: \`Path (\${hint})?\`, requestedSchema: { type: 'object', properties: { p: { type: 'string' } }, required: ['p'] } });
  const p = answer.action === 'accept' ? String(answer.content?.p) : '.';
  if (!isAbsolute(p) || !existsSync(p) || !statSync(p).isFile()) return '/dev/null';
  return p;
}
`,
  };
  let m: Migrated;

  it('rewrites the request where the helper writes it, and leaves each file its own names', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/ask.ts:7 rewritten elicitation']);
    expect(m.sites('src/ask.ts')[0]).toMatchObject({ handler: 'tools/call read', call: 'server.server.elicitInput(...)' });
    const ask = m.text('src/ask.ts');
    expect(ask).toMatch(new RegExp(`const answer: ElicitResult = await ${asked('server.server').source}\\.elicitInput\\(`));
    expect(ask).toMatch(/^import \{ isAbsolute \} from 'node:path';\nimport \{ existsSync, statSync \} from 'node:fs';$/m);
    expectOnlyReplayEdits(m, 'src/ask.ts');
    const server = m.text('src/server.ts');
    expect(server).toContain("resumable(server).registerTool('read',");
    expect(server).toContain("text: isAbsolute(p) ? 'home' : readFileSync(p, 'utf8')");
    expect(server).not.toMatch(/^import .*(node:path|existsSync|statSync|ElicitResult)/m);
    expectOnlyReplayEdits(m, 'src/server.ts', { stdio: true });
  }, 600_000);

  it('reads the file system on each round, as a request of its own', () => {
    expect(m.text('src/ask.ts')).toContain("if (!isAbsolute(p) || !existsSync(p) || !statSync(p).isFile()) return '/dev/null';");
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('helpers whose names mean something else in the handler file', () => {
  // The handler file has a process of its own and a LIMIT from another module; count.ts reads its own LIMIT,
  // dir.ts the global process. Pasted into the handler they would change meaning; written where they are,
  // they keep it.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMIT } from './other-limits.js';
import { askCount } from './count.js';
import { askDir } from './dir.js';

const server = new McpServer({ name: 'bindings', version: '1.0.0' });

/** Not node's process: the helper's process.cwd() must not become this one. */
const process = { cwd: () => '/srv' };

server.registerTool('count', { description: 'Asks a count' }, async () => {
  const n = await askCount(server);
  return { content: [{ type: 'text', text: \`\${n} of \${LIMIT}\` }] };
});

server.registerTool('dir', { description: 'Asks a directory' }, async () => {
  const d = await askDir(server);
  return { content: [{ type: 'text', text: \`\${d} in \${process.cwd()}\` }] };
});
`,
    'src/other-limits.ts': `export const LIMIT = 'the server\\'s own';
`,
    'src/limits.ts': `export const LIMIT = 10;
`,
    'src/count.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMIT } from './limits.js';

export async function askCount(server: McpServer): Promise<number> {
  const a = await server.server.elicitInput({ message: \`How many (up to \${LIMIT})?\`, requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } });
  return a.action === 'accept' ? Math.min(Number(a.content?.n), LIMIT) : 0;
}
`,
    'src/dir.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function askDir(server: McpServer): Promise<string> {
  const a = await server.server.elicitInput({ message: \`Directory under \${process.cwd()}?\`, requestedSchema: { type: 'object', properties: { d: { type: 'string' } } } });
  return a.action === 'accept' ? String(a.content?.d) : process.cwd();
}
`,
  };
  let m: Migrated;

  it('rewrites each request in its own file, and adds no import to the handler file', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/count.ts:5 rewritten elicitation', 'src/dir.ts:4 rewritten elicitation']);
    expect(m.sites('src/count.ts')[0]!.handler).toBe('tools/call count');
    expect(m.sites('src/dir.ts')[0]!.handler).toBe('tools/call dir');
    const server = m.text('src/server.ts');
    expect(server).toContain("resumable(server).registerTool('count',");
    expect(server).toContain("resumable(server).registerTool('dir',");
    expect(server).toMatch(/^import \{ LIMIT \} from '\.\/other-limits\.js';$/m);
    expect(server).not.toContain("'./limits.js'");
    expect(server).toContain("const process = { cwd: () => '/srv' };");
    for (const rel of ['src/server.ts', 'src/count.ts', 'src/dir.ts']) expectOnlyReplayEdits(m, rel);
    expect(m.text('src/count.ts')).toMatch(/^import \{ LIMIT \} from '\.\/limits\.js';$/m);
    expect(m.text('src/limits.ts')).toBe(files['src/limits.ts']);
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a helper that reads a module const and increments a module let after its question', () => {
  // askName is the last thing its only handler does: what it does after its question runs once, on the
  // call's last round, so its `++counted` is done once per call as written; nothing of ask.ts is exported.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName } from './ask.js';

const server = new McpServer({ name: 'locals', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askName(server);
  return { content: [{ type: 'text', text: \`Hello \${name}\` }] };
});
`,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const prefix = 'Your name';
let counted = 0;

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({ message: \`\${prefix}?\`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  const n = ++counted;
  return answer.action === 'accept' ? \`\${String(answer.content?.name)} (\${n})\` : 'friend';
}
`,
  };
  let m: Migrated;

  it('leaves the increment after the last question as it is, and the module-level names where they are', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/ask.ts:7 rewritten elicitation']);
    const ask = m.text('src/ask.ts');
    expect(ask).toContain('  const n = ++counted;\n');
    expect(ask).toMatch(/^const prefix = 'Your name';\nlet counted = 0;$/m);
    expect(ask).not.toMatch(/^export (const|let) /m);
    expectOnlyReplayEdits(m, 'src/ask.ts');
    expect(m.text('src/server.ts')).toMatch(/^import \{ askName \} from '\.\/ask\.js';$/m);
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('gives the same results on both eras, the counter going up once per call', async () => {
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'first', tool: 'hello', elicitation: [{ action: 'accept', content: { name: 'Ada' } }] },
      { name: 'second', tool: 'hello', elicitation: [{ action: 'accept', content: { name: 'Bo' } }] },
    ]);
    sameOnBothEras(result, 'first', 'second');
  }, 600_000);
});

describe('a helper run last by one handler and before a question by another', () => {
  // askName counts its calls after its question. 'hello' runs it last: that part of it runs once, on the
  // call's last round. 'twice' asks again after its first call: that call runs again on the next round, so
  // the count it made is journaled and replayed there. Either way each call of askName counts once, on both eras.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName, count } from './ask.js';

const server = new McpServer({ name: 'last', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askName(server);
  return { content: [{ type: 'text', text: \`Hello \${name} (\${count()} asked)\` }] };
});

server.registerTool('twice', { description: 'Greets two' }, async () => {
  const first = await askName(server);
  const second = await askName(server);
  return { content: [{ type: 'text', text: \`Hello \${first} and \${second} (\${count()} asked)\` }] };
});
`,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

let asked = 0;

export function count(): number {
  return asked;
}

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  const n = ++asked;
  return answer.action === 'accept' ? \`\${String(answer.content?.name)} #\${n}\` : 'friend';
}
`,
  };

  it('journals the count after the question, since one handler asks again after the helper', async () => {
    const m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/ask.ts:10 rewritten elicitation']);
    expect(m.text('src/ask.ts')).toContain('  const n = journaled(() => ++asked);\n');
    expectOnlyReplayEdits(m, 'src/ask.ts');
  }, 600_000);

  it('leaves it as written when no handler asks after the helper', async () => {
    const one = { ...files, 'src/server.ts': files['src/server.ts'].replace(/\nserver\.registerTool\('twice'[\s\S]*$/, '') };
    const m = await bothWays(one);
    expect(m.text('src/ask.ts')).toContain('  const n = ++asked;\n');
    expectOnlyReplayEdits(m, 'src/ask.ts');
  }, 600_000);

  it('counts each call of the helper once, on both eras', async () => {
    const name = (n: string) => ({ action: 'accept', content: { name: n } });
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'one', tool: 'hello', elicitation: [name('Ada')] },
      { name: 'two', tool: 'twice', elicitation: [name('Bo'), name('Cy')] },
      { name: 'three', tool: 'hello', elicitation: [name('Di')] },
    ]);
    sameOnBothEras(result, 'one', 'two', 'three');
  }, 600_000);
});

describe('a helper that assigns module-level variables of its own module', () => {
  // An import cannot assign what it imports, so inlining needed setters; replay leaves the helper where it
  // is, its variables assigned as they were. What a second run would do again (`asked++`, `asked += 10`) is
  // journaled; what it would leave as the first run left it (`lastName = given`) is not.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName, summary } from './ask.js';

const server = new McpServer({ name: 'setters', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askName(server);
  return { content: [{ type: 'text', text: \`Hello \${name} (\${summary()})\` }] };
});
`,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

type Mode = 'new' | 'known';

let mode: Mode = 'new';
var asked = 0;
let lastName: string | undefined;

export function summary(): string {
  return \`\${mode}, asked \${asked}, last \${lastName ?? 'nobody'}\`;
}

export async function askName(server: McpServer): Promise<string> {
  if (mode === 'known' && lastName) return lastName;
  asked++;
  const answer = await server.server.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  if (answer.action !== 'accept') return 'friend';
  const given = String(answer.content?.name);
  lastName = given;
  mode = 'known';
  asked += 10;
  return given;
}
`,
  };
  let m: Migrated;

  it('journals the increment before the question, and neither exports the variables nor adds setters', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/ask.ts:16 rewritten elicitation']);
    const ask = m.text('src/ask.ts');
    expect(ask).toContain('  journaled(() => asked++);\n');
    // After the last question of the helper its only handler runs last: done once, on the last round.
    expect(ask).toContain('  asked += 10;\n');
    expect(ask).toContain("  lastName = given;\n  mode = 'known';\n");
    expect(ask).toMatch(/^let mode: Mode = 'new';\nvar asked = 0;\nlet lastName: string \| undefined;$/m);
    expect(ask).not.toMatch(/function set[A-Z]|^export (let|var) /m);
    expectOnlyReplayEdits(m, 'src/ask.ts');
    expect(m.text('src/server.ts')).toMatch(/^import \{ askName, summary \} from '\.\/ask\.js';$/m);
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('gives the same results on both eras, the module state read back by the handler', async () => {
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'declined', tool: 'hello', elicitation: [{ action: 'decline' }] },
      { name: 'named', tool: 'hello', elicitation: [{ action: 'accept', content: { name: 'Ada' } }] },
      { name: 'known', tool: 'hello' },
    ]);
    sameOnBothEras(result, 'declined', 'named', 'known');
  }, 600_000);
});

describe('a cache filler of another module', () => {
  // getSettings() returns its module's cache when set, else asks once and fills it; one tool awaits it in
  // an expression. Nothing is split: the helper asks where it did, for both tools, and fills its cache on
  // the round its answer comes.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getSettings } from './settings.js';

const server = new McpServer({ name: 'settings', version: '1.0.0' });

server.registerTool('theme', { description: 'The theme, asked once' }, async () => {
  const settings = await getSettings(server);
  return { content: [{ type: 'text', text: settings.theme }] };
});

server.registerTool('summary', { description: 'The settings, asked once' }, async () => {
  return { content: [{ type: 'text', text: JSON.stringify(await getSettings(server)) }] };
});
`,
    'src/settings.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

interface Settings {
  theme: string;
}

let cached: Settings | undefined;

export async function getSettings(server: McpServer): Promise<Settings> {
  if (cached !== undefined) return cached;
  const answer = await server.server.elicitInput({ message: 'Theme?', requestedSchema: { type: 'object', properties: { theme: { type: 'string' } } } });
  cached = { theme: answer.action === 'accept' ? String(answer.content?.theme) : 'light' };
  return cached;
}
`,
  };
  let m: Migrated;

  it('rewrites the one request for both tools, the cache left to the helper', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/settings.ts:11 rewritten elicitation']);
    expect(m.sites('src/settings.ts')[0]!.reason).toMatch(/while tools\/call theme, tools\/call summary run$/);
    const server = m.text('src/server.ts');
    expect(server).toContain("resumable(server).registerTool('theme',");
    expect(server).toContain("resumable(server).registerTool('summary',");
    expect(server).toContain('text: JSON.stringify(await getSettings(server))');
    expect(server).toMatch(/^import \{ getSettings \} from '\.\/settings\.js';$/m);
    const settings = m.text('src/settings.ts');
    expect(settings).toContain('if (cached !== undefined) return cached;');
    expect(settings).not.toMatch(/export interface|cachedSettings|fillSettings/);
    for (const rel of ['src/server.ts', 'src/settings.ts']) expectOnlyReplayEdits(m, rel);
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('gives the same results on both eras: asked by the first tool, read from the cache by the second', async () => {
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'theme', tool: 'theme', elicitation: [{ action: 'accept', content: { theme: 'dark' } }] },
      { name: 'summary', tool: 'summary' },
    ]);
    sameOnBothEras(result, 'theme', 'summary');
  }, 600_000);
});

describe('a request method bound as a value and handed to a retry wrapper of another file', () => {
  // withRetry() calls what it is handed inside a try whose catch gives up quietly: handed a bound
  // createMessage, its call asks, so the catch must let a suspended round through, or a 2026-07-28 call
  // would answer "no reply" without ever asking. Each attempt is counted: once per call on either era.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { attempts, withRetry } from './retry.js';

const server = new McpServer({ name: 'bindings', version: '1.0.0' });

server.registerTool('summary', { inputSchema: { text: z.string() } }, async ({ text }) => {
  const send = server.server.createMessage.bind(server.server, { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  const reply = await withRetry(send);
  return { content: [{ type: 'text', text: reply?.model ?? 'no reply' }] };
});

server.registerTool('attempts', {}, async () => ({ content: [{ type: 'text', text: String(attempts) }] }));
`,
    'src/retry.ts': `export let attempts = 0;

export async function withRetry<T>(send: () => Promise<T>): Promise<T | undefined> {
  try {
    attempts++;
    return await send();
  } catch {
    return undefined;
  }
}
`,
  };

  it("guards the wrapper's catch, in its own file", async () => {
    const m = await bothWays(files);
    expect(m.text('src/retry.ts')).toMatch(/\} catch \{\n\s+rethrowIfSuspended\(\);\n\s+return undefined;/);
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('reports the wrapper as not migrated when the run is not given its file, and edits nothing of it', async () => {
    const dir = writeProject(files, true);
    const server = path.join(dir, 'src/server.ts');
    const result = await migrateSources([{ path: server, text: files['src/server.ts'] }], { cwd: dir });
    expect(result.report.files.find(f => f.file === 'src/retry.ts')).toMatchObject({
      outcome: 'error',
      reason: expect.stringMatching(/^src\/retry\.ts: not migrated: .* not among the files of this run/),
    });
    expect(result.changes.map(c => path.relative(dir, c.path))).not.toContain('src/retry.ts');
  }, 600_000);

  it('rewrites the wrapper once when the handlers that run it are migrated in two groups', async () => {
    const other = files['src/server.ts']
      .replace("'summary'", "'brief'")
      .replace("server.registerTool('attempts', {}, async () => ({ content: [{ type: 'text', text: String(attempts) }] }));\n", '');
    const two = { ...files, 'src/other.ts': other };
    const dir = writeProject(two, true);
    const sources = Object.entries(two)
      .filter(([rel]) => isSource(rel))
      .map(([rel, text]) => ({ path: path.join(dir, rel), text }));
    const [server, retry, second] = ['src/server.ts', 'src/retry.ts', 'src/other.ts'].map(rel =>
      sources.find(f => f.path === path.join(dir, rel))!,
    );
    const state = placeStateModules([server!, second!], dir);
    const options = { cwd: dir, inertSources: new Set([retry!.path]) };
    const result = finishRun([migrateGroup([server!], state, options), migrateGroup([second!], state, options)], sources, state, options);
    const alone = await migrateSources(sources, { cwd: dir });
    const retryChanges = result.changes.filter(c => c.path === retry!.path);
    expect(retryChanges).toHaveLength(1);
    expect(retryChanges[0]!.after).toBe(alone.changes.find(c => c.path === retry!.path)!.after);
    expect(result.report.files.filter(f => f.file === 'src/retry.ts')).toEqual([{ file: 'src/retry.ts', outcome: 'changed' }]);
  }, 600_000);

  it('gives the same results on both eras, each attempt counted once', async () => {
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      {
        name: 'summary',
        tool: 'summary',
        arguments: { text: 'the disk filled up' },
        sampling: [{ role: 'assistant', model: 'm-short', content: { type: 'text', text: 'disk full' } }],
      },
      { name: 'attempts', tool: 'attempts' },
    ]);
    sameOnBothEras(result, 'summary', 'attempts');
  }, 600_000);
});

describe('a helper of the same file', () => {
  // The handler passes its local `question`, and the helper declares a `question` of its own; another
  // handler has a local DEFAULT_NAME beside the module's, which the helper reads. Both run the helper as written.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const server = new McpServer({ name: 'bindings', version: '1.0.0' });
const DEFAULT_NAME = 'friend';

async function askName(prompt: string): Promise<string> {
  const question = \`\${prompt} (or leave it empty)\`;
  const answer = await server.server.elicitInput({ message: question, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' && answer.content?.name ? String(answer.content.name) : DEFAULT_NAME;
}

server.registerTool('greet', { description: 'Greets' }, async () => {
  const question = 'Your name?';
  const name = await askName(question);
  return { content: [{ type: 'text', text: \`Hello \${name}\` }] };
});

server.registerTool('shadow', { description: 'Greets, with a default of its own' }, async () => {
  const DEFAULT_NAME = 'stranger';
  const name = await askName('Name?');
  return { content: [{ type: 'text', text: \`Hello \${name}, not \${DEFAULT_NAME}\` }] };
});
`,
  };
  let m: Migrated;

  it('rewrites the request in the helper for both handlers, every local left as it is', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/server.ts:8 rewritten elicitation']);
    expect(m.sites('src/server.ts')[0]!.reason).toMatch(/while tools\/call greet, tools\/call shadow run$/);
    const server = m.text('src/server.ts');
    expect(server).toContain('const question = `${prompt} (or leave it empty)`;');
    expect(server).toContain("resumable(server).registerTool('greet',");
    expect(server).toContain("resumable(server).registerTool('shadow',");
    expect(server).toContain("const DEFAULT_NAME = 'stranger';\n  const name = await askName('Name?');");
    expect(server).not.toMatch(/mcp-migrate:/);
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('values a helper changes before its question', () => {
  // askTopic changes the imported live binding the topic handler hands it (through advanceTopic);
  // confirmSeen adds to the array the seen handler's message was made from; confirmAll pushes to the
  // items handler's own array; askOrdered swaps its parameters. On a later round each handler runs again
  // from the top: what it read before the helper changed it must be read as it was the first time.
  const files = {
    'package.json': PACKAGE,
    'src/state.ts': `export let currentTopic = 'start';
export function advanceTopic(next: string): void {
  currentTopic = next;
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { advanceTopic, currentTopic } from './state.js';

const server = new McpServer({ name: 'bindings', version: '1.0.0' });
const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function askTopic(topic: string): Promise<string> {
  advanceTopic('changed');
  const answer = await server.server.elicitInput({ message: \`About \${topic}?\`, requestedSchema: okSchema });
  return \`\${answer.action}: \${topic}\`;
}

async function askOrdered(first: string, second: string): Promise<string> {
  if (first > second) [first, second] = [second, first];
  const answer = await server.server.elicitInput({ message: \`\${first} before \${second}?\`, requestedSchema: okSchema });
  return \`\${answer.action}: \${first}, \${second}\`;
}

async function confirmAll(list: string[], message: string): Promise<string> {
  list.push('extra');
  const answer = await server.server.elicitInput({ message, requestedSchema: okSchema });
  return \`\${answer.action}: \${list.length}\`;
}

server.registerTool('items', { inputSchema: { first: z.string() } }, async ({ first }) => {
  const items = [first];
  const said = await confirmAll(items, \`Confirm \${items}?\`);
  return { content: [{ type: 'text', text: said }] };
});

const seen: string[] = [];
function remember(what: string): void {
  seen.push(what);
}

async function confirmSeen(message: string): Promise<boolean> {
  remember('asked');
  const answer = await server.server.elicitInput({ message, requestedSchema: okSchema });
  return answer.action === 'accept';
}

server.registerTool('seen', { description: 'Asks with what was seen' }, async () => {
  const ok = await confirmSeen(\`Seen: \${seen}\`);
  return { content: [{ type: 'text', text: String(ok) }] };
});

server.registerTool('topic', { description: 'Asks about the topic' }, async () => {
  const said = await askTopic(currentTopic);
  return { content: [{ type: 'text', text: said }] };
});

server.registerTool('order', { inputSchema: { a: z.string(), b: z.string() } }, async ({ a, b }) => {
  const said = await askOrdered(a, b);
  return { content: [{ type: 'text', text: \`\${said} (\${a}, \${b})\` }] };
});
`,
  };
  let m: Migrated;
  let both: Promise<VerifyResult> | undefined;
  const runBoth = () =>
    (both ??= verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'items', tool: 'items', arguments: { first: 'pen' }, elicitation: [{ action: 'accept', content: { ok: true } }] },
      { name: 'order', tool: 'order', arguments: { a: 'b', b: 'a' }, elicitation: [{ action: 'accept', content: { ok: true } }] },
      { name: 'topic', tool: 'topic', elicitation: [{ action: 'accept', content: { ok: true } }] },
      { name: 'seen', tool: 'seen', elicitation: [{ action: 'accept', content: { ok: true } }] },
    ]));

  it("rewrites each request in its helper, journals the change to a module array, and not the handlers' own values", async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual([
      'src/server.ts:10 rewritten elicitation',
      'src/server.ts:16 rewritten elicitation',
      'src/server.ts:22 rewritten elicitation',
      'src/server.ts:39 rewritten elicitation',
    ]);
    const server = m.text('src/server.ts');
    expect(server).toContain("  journaled(() => remember('asked'));\n");
    // The items handler's array and the order handler's arguments are made again on each round.
    expect(server).toContain("  list.push('extra');\n");
    expect(server).toContain('  if (first > second) [first, second] = [second, first];\n');
    expect(server).toContain("  advanceTopic('changed');\n");
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('gives the same results on both eras where the helper changes only what the handler makes', async () => {
    sameOnBothEras(await runBoth(), 'items', 'order');
  }, 600_000);

  it('journals what the handler reads before its helper changes it', () => {
    const server = m.text('src/server.ts');
    expect(server).toMatch(/askTopic\(journaled\(\(\) => currentTopic\)\)/);
    expect(server).toMatch(/confirmSeen\((journaled\(\(\) => `Seen: \$\{seen\}`\)|`Seen: \$\{journaled\(\(\) => seen\)\}`)\)/);
  });

  it('gives the same results on both eras where the helper changes what the handler read', async () => {
    sameOnBothEras(await runBoth(), 'topic', 'seen');
  }, 600_000);
});

describe('handlers and helpers that keep a Date across a question', () => {
  // The step machine could not carry a Date to the next round; replay journals the work that made it
  // (new Date(), Date.now()), and the later round gets the same Date back.
  const timed = `server.registerTool('timed', { description: 'Picks, with the time' }, async () => {
  const started = new Date();
  const c = await askChoice(server, 'Pick one');
  return { content: [{ type: 'text', text: \`\${c} at \${started.toISOString()}\` }] };
});`;
  const when = `server.registerTool('when', { description: 'Asks when' }, async () => {
  const w = await askWhen(server);
  return { content: [{ type: 'text', text: w }] };
});`;
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askChoice, askWhen } from './ask.js';

const server = new McpServer({ name: 'refused', version: '1.0.0' });

server.registerTool('pick', { description: 'Picks' }, async () => {
  const c = await askChoice(server, 'Pick one');
  return { content: [{ type: 'text', text: c }] };
});

${timed}

${when}
`,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Pasted into a handler only where that handler is then migrated. */
export async function askChoice(server: McpServer, question: string): Promise<string> {
  const answer = await server.server.elicitInput({
    message: question,
    requestedSchema: { type: 'object', properties: { choice: { type: 'string', enum: ['a', 'b'] } }, required: ['choice'] },
  });
  if (answer.action !== 'accept') return 'none';
  return String(answer.content?.choice);
}

/** Keeps a Date across its request: a handler it is inlined into cannot carry it to the next round. */
export async function askWhen(server: McpServer): Promise<string> {
  const asked = new Date();
  const answer = await server.server.elicitInput({ message: 'When?', requestedSchema: { type: 'object', properties: { when: { type: 'string' } } } });
  return \`\${answer.action} after \${Date.now() - asked.getTime()} ms\`;
}
`,
  };
  let m: Migrated;

  it('migrates every handler, journaling the clock where it is read before a question or in a helper', async () => {
    m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.reason}`)).toEqual([
      'src/ask.ts:5 rewritten asked through the requestState module while tools/call pick, tools/call timed run',
      'src/ask.ts:16 rewritten asked through the requestState module while tools/call when runs',
    ]);
    const server = m.text('src/server.ts');
    for (const tool of ['pick', 'timed', 'when']) expect(server).toContain(`resumable(server).registerTool('${tool}',`);
    expect(server).toContain('  const started = journaled(() => new Date());\n');
    const ask = m.text('src/ask.ts');
    expect(ask).toContain('  const asked = journaled(() => new Date());\n');
    // After its question, in a helper its handler runs last: read once, on the last round.
    expect(ask).toContain('${Date.now() - asked.getTime()} ms');
    for (const rel of ['src/server.ts', 'src/ask.ts']) expectOnlyReplayEdits(m, rel);
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a helper some callers run outside any handler', () => {
  // askName is called by a tool, by a notification handler, by an HTTP server's request callback and
  // through a copy bound into a static a tool calls; askAge is a method a handler registered in the class
  // calls through this. The request is rewritten where it is written, for the tools; each call made where
  // no request is served is marked there, since ask(...) can only send it as before, to 2025-era clients.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { askName } from './ask.js';

const server = new McpServer({ name: 'callers', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askName(server);
  return { content: [{ type: 'text', text: \`Hello \${name}\` }] };
});

server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
  console.log(await askName(server));
});

createServer(async (req, res) => {
  res.end(await askName(server));
});

class Greeter {
  /** Stored: calls through it are not calls of askName by name. */
  static ask = askName.bind(null);
  private asked = 0;

  async askAge(mcp: McpServer): Promise<number> {
    this.asked += 1;
    const answer = await mcp.server.elicitInput({ message: \`Age? (\${this.asked})\`, requestedSchema: { type: 'object', properties: { age: { type: 'number' } } } });
    return answer.action === 'accept' ? Number(answer.content?.age) : 0;
  }

  register(mcp: McpServer): void {
    mcp.registerTool('age', { description: 'Asks an age' }, async () => {
      const age = await this.askAge(mcp);
      return { content: [{ type: 'text', text: String(age) }] };
    });
  }
}

new Greeter().register(server);

server.registerTool('stored', { description: 'Greets through a stored function' }, async () => {
  const name = await Greeter.ask(server);
  return { content: [{ type: 'text', text: \`Hi \${name}\` }] };
});
`,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'friend';
}
`,
  };
  let m: Migrated;

  it('rewrites the request for the tools that reach it, and marks the callers that run where no request is served', async () => {
    m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind} ${s.handler}`)).toEqual([
      'src/ask.ts:4 rewritten elicitation tools/call hello',
      'src/server.ts:14 marked elicitation notification',
      'src/server.ts:18 marked elicitation callback',
      'src/server.ts:28 rewritten elicitation tools/call age',
    ]);
    const [ask, notification, callback] = m.result.report.sites;
    expect(ask!.reason).toBe('asked through the requestState module while tools/call hello, tools/call stored run');
    expect(notification!.reason).toMatch(
      /server\.server\.elicitInput\(\.\.\.\), an? elicitation request, in a notification handler: no request is served there/,
    );
    expect(callback!.reason).toMatch(/no request is served there/);
    const server = m.text('src/server.ts');
    // Each marked where the code that runs outside a request calls the helper.
    expect(server).toContain(`  // mcp-migrate: ${notification!.reason}\n  console.log(await askName(server));`);
    expect(server).toContain(`  // mcp-migrate: ${callback!.reason}\n  res.end(await askName(server));`);
    for (const tool of ['hello', 'stored']) expect(server).toContain(`resumable(server).registerTool('${tool}',`);
    expect(server).toContain("resumable(mcp).registerTool('age',");
    expect(server).toContain('static ask = askName.bind(null);');
    // The instance's field outlives the round: its increment is done once per call.
    expect(server).toMatch(/^ {4}journaled\(\(\) => \(?this\.asked \+= 1\)?\);$/m);
    expectOnlyReplayEdits(m, 'src/server.ts', { marks: true });
    expectOnlyReplayEdits(m, 'src/ask.ts');
  }, 600_000);

  it("says the HTTP server's callback is one", () => {
    const callback = m.sites('src/server.ts').find(s => s.line === 18);
    expect(callback!.reason).toMatch(/in a callback passed to createServer\(\), which runs it later/);
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('helpers reached through a tsconfig.json paths alias, or loaded with import()', () => {
  // A workspace: the server package imports its helper from the shared package through the alias
  // @shared/*, which only the server's tsconfig.json knows; two other tools load theirs with import().
  const files = {
    'package.json': JSON.stringify({ name: 'acme', private: true, type: 'module', workspaces: ['packages/*'] }),
    'packages/shared/package.json': JSON.stringify({
      name: '@acme/shared',
      type: 'module',
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' },
    }),
    'packages/shared/src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PROMPT } from './prompts.js';

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({ message: PROMPT, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'friend';
}
`,
    'packages/shared/src/prompts.ts': `export const PROMPT = 'Your name?';
`,
    'packages/server/package.json': JSON.stringify({
      name: '@acme/server',
      type: 'module',
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', '@acme/shared': '*' },
    }),
    'packages/server/tsconfig.json': `{
  // The shared package's sources, by an alias of this package's own.
  "compilerOptions": {
    "strict": true, "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "skipLibCheck": true, "noEmit": true, "types": ["node"],
    "paths": { "@shared/*": ["../shared/src/*"] }
  },
  "include": ["src"]
}
`,
    'packages/server/src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName } from '@shared/ask.js';

const server = new McpServer({ name: 'workspace', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askName(server);
  return { content: [{ type: 'text', text: \`Hello \${name}\` }] };
});

server.registerTool('age', { description: 'Asks an age, from a module loaded when needed' }, async () => {
  const { askAge } = await import('./age.js');
  const age = await askAge(server);
  return { content: [{ type: 'text', text: String(age) }] };
});

server.registerTool('mood', { description: 'Asks a mood, from a module loaded when needed' }, async () => {
  const { askMood } = await import('./mood.js');
  const mood = await askMood(server, 'today');
  return { content: [{ type: 'text', text: mood }] };
});
`,
    'packages/server/src/age.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const MAX_AGE = Number(process.env.MAX_AGE ?? 150);

export async function askAge(server: McpServer): Promise<number> {
  const answer = await server.server.elicitInput({ message: 'Age?', requestedSchema: { type: 'object', properties: { age: { type: 'number', maximum: MAX_AGE } } } });
  return answer.action === 'accept' ? Number(answer.content?.age) : 0;
}
`,
    'packages/server/src/mood.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

type Mood = 'good' | 'bad';

export async function askMood(server: McpServer, when: string): Promise<Mood | 'unknown'> {
  const answer = await server.server.elicitInput({ message: \`Mood \${when}?\`, requestedSchema: { type: 'object', properties: { mood: { type: 'string', enum: ['good', 'bad'] } } } });
  return answer.action === 'accept' ? (answer.content?.mood as Mood) : 'unknown';
}
`,
  };
  const index = 'packages/server/src/index.ts';
  let m: Migrated;

  it('rewrites the request in the shared package and in the modules loaded with import()', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual([
      'packages/server/src/age.ts:6 rewritten elicitation',
      'packages/server/src/mood.ts:6 rewritten elicitation',
      'packages/shared/src/ask.ts:5 rewritten elicitation',
    ]);
    expect(m.sites('packages/shared/src/ask.ts')[0]!.handler).toBe('tools/call hello');
    const server = m.text(index);
    for (const tool of ['hello', 'age', 'mood']) expect(server).toContain(`resumable(server).registerTool('${tool}',`);
    expect(server).toMatch(/^import \{ askName \} from '@shared\/ask\.js';$/m);
    expect(server).not.toContain('PROMPT');
    expect(m.text('packages/shared/src/ask.ts')).toMatch(/^import \{ PROMPT \} from '\.\/prompts\.js';$/m);
    for (const rel of ['packages/server/src/age.ts', 'packages/server/src/mood.ts', 'packages/shared/src/ask.ts'])
      expectOnlyReplayEdits(m, rel);
  }, 600_000);

  it('loads a module with import() again on each round, as it was written', () => {
    const server = m.text(index);
    expect(server).toContain("const { askAge } = await import('./age.js');");
    expect(server).toContain("const { askMood } = await import('./mood.js');");
  });

  it("typechecks with the server package's own tsconfig.json", () => {
    const project = new Project({ tsConfigFilePath: path.join(m.dir, 'packages/server/tsconfig.json') });
    const errors = project
      .getPreEmitDiagnostics()
      .map(
        d =>
          `${path.relative(m.dir, d.getSourceFile()?.getFilePath() ?? '')}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, ' ')}`,
      );
    expect(errors).toEqual([]);
  }, 600_000);

  it('keeps the alias importer and its helper in one group when the run is split into threads', () => {
    const sources = Object.entries(files)
      .filter(([rel]) => rel.endsWith('.ts'))
      .map(([rel, text]) => ({ path: path.join(m.dir, rel), text }));
    const groups = partitionCandidates(sources, 4).map(g => g.map(f => path.relative(m.dir, f.path)));
    expect(groups.find(g => g.includes(index))).toContain('packages/shared/src/ask.ts');
  });

  it('finds the aliased helper from a file that names no request and imports nothing relative', async () => {
    // The handler's file reaches its helper only through the alias: nothing else in it says a request may be near.
    const only = { ...files, [index]: files[index].slice(0, files[index].indexOf("server.registerTool('age'")) };
    const alone = await migrate(only, false);
    expect(alone.sites('packages/shared/src/ask.ts')).toMatchObject([{ outcome: 'rewritten', handler: 'tools/call hello' }]);
    expect(alone.text(index)).toContain("resumable(server).registerTool('hello',");
  }, 600_000);

  it("leaves the handler's registration alone when the helper's package is not part of the run", async () => {
    const server = await migrate(files, true, 'packages/server/');
    expect(server.text(index)).toMatch(/^server\.registerTool\('hello',/m);
    expect(server.text('packages/shared/src/ask.ts')).toBe(files['packages/shared/src/ask.ts']);
  }, 600_000);

  it('reports the call of the helper whose package is not part of the run', async () => {
    const server = await migrate(files, true, 'packages/server/');
    expect(server.sites(index)).toMatchObject([{ outcome: 'marked', kind: 'elicitation', line: 7, call: 'askName(...)' }]);
  }, 600_000);
});

describe('a JavaScript helper that takes the server inside an options object', () => {
  // No types say what `server` is: only the call passes it, as a property of the object the helper destructures.
  const files = {
    'package.json': JSON.stringify({
      name: 'consent',
      type: 'module',
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^3.25.0' },
    }),
    'src/consent.js': `export async function requestWriteConsent({ server, toolName }) {
  const result = await server.elicitInput({ message: \`Apply \${toolName}?\`, requestedSchema: { type: 'object', properties: {} } });
  return result.action === 'accept';
}
`,
    'src/server.js': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { requestWriteConsent } from './consent.js';

const mcp = new McpServer({ name: 'consent', version: '1.0.0' });
mcp.registerTool('add', { description: 'Adds' }, async () => {
  const allowed = await requestWriteConsent({ server: mcp.server, toolName: 'add' });
  return { content: [{ type: 'text', text: allowed ? 'added' : 'declined' }] };
});
`,
  };

  it('rewrites the request the handler reaches, whatever is installed', async () => {
    const m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/consent.js:2 rewritten elicitation']);
    expect(m.text('src/consent.js')).toMatch(asked('server'));
    expect(m.text('src/server.js')).toContain("resumable(mcp).registerTool('add',");
  }, 600_000);
});

describe('a helper handed an object that holds the server', () => {
  // `askUser(this, q)`: the helper reaches the server through a field of what it is handed
  // (deps.mcp.server), typed by an interface in TypeScript and by the constructor's assignment in JavaScript.
  const typed = {
    'package.json': PACKAGE,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export interface Deps {
  mcp: McpServer;
  log: { request(what: string): void };
}

export async function askUser(deps: Deps, question: string): Promise<boolean> {
  deps.log.request(question);
  const res = await deps.mcp.server.elicitInput({ message: question, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return res.action === 'accept' && res.content?.ok === true;
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askUser } from './ask.js';

export class App {
  readonly mcp = new McpServer({ name: 'app', version: '1.0.0' });
  readonly log = { request: (what: string) => console.error(what) };
  constructor() {
    this.mcp.registerTool('wipe', { description: 'Wipes' }, async () => {
      const ok = await askUser(this, 'Wipe it?');
      return { content: [{ type: 'text', text: ok ? 'wiped' : 'kept' }] };
    });
  }
}
`,
  };
  const untyped = {
    'package.json': JSON.stringify({
      name: 'app',
      type: 'module',
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^3.25.0' },
    }),
    'src/ask.js': `export async function askUser(ctx, question) {
  const res = await ctx.mcp.server.elicitInput({ message: question, requestedSchema: { type: 'object', properties: {} } });
  return res.action === 'accept';
}
`,
    'src/server.js': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askUser } from './ask.js';

export class App {
  constructor() {
    this.mcp = new McpServer({ name: 'app', version: '1.0.0' });
    this.mcp.registerTool('wipe', { description: 'Wipes' }, async () => {
      const ok = await askUser(this, 'Wipe it?');
      return { content: [{ type: 'text', text: ok ? 'wiped' : 'kept' }] };
    });
  }
}
`,
  };

  it('rewrites the request through the field, and registers the handler resumable, whatever is installed', async () => {
    const m = await bothWays(typed);
    expect(outcomes(m)).toEqual(['src/ask.ts:10 rewritten elicitation']);
    expect(m.text('src/ask.ts')).toMatch(new RegExp(`const res = await ${asked('deps.mcp.server').source}\\.elicitInput\\(`));
    expect(m.text('src/server.ts')).toContain("resumable(this.mcp).registerTool('wipe',");
    for (const rel of ['src/ask.ts', 'src/server.ts']) expectOnlyReplayEdits(m, rel);
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('finds it in JavaScript, where only the constructor says what the field holds', async () => {
    const m = await bothWays(untyped);
    expect(outcomes(m)).toEqual(['src/ask.js:2 rewritten elicitation']);
    expect(m.text('src/server.js')).toContain("resumable(this.mcp).registerTool('wipe',");
  }, 600_000);
});

describe('a helper typed by a part of the server', () => {
  // `Pick<LowLevel, ...>` of `McpServer['server']`, through type aliases, and in a second project an
  // interface of the project and `any`, whatever is installed. A helper a tool and a lifecycle callback
  // both call is rewritten for the tool, and the lifecycle callback's call marked; one only the lifecycle
  // callback calls is marked where it asks.
  const files = {
    'package.json': PACKAGE,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

type LowLevel = McpServer['server'];
export type Asker = Pick<LowLevel, 'elicitInput'> | undefined;

export async function confirm(server: Asker, message: string): Promise<boolean> {
  const answer = await server!.elicitInput({ message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return answer.action === 'accept' && answer.content?.ok === true;
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { confirm } from './ask.js';

const mcp = new McpServer({ name: 'app', version: '1.0.0' });

mcp.registerTool('wipe', { description: 'Wipes' }, async () => {
  const ok = await confirm(mcp.server, 'Wipe it?');
  return { content: [{ type: 'text', text: ok ? 'wiped' : 'kept' }] };
});

mcp.server.oninitialized = async () => {
  if (await confirm(mcp.server, 'Telemetry?')) console.error('on');
};
`,
  };

  let m: Migrated;
  it("rewrites the helper's request for the tool, and marks the lifecycle callback that also calls it", async () => {
    m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind} ${s.handler}`)).toEqual([
      'src/ask.ts:7 rewritten elicitation tools/call wipe',
      // oninitialized never fires for a 2026-07-28 client (src/analysis/eraTraps.ts), and its call of the helper cannot ask
      'src/server.ts:11 marked connection lifecycle',
      'src/server.ts:12 marked elicitation lifecycle',
    ]);
    expect(m.text('src/ask.ts')).toMatch(new RegExp(`const answer = await ${asked('server!').source}\\.elicitInput\\(`));
    const lifecycle = m.sites('src/server.ts').find(s => s.kind === 'elicitation')!;
    expect(lifecycle.reason).toMatch(/in mcp\.server\.oninitialized: no request is served there/);
    const server = m.text('src/server.ts');
    expect(server).toContain("resumable(mcp).registerTool('wipe',");
    expect(server).toContain(`  // mcp-migrate: ${lifecycle.reason}\n  if (await confirm(mcp.server, 'Telemetry?')) console.error('on');`);
    expectOnlyReplayEdits(m, 'src/ask.ts');
    expectOnlyReplayEdits(m, 'src/server.ts', { marks: true });
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('reports the call as written', () => {
    expect(m.sites('src/ask.ts')[0]!.call).toBe('server!.elicitInput(...)');
  });

  it('does the same for a helper typed by an interface of the project, or any, that the project hands a server', async () => {
    const structural = {
      ...files,
      'src/ask.ts': `import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export interface Asker {
  elicitInput(params: ElicitRequest['params']): Promise<ElicitResult>;
}

export async function confirm(server: Asker, message: string): Promise<boolean> {
  const answer = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return answer.action === 'accept' && answer.content?.ok === true;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function confirmAny(mcp: any, message: string): Promise<boolean> {
  const answer = await mcp.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}
`,
      'src/server.ts': files['src/server.ts']
        .replace("import { confirm } from './ask.js';", "import { confirm, confirmAny } from './ask.js';")
        .replace("console.error('on');", "console.error('on');\n  if (await confirmAny(mcp, 'Crash reports?')) console.error('on');"),
    };
    const s = await bothWays(structural);
    expect(s.result.report.sites.map(x => `${x.file}:${x.line} ${x.outcome} ${x.handler}`)).toEqual([
      'src/ask.ts:8 rewritten tools/call wipe',
      'src/ask.ts:14 marked lifecycle',
      'src/server.ts:11 marked lifecycle',
      'src/server.ts:12 marked lifecycle',
    ]);
    const [, lifecycle] = s.result.report.sites;
    expect(lifecycle!.reason).toMatch(
      /^elicitation request in mcp\.server\.oninitialized: MCP 2026-07-28 has no server-initiated requests outside tools\/call, prompts\/get and resources\/read/,
    );
    expect(s.text('src/ask.ts')).toContain(`  // mcp-migrate: ${lifecycle!.reason}\n  const answer = await mcp.server.elicitInput(`);
    expect(s.text('src/ask.ts')).toMatch(new RegExp(`const answer = await ${asked('server').source}\\.elicitInput\\(`));
    expectOnlyReplayEdits(s, 'src/ask.ts', { marks: true });
    expectOnlyReplayEdits(s, 'src/server.ts', { marks: true });
    expect(typecheck(s)).toEqual([]);
  }, 600_000);
});

describe("methods of the project's classes", () => {
  // The handler, registered in a subclass, asks through a helper object held in a readonly field (its
  // class in another file, reading a private field) and through a method of its base class that a
  // sibling class overrides (which its own this can never run).
  const files = {
    'package.json': PACKAGE,
    'src/asker.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export class Asker {
  constructor(private readonly server: McpServer, private readonly prefix: string) {}

  async ask(question: string): Promise<string> {
    const answer = await this.server.server.elicitInput({ message: \`\${this.prefix} \${question}\`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.a) : '';
  }
}
`,
    'src/tools.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Asker } from './asker.js';

abstract class Base {
  protected readonly asker: Asker;

  constructor(protected readonly server: McpServer) {
    this.asker = new Asker(server, 'Shop:');
  }

  protected async confirm(what: string): Promise<boolean> {
    const answer = await this.server.server.elicitInput({ message: \`Sure about \${what}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return answer.action === 'accept' && answer.content?.ok === true;
  }
}

export class Careful extends Base {
  protected async confirm(what: string): Promise<boolean> {
    const answer = await this.server.server.elicitInput({ message: \`Really sure about \${what}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return answer.action === 'accept' && answer.content?.ok === true;
  }
}

export class Orders extends Base {
  register(): void {
    this.server.registerTool('order', { inputSchema: { item: z.string() } }, async ({ item }) => {
      const size = await this.asker.ask(\`Size of \${item}?\`);
      const ok = await this.confirm(\`\${size} \${item}\`);
      return { content: [{ type: 'text', text: ok ? \`Ordered \${size} \${item}\` : 'Not ordered' }] };
    });
  }
}

export const server = new McpServer({ name: 'orders', version: '1.0.0' });
new Orders(server).register();
`,
  };

  it('rewrites the methods the handler runs, in their classes, and marks the override it never runs', async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual([
      'src/asker.ts:7 rewritten tools/call order',
      'src/tools.ts:13 rewritten tools/call order',
      'src/tools.ts:20 marked helper',
    ]);
    expect(m.sites('src/tools.ts')[1]!.reason).toMatch(
      /^elicitation request in helper confirm\(\), not directly in a handler: only a tools\/call, prompts\/get or resources\/read handler can ask the client/,
    );
    // The class asks `ask` of its own: the requestState module's is imported under another name.
    expect(m.text('src/asker.ts')).toMatch(
      new RegExp(
        `const answer = await ${asked('this.server.server', 'askClient').source}\\.elicitInput\\(\\{ message: \`\\$\\{this\\.prefix\\}`,
      ),
    );
    expect(m.text('src/asker.ts')).toContain('async ask(question: string): Promise<string> {');
    const tools = m.text('src/tools.ts');
    expect(tools).toContain("resumable(this.server).registerTool('order',");
    expect(tools).toContain(
      'const size = await this.asker.ask(`Size of ${item}?`);\n      const ok = await this.confirm(`${size} ${item}`);',
    );
    for (const rel of ['src/asker.ts', 'src/tools.ts']) expectOnlyReplayEdits(m, rel, { marks: true });
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a handler that only hands its call to a method, which subclasses override', () => {
  // The base class registers `async args => this.run(args as Args)` and has a default run() of its own that
  // asks nothing; one subclass's override asks, another's does not. The override's request is rewritten
  // where it is; no signature changes, since ask(...) needs no context passed to it.
  const files = {
    'package.json': PACKAGE,
    'src/base.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export abstract class Tool<Args> {
  abstract readonly name: string;

  constructor(protected readonly server: McpServer) {}

  register(): void {
    this.server.registerTool(this.name, { inputSchema: { text: z.string() } }, async args => this.run(args as Args));
  }

  async run(_args: Args): Promise<CallToolResult> {
    return { content: [{ type: 'text', text: 'not implemented' }] };
  }
}
`,
    'src/ask.ts': `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Tool } from './base.js';

export class AskTool extends Tool<{ text: string }> {
  readonly name = 'ask';

  async run({ text }: { text: string }): Promise<CallToolResult> {
    const answer = await this.server.server.elicitInput({ message: text, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? String(answer.content?.a) : answer.action }] };
  }
}
`,
    'src/echo.ts': `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Tool } from './base.js';

export class EchoTool extends Tool<{ text: string }> {
  readonly name = 'echo';

  async run({ text }: { text: string }): Promise<CallToolResult> {
    return { content: [{ type: 'text', text }] };
  }
}
`,
    'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AskTool } from './ask.js';
import { EchoTool } from './echo.js';

export const server = new McpServer({ name: 'tools', version: '1.0.0' });
new AskTool(server).register();
new EchoTool(server).register();
`,
  };

  it("rewrites the asking override's request, registers the base class's handler resumable, and typechecks", async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual([
      'src/ask.ts:8 rewritten tools/call this.name',
    ]);
    expect(m.text('src/ask.ts')).toMatch(new RegExp(`const answer = await ${asked('this.server.server').source}\\.elicitInput\\(`));
    expect(m.text('src/ask.ts')).toContain('async run({ text }: { text: string }): Promise<CallToolResult> {');
    const base = m.text('src/base.ts');
    expect(base).toContain(
      'resumable(this.server).registerTool(this.name, { inputSchema: z.object({ text: z.string() }) }, async args => this.run(args as Args));',
    );
    expect(base).toContain('async run(_args: Args): Promise<CallToolResult> {');
    expect(m.text('src/echo.ts')).toBe(m.upgraded('src/echo.ts'));
    for (const rel of ['src/ask.ts', 'src/base.ts', 'src/index.ts']) expectOnlyReplayEdits(m, rel);
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a table of tool entries, dispatched through the property they share', () => {
  // ToolDef's invoke() is declared by object literals and by classes implementing it; a loop registers
  // each entry with a handler calling t.invoke(...), and a low-level tools/call handler finds the entry by
  // name and calls its invoke(). Two entries ask, three do not; one asking entry is also called by its own
  // name. Elsewhere an interface's one implementation asks, and an untyped array of literals is dispatched
  // the same way. Each asking entry's request is rewritten in the entry, for every handler that may run it.
  const files = {
    'package.json': PACKAGE,
    'src/types.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export interface ToolContext {
  server: McpServer;
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
}

export interface ToolDef {
  name: string;
  invoke(args: { text: string }, ctx: ToolContext): Promise<CallToolResult>;
}

export const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
`,
    'src/basic.ts': `import { text, type ToolDef } from './types.js';

export const echoTool: ToolDef = { name: 'echo', invoke: async args => text(args.text) };

export const shoutTool: ToolDef = {
  name: 'shout',
  invoke: async args => text(args.text.toUpperCase()),
};
`,
    'src/confirm.ts': `import { text, type ToolDef } from './types.js';

export const deleteTool: ToolDef = {
  name: 'delete',
  invoke: async (args, ctx) => {
    const answer = await ctx.server.server.elicitInput({ message: \`Delete \${args.text}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return text(answer.action === 'accept' && answer.content?.ok ? 'deleted' : 'kept');
  },
};
`,
    'src/classes.ts': `import { text, type ToolContext, type ToolDef } from './types.js';

export class SummarizeTool implements ToolDef {
  name = 'summarize';

  async invoke(args: { text: string }, ctx: ToolContext) {
    const reply = await ctx.server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: args.text } }], maxTokens: 100 });
    return text(reply.content.type === 'text' ? reply.content.text : '');
  }
}

export class ClockTool implements ToolDef {
  name = 'clock';

  async invoke() {
    return text('12:00');
  }
}
`,
    'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { echoTool, shoutTool } from './basic.js';
import { ClockTool, SummarizeTool } from './classes.js';
import { deleteTool } from './confirm.js';
import type { ToolDef } from './types.js';

export const tools: ToolDef[] = [echoTool, shoutTool, deleteTool, new SummarizeTool(), new ClockTool()];

export const server = new McpServer({ name: 'table', version: '1.0.0' });
for (const t of tools) {
  server.registerTool(t.name, { inputSchema: { text: z.string() } }, (args, extra) => t.invoke(args, { server, extra }));
}

server.registerTool('delete_now', { inputSchema: { text: z.string() } }, (args, extra) => deleteTool.invoke(args, { server, extra }));
`,
    'src/low-level.ts': `import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { server, tools } from './index.js';

server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const tool = tools.find(t => t.name === request.params.name);
  if (!tool) throw new Error(\`Unknown tool: \${request.params.name}\`);
  return tool.invoke({ text: String(request.params.arguments?.text ?? '') }, { server, extra });
});
`,
    'src/confirmer.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

interface Confirmer {
  confirm(server: McpServer, what: string): Promise<boolean>;
}

class ElicitingConfirmer implements Confirmer {
  async confirm(server: McpServer, what: string): Promise<boolean> {
    const answer = await server.server.elicitInput({ message: \`\${what}?\`, requestedSchema: { type: 'object', properties: {} } });
    return answer.action === 'accept';
  }
}

export function registerWipe(server: McpServer, confirmer: Confirmer = new ElicitingConfirmer()): void {
  server.registerTool('wipe', { description: 'Wipes' }, async () => {
    const ok = await confirmer.confirm(server, 'Wipe');
    return { content: [{ type: 'text', text: ok ? 'wiped' : 'kept' }] };
  });
}
`,
    'src/untyped.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'untyped', version: '1.0.0' });

const actions = [
  { name: 'echo', execute: async (text: string) => text },
  {
    name: 'confirm',
    execute: async (text: string) => {
      const answer = await server.server.elicitInput({ message: text, requestedSchema: { type: 'object', properties: {} } });
      return answer.action;
    },
  },
  { name: 'shout', execute: async (text: string) => text.toUpperCase() },
];

for (const a of actions) {
  server.registerTool(a.name, { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: await a.execute(text) }] }));
}
`,
  };
  let m: Migrated;

  it('rewrites the requests of the entries that ask, for every handler dispatching to them', async () => {
    m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind}: ${s.reason}`)).toEqual([
      'src/classes.ts:7 rewritten sampling: asked through the requestState module while tools/call t.name, tools/call (setRequestHandler) run',
      'src/confirm.ts:6 rewritten elicitation: asked through the requestState module while tools/call t.name, tools/call delete_now, tools/call (setRequestHandler) run',
      'src/confirmer.ts:9 rewritten elicitation: asked through the requestState module while tools/call wipe runs',
      'src/untyped.ts:11 rewritten elicitation: asked through the requestState module while tools/call a.name runs',
    ]);
    expect(m.text('src/confirm.ts')).toMatch(new RegExp(`const answer = await ${asked('ctx.server.server').source}\\.elicitInput\\(`));
    expect(m.text('src/classes.ts')).toMatch(new RegExp(`const reply = await ${asked('ctx.server.server').source}\\.createMessage\\(`));
    expect(m.text('src/index.ts')).toContain('resumable(server).registerTool(t.name,');
    expect(m.text('src/index.ts')).toContain("resumable(server).registerTool('delete_now',");
    expect(m.text('src/low-level.ts')).toMatch(/^resumable\(server\.server\)\.setRequestHandler\(/m);
    expect(m.text('src/confirmer.ts')).toContain("resumable(server).registerTool('wipe',");
    expect(m.text('src/untyped.ts')).toContain('resumable(server).registerTool(a.name,');
    expect(m.text('src/basic.ts')).toBe(files['src/basic.ts']);
    for (const rel of [
      'src/classes.ts',
      'src/confirm.ts',
      'src/confirmer.ts',
      'src/untyped.ts',
      'src/index.ts',
      'src/low-level.ts',
      'src/types.ts',
    ])
      expectOnlyReplayEdits(m, rel);
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a table whose loop handler only returns the call through it', () => {
  // The handler passes its context on as it is (e.run(args, extra)); one entry asks through the module's
  // server and declares no context parameter, a class entry asks in its method. In another file the
  // context travels in an object whose member the project types itself, and the file has an `ask` of its own.
  const files = {
    'package.json': PACKAGE,
    'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

interface Entry {
  name: string;
  run(args: { text: string }, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<CallToolResult>;
}

export const server = new McpServer({ name: 'table', version: '1.0.0' });

const confirm: Entry = {
  name: 'confirm',
  run: async args => {
    const answer = await server.server.elicitInput({ message: args.text, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  },
};

class Summarize implements Entry {
  readonly name = 'summarize';

  async run(args: { text: string }) {
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: args.text } }], maxTokens: 10 });
    return { content: [{ type: 'text' as const, text: reply.content.type === 'text' ? reply.content.text : '' }] };
  }
}

const echo: Entry = { name: 'echo', run: async args => ({ content: [{ type: 'text', text: args.text }] }) };

for (const e of [confirm, new Summarize(), echo]) {
  server.registerTool(e.name, { inputSchema: { text: z.string() } }, async (args, extra) => e.run(args, extra));
}
`,
    'src/typed.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

interface Ctx {
  server: McpServer;
  extra: { signal: AbortSignal };
}

interface Step {
  name: string;
  go(args: { text: string }, ctx: Ctx): Promise<CallToolResult>;
}

const ask: Step = {
  name: 'ask',
  go: async (args, ctx) => {
    const answer = await ctx.server.server.elicitInput({ message: args.text, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  },
};

export function registerSteps(server: McpServer): void {
  for (const s of [ask]) {
    server.registerTool(s.name, { inputSchema: { text: z.string() } }, (args, extra) => s.go(args, { server, extra }));
  }
}
`,
  };
  let m: Migrated;

  it('rewrites the entries that ask, in place, with neither the interface nor the handlers changed', async () => {
    m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind} ${s.handler}`)).toEqual([
      'src/index.ts:16 rewritten elicitation tools/call e.name',
      'src/index.ts:25 rewritten sampling tools/call e.name',
      'src/typed.ts:18 rewritten elicitation tools/call s.name',
    ]);
    const index = m.text('src/index.ts');
    expect(index).toContain('  run: async args => {\n');
    expect(index).toMatch(/run\(args: \{ text: string \}, extra: ServerContext\): Promise<CallToolResult>;/);
    expect(index).toContain("const echo: Entry = { name: 'echo', run: async args => ({ content: [{ type: 'text', text: args.text }] }) };");
    expect(index).toContain('resumable(server).registerTool(e.name,');
    const typed = m.text('src/typed.ts');
    expect(typed).toMatch(new RegExp(`const answer = await ${asked('ctx.server.server', 'askClient').source}\\.elicitInput\\(`));
    expect(typed).toContain('resumable(server).registerTool(s.name,');
    for (const rel of ['src/index.ts', 'src/typed.ts']) expectOnlyReplayEdits(m, rel);
  }, 600_000);

  it('typechecks', () => {
    // (typed.ts's Ctx declares extra as { signal: AbortSignal }, which SDK 2.x's context, as the official
    // upgrade gives it, does not have: the upgrade's to report, not the replay's.)
    expect(typecheck(m).filter(e => !e.startsWith('src/typed.ts:25: '))).toEqual([]);
  }, 600_000);
});

describe('handlers registered through a function or method of the project', () => {
  // A module function in another file and a private method hand the callback on unchanged to the
  // registration: the registration inside them is made resumable. The method registers with .tool(), which
  // SDK 2.x does not have (the official codemod leaves it): its request is marked with that.
  const files = {
    'package.json': PACKAGE,
    'src/reg.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function reg(server: McpServer, name: string, schema: z.ZodRawShape, cb: (args: any, extra: any) => Promise<CallToolResult>) {
  server.registerTool(name, { inputSchema: z.object(schema) }, cb);
}
`,
    'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { reg } from './reg.js';

export const server = new McpServer({ name: 'wrapped', version: '1.0.0' });

reg(server, 'greet', { name: z.string() }, async ({ name }) => {
  const answer = await server.server.elicitInput({ message: \`How are you, \${name}?\`, requestedSchema: { type: 'object', properties: { mood: { type: 'string' } } } });
  return { content: [{ type: 'text', text: \`\${name}: \${answer.action}\` }] };
});

export class Confirmations {
  constructor(private readonly server: McpServer) {
    this.reg('confirm', async (a, extra) => this.confirm(a, extra));
  }

  private reg(name: string, cb: (a: any, extra: any) => Promise<CallToolResult>) {
    this.server.tool(name, { what: z.string() }, cb);
  }

  private async confirm(a: { what: string }, extra: any): Promise<CallToolResult> {
    const answer = await this.server.server.elicitInput({ message: \`Really \${a.what}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: \`\${a.what}: \${answer.action}\` }] };
  }
}
`,
  };

  it('registers resumable inside the wrapper, and marks the callback .tool() would register', async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual([
      'src/index.ts:9 rewritten tools/call name',
      'src/index.ts:23 marked wrapped',
    ]);
    expect(m.sites('src/index.ts')[1]!.reason).toMatch(
      /^elicitation request in a callback passed to tool\(\), which SDK 2\.x's McpServer does not have \(the official codemod left it, marked\): write it as registerTool\(\.\.\.\) and run again$/,
    );
    expect(m.text('src/reg.ts')).toContain('  resumable(server).registerTool(name, { inputSchema: z.object(schema) }, cb);');
    // The callback types are not widened: replay returns input_required outside them.
    expect(m.text('src/reg.ts')).toContain('cb: (args: any, extra: any) => Promise<CallToolResult>) {');
    expect(m.text('src/index.ts')).toMatch(/^reg\(server, 'greet', /m);
    for (const rel of ['src/reg.ts', 'src/index.ts']) expectOnlyReplayEdits(m, rel, { marks: true });
    expect(typecheck(m).filter(e => !/Property 'tool' does not exist on type 'McpServer'/.test(e))).toEqual([]);
  }, 600_000);
});

describe('callbacks registered through wrappers of the project', () => {
  // Each wrapper registers the callback: under a name made inside it, declared with a type of the project's
  // own, also returning it, or calling it from a handler of its own around which it times the call. The
  // registration inside each is made resumable, whatever it does with the callback.
  const files = {
    'package.json': PACKAGE,
    'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'wrapped', version: '1.0.0' });
type Handler = (args: any, extra: any) => Promise<CallToolResult>;

function prefixed(name: string, cb: (args: any, extra: any) => Promise<CallToolResult>) {
  server.registerTool(\`admin_\${name}\`, { inputSchema: { what: z.string() } }, cb);
}

function aliased(name: string, cb: Handler) {
  server.registerTool(name, { inputSchema: { what: z.string() } }, cb);
}

function logged(name: string, cb: (args: any, extra: any) => Promise<CallToolResult>) {
  server.registerTool(name, { inputSchema: { what: z.string() } }, cb);
  return cb;
}

function timed(name: string, cb: (args: any, extra: any) => Promise<CallToolResult>) {
  server.registerTool(name, { inputSchema: { what: z.string() } }, async (args, extra) => {
    const started = Date.now();
    try {
      return await cb(args, extra);
    } finally {
      console.error(name, Date.now() - started);
    }
  });
}

prefixed('wipe', async ({ what }) => {
  const answer = await server.server.elicitInput({ message: \`Wipe \${what}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});

aliased('reset', async ({ what }) => {
  const answer = await server.server.elicitInput({ message: \`Reset \${what}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});

logged('drop', async ({ what }) => {
  const answer = await server.server.elicitInput({ message: \`Drop \${what}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});

timed('purge', async ({ what }) => {
  const answer = await server.server.elicitInput({ message: \`Purge \${what}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
  };
  let m: Migrated;

  it('rewrites each request, and registers resumable inside each wrapper', async () => {
    m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual([
      'src/index.ts:33 rewritten tools/call `admin_${name}`',
      'src/index.ts:38 rewritten tools/call name',
      'src/index.ts:43 rewritten tools/call name',
      'src/index.ts:48 rewritten tools/call name',
    ]);
    const index = m.text('src/index.ts');
    expect(index.match(/^ {2}resumable\(server\)\.registerTool\(/gm)).toHaveLength(4);
    expect(index).toContain('cb: Handler) {');
    expect(index).not.toMatch(/mcp-migrate:/);
    expectOnlyReplayEdits(m, 'src/index.ts');
  }, 600_000);

  it("guards the finally around the wrapper's call of the asking callback, and journals the clock read before it", () => {
    const index = m.text('src/index.ts');
    expect(index).toMatch(/const started = journaled\(\(\) => Date\.now\(\)\);/);
    expect(index).toMatch(/\} finally \{\n\s+rethrowIfSuspended\(\);\n\s+console\.error\(name, /);
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a handler wrapped by a wrapper of the project before it is registered', () => {
  // withLogging() (another file) hands the registration's arguments to the callback unchanged; withUser()
  // changes them; aliased()'s type alias is named outside its signature. The registration is what is made
  // resumable, so each wrapped callback's request is rewritten, and no wrapper is changed.
  const files = {
    'package.json': PACKAGE,
    'src/wrap.ts': `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function withLogging<A, E>(cb: (args: A, extra: E) => Promise<CallToolResult>) {
  return async (args: A, extra: E) => {
    console.error('tool call');
    return cb(args, extra);
  };
}
`,
    'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { withLogging } from './wrap.js';

export const server = new McpServer({ name: 'wrapped', version: '1.0.0' });
type Handler<A, E> = (args: A, extra: E) => Promise<CallToolResult>;
export const handlers: Handler<unknown, unknown>[] = [];

function withUser<A, E>(cb: (args: A & { user: string }, extra: E) => Promise<CallToolResult>) {
  return async (args: A, extra: E) => cb({ ...args, user: 'me' }, extra);
}

function aliased<A, E>(cb: Handler<A, E>): Handler<A, E> {
  return async (...args) => cb(...args);
}

server.registerTool('greet', { inputSchema: { name: z.string() } }, withLogging(async ({ name }) => {
  const answer = await server.server.elicitInput({ message: \`How are you, \${name}?\`, requestedSchema: { type: 'object', properties: { mood: { type: 'string' } } } });
  return { content: [{ type: 'text', text: \`\${name}: \${answer.action}\` }] };
}));

server.registerTool('wipe', { inputSchema: { what: z.string() } }, withUser(async ({ what, user }) => {
  const answer = await server.server.elicitInput({ message: \`Wipe \${what} for \${user}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
}));

server.registerTool('reset', { inputSchema: { what: z.string() } }, aliased(async ({ what }) => {
  const answer = await server.server.elicitInput({ message: \`Reset \${what}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
}));
`,
  };

  it('rewrites the request of every wrapped callback, the wrappers left as they are', async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual([
      'src/index.ts:19 rewritten tools/call greet',
      'src/index.ts:24 rewritten tools/call wipe',
      'src/index.ts:29 rewritten tools/call reset',
    ]);
    const index = m.text('src/index.ts');
    expect(index).toContain(
      "resumable(server).registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, withLogging(async ({ name }) => {",
    );
    expect(index).toContain(
      "resumable(server).registerTool('wipe', { inputSchema: z.object({ what: z.string() }) }, withUser(async ({ what, user }) => {",
    );
    expect(index).toContain(
      "resumable(server).registerTool('reset', { inputSchema: z.object({ what: z.string() }) }, aliased(async ({ what }) => {",
    );
    expect(m.text('src/wrap.ts')).toBe(m.upgraded('src/wrap.ts'));
    expectOnlyReplayEdits(m, 'src/index.ts');
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('awaited helper calls inside expressions (issue 16)', () => {
  // The shapes real servers are written in: the helper's call is awaited inside a condition, an object
  // literal, a concatenation, a loop condition, an else-if, with spread arguments. Nothing is hoisted: the
  // helpers' requests are rewritten where they are, and every handler keeps its text.
  const files = {
    'package.json': PACKAGE,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function confirm(server: McpServer['server'], message: string): Promise<boolean> {
  const answer = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
  return answer.action === 'accept' && answer.content?.ok === true;
}

export async function ask(server: McpServer['server'], message: string): Promise<string> {
  const answer = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });
  return answer.action === 'accept' ? String(answer.content?.text) : '';
}

export async function summarize(server: McpServer['server'], text: string): Promise<string> {
  const sample = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Summarize: \${text}\` } }], maxTokens: 100 });
  return sample.content.type === 'text' ? sample.content.text : '';
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { ask, confirm, summarize } from './ask.js';

const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
const notes = new Map<string, string>();

mcp.registerTool('delete_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  if (!(await confirm(mcp.server, \`Delete note \${id}?\`))) return { content: [{ type: 'text', text: 'kept' }] };
  notes.delete(id);
  return { content: [{ type: 'text', text: 'deleted' }] };
});

mcp.registerTool('summarize_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  return { content: [{ type: 'text', text: await summarize(mcp.server, notes.get(id) ?? '') }] };
});

mcp.registerTool('rename_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const msg = 'renamed to ' + (await ask(mcp.server, \`New name for \${id}?\`));
  return { content: [{ type: 'text', text: msg }] };
});

mcp.registerTool('purge_notes', { inputSchema: { force: z.boolean() } }, async ({ force }) => {
  const go = force && (await confirm(mcp.server, 'Purge every note?'));
  if (go) notes.clear();
  return { content: [{ type: 'text', text: go ? 'purged' : 'kept' }] };
});

mcp.registerTool('append_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  while (!(await confirm(mcp.server, \`Append to \${id}?\`))) notes.set(id, '');
  return { content: [{ type: 'text', text: 'appended' }] };
});

mcp.registerTool('label_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const label = notes.size + ' notes, ' + (await ask(mcp.server, \`Label for \${id}?\`));
  return { content: [{ type: 'text', text: label }] };
});

mcp.registerTool('move_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  if (!notes.has(id)) return { content: [{ type: 'text', text: 'none' }] };
  else if (!(await confirm(mcp.server, \`Move \${id}?\`))) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: 'moved' }] };
});

mcp.registerTool('copy_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const args = [mcp.server, \`Copy \${id}?\`] as const;
  if (!(await confirm(...args))) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: 'copied' }] };
});

mcp.registerTool('stamp_note', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const when = new Date();
  if (!(await confirm(mcp.server, \`Stamp \${id}?\`))) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: when.toISOString() }] };
});

await mcp.server.connect(new StdioServerTransport());
`,
  };
  let m: Migrated;

  it('rewrites each helper once for all its handlers, and leaves every handler as written', async () => {
    m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind}: ${s.reason}`)).toEqual([
      'src/ask.ts:4 rewritten elicitation: asked through the requestState module while tools/call delete_note, tools/call purge_notes, tools/call append_note and 3 more run',
      'src/ask.ts:9 rewritten elicitation: asked through the requestState module while tools/call rename_note, tools/call label_note run',
      'src/ask.ts:14 rewritten sampling: asked through the requestState module while tools/call summarize_note runs',
    ]);
    const server = m.text('src/server.ts');
    expect(server.match(/^resumable\(mcp\)\.registerTool\(/gm)).toHaveLength(9);
    // A Date made before the question: the later round gets it back.
    expect(server).toContain('  const when = journaled(() => new Date());\n');
    expect(server).toContain("  while (!(await confirm(mcp.server, `Append to ${id}?`))) notes.set(id, '');\n");
    expect(server).toContain('  if (!(await confirm(...args))) return');
    expect(server).toMatch(/^serveStdio\(\(\) => mcp\.server\);$/m);
    expectOnlyReplayEdits(m, 'src/server.ts', { stdio: true });
    // The helpers' file asks `ask` of its own: the requestState module's is imported under another name.
    const ask = m.text('src/ask.ts');
    expect(ask).toMatch(/^import \{ ask as askClient \} from '\.\/mcp-migrate-state\.js';$/m);
    for (const name of ['confirm', 'ask', 'summarize']) expect(ask).toContain(`export async function ${name}(`);
    expectOnlyReplayEdits(m, 'src/ask.ts');
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('gives the same results on both eras', async () => {
    const yes = { action: 'accept', content: { ok: true } };
    const no = { action: 'accept', content: { ok: false } };
    const result = await verifyBothEras(files, 'src/server.ts', [
      { name: 'append', tool: 'append_note', arguments: { id: 'n1' }, elicitation: [no, no, yes] },
      { name: 'move', tool: 'move_note', arguments: { id: 'n1' }, elicitation: [yes] },
      { name: 'label', tool: 'label_note', arguments: { id: 'n1' }, elicitation: [{ action: 'accept', content: { text: 'work' } }] },
      { name: 'rename', tool: 'rename_note', arguments: { id: 'n1' }, elicitation: [{ action: 'decline' }] },
      {
        name: 'summarize',
        tool: 'summarize_note',
        arguments: { id: 'n1' },
        sampling: [{ role: 'assistant', model: 'm', content: { type: 'text', text: 'empty' } }],
      },
      { name: 'copy', tool: 'copy_note', arguments: { id: 'n1' }, elicitation: [no] },
      { name: 'purge', tool: 'purge_notes', arguments: { force: true }, elicitation: [yes] },
      { name: 'delete', tool: 'delete_note', arguments: { id: 'n1' }, elicitation: [yes] },
      { name: 'stamp', tool: 'stamp_note', arguments: { id: 'n1' }, elicitation: [no] },
    ]);
    sameOnBothEras(result, 'append', 'move', 'label', 'rename', 'summarize', 'copy', 'purge', 'delete', 'stamp');
  }, 600_000);
});

describe("the official codemod's finding that a call forwards the context to a helper", () => {
  // The codemod writes `/* @mcp-codemod-error The context object is forwarded to confirm(…) ... */` above
  // each call handing the context on; the upgrade has changed the helpers' types and accesses. The request
  // the helper sends through the forwarded context is rewritten there, and the findings stay as written.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerRequest, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

async function confirm(extra: Extra, question: string): Promise<boolean> {
  const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: question, requestedSchema: { type: 'object', properties: {} } } }, z.any());
  return answer.action === 'accept';
}

async function audit(extra: Extra, what: string): Promise<void> {
  await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: what } });
}

const server = new McpServer({ name: 'forwarded', version: '1.0.0' });

server.registerTool('wipe', { inputSchema: { id: z.string() } }, async ({ id }, extra) => {
  await audit(extra, id);
  const ok = await confirm(extra, \`Wipe \${id}?\`);
  return { content: [{ type: 'text', text: ok ? 'wiped' : 'kept' }] };
});
`,
  };

  it("rewrites the request sent through the forwarded context, in the helper, and leaves the codemod's findings", async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler} ${s.call}`)).toEqual([
      'src/server.ts:9 rewritten tools/call wipe extra.sendRequest(...)',
    ]);
    const server = m.text('src/server.ts');
    expect(server).toMatch(new RegExp(`const answer = await ${asked('extra.mcpReq').source}\\.send\\(\\{ method: 'elicitation/create'`));
    // A notification is sent again on each round, as a round's own.
    expect(server).toContain('  await audit(ctx, id);\n');
    expect(server).toMatch(/\/\* @mcp-codemod-error The context object is forwarded to audit\(…\)/);
    expect(server).toMatch(/\/\* @mcp-codemod-error The context object is forwarded to confirm\(…\)/);
    expectOnlyReplayEdits(m, 'src/server.ts');
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('tools registered in files that import nothing of the SDK, on a server another module declares', () => {
  // The official codemod reads only files that import SDK 1.x: these kept tool(), which SDK 2.x does not have, and
  // the server died as it started (`server.tool is not a function`). They are upgraded as the files importing it
  // are, once the checker says the server they register on is the SDK's: a server another module exports, and one
  // a tool class's base class holds. A `.tool(...)` on anything else is left.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server = new McpServer({ name: 'split', version: '1.0.0' });
`,
    'src/base.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export abstract class ToolModule {
  constructor(protected readonly server: McpServer) {}

  protected async confirm(message: string): Promise<boolean> {
    const result = await this.server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
    return result.action === 'accept';
  }
}
`,
    'src/agent.ts': `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const agent = {
  tools: [] as string[],
  tool(name: string, run: () => Promise<CallToolResult>): void {
    this.tools.push(name);
    void run;
  },
};
`,
    'src/tools/greet.ts': `import { z } from 'zod';
import { server } from '../server.js';

server.tool('greet', { name: z.string() }, async ({ name }) => {
  const answer = await server.server.elicitInput({ message: \`Greet \${name}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: \`\${name}: \${answer.action}\` }] };
});
`,
    'src/tools/echo.ts': `import { server } from '../server.js';

server.tool('echo', 'Echoes', async () => ({ content: [{ type: 'text', text: 'echo' }] }));
`,
    'src/tools/mixed.ts': `import { server } from '../server.js';
import { agent } from '../agent.js';

server.tool('ping', 'Pings', async () => ({ content: [{ type: 'text', text: 'pong' }] }));
agent.tool('ping', async () => ({ content: [] }));
`,
    'src/tools/posts.ts': `import { z } from 'zod';
import { ToolModule } from '../base.js';

export class PostTools extends ToolModule {
  register(): void {
    this.server.tool('publish', 'Publishes a post', { title: z.string() }, async ({ title }) => {
      const ok = await this.confirm(\`Publish \${title}?\`);
      return { content: [{ type: 'text', text: \`\${title}: \${ok ? 'published' : 'kept'}\` }] };
    });
  }
}
`,
    'src/index.ts': `import { server } from './server.js';
import { PostTools } from './tools/posts.js';
import './tools/greet.js';
import './tools/echo.js';

new PostTools(server).register();
`,
  };

  const LEFT_MIXED =
    "server.tool(...) registers a handler on an SDK server declared in another module; this file imports nothing of the SDK, and is left on SDK 1.x (it also calls agent.tool(...) on line 5, which is not an SDK server's and which the upgrade would rewrite too): write its registrations in SDK 2.x's form (registerTool(...), registerPrompt(...), registerResource(...)); the server throws at start-up until this is migrated";

  it('upgrades them and rewrites their questions; not a .tool() on anything else', async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome}`)).toEqual([
      'src/base.ts:7 rewritten',
      'src/tools/greet.ts:5 rewritten',
    ]);
    expect(m.text('src/tools/greet.ts')).toContain(
      "resumable(server).registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => {",
    );
    expect(m.text('src/tools/echo.ts')).toBe(
      "import { server } from '../server.js';\n\nserver.registerTool('echo', { description: 'Echoes' }, async () => ({ content: [{ type: 'text', text: 'echo' }] }));\n",
    );
    // (a file that also calls tool() on something else is left, as the upgrade would rewrite that call too: marked)
    expect(m.text('src/tools/mixed.ts')).toBe(
      files['src/tools/mixed.ts'].replace("server.tool('ping'", `/* @mcp-codemod-error ${LEFT_MIXED} */\nserver.tool('ping'`),
    );
    expect(m.text('src/tools/posts.ts')).toContain(
      "    resumable(this.server).registerTool('publish', { description: 'Publishes a post', inputSchema: z.object({ title: z.string() }) }, async ({ title }) => {",
    );
    expect(m.result.report.upgrade.filter(n => n.file.startsWith('src/tools/')).map(n => `${n.file}:${n.line} ${n.message}`)).toEqual([
      'src/tools/greet.ts:4 Raw object literal wrapped with z.object().',
      `src/tools/mixed.ts:4 ${LEFT_MIXED}`,
      'src/tools/posts.ts:6 Raw object literal wrapped with z.object().',
    ]);
    // (the file left on SDK 1.x alone does not compile: the finding above says what to write)
    expect(typecheck(m)).toEqual(["src/tools/mixed.ts:5: Property 'tool' does not exist on type 'McpServer'."]);
  }, 600_000);

  it('serves every tool on both eras', async () => {
    const entry = 'src/index.ts';
    const result = await verifyBothEras(withStdio(files, entry), entry, [
      { name: 'greet', tool: 'greet', arguments: { name: 'Ada' }, elicitation: [{ action: 'accept', content: {} }] },
      { name: 'echo', tool: 'echo', arguments: {} },
      { name: 'publish', tool: 'publish', arguments: { title: 'Hi' }, elicitation: [{ action: 'decline' }] },
    ]);
    sameOnBothEras(result, 'greet', 'echo', 'publish');
  }, 600_000);
});

describe('CommonJS files that register tools on a server another module exports, and import nothing of the SDK', () => {
  // Read through an import of SDK 1.x put first, a CommonJS file became a module of imports whose `require('zod')`
  // the official codemod did not take for zod's: every such file was left on SDK 1.x, marked, and the run said the
  // server would not start, even where it would have. Read through a require, they are upgraded as ESM files are,
  // in their own quotes; and the registrations a run wrapped (`resumable(server)`) are the server's on a second one.
  const files = {
    'package.json': legacyPackage('cjs-registrants'),
    'src/server.js': `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');

const server = new McpServer({ name: 'cjs-registrants', version: '1.0.0' });

module.exports = { server };
`,
    'src/tools/echo.js': `'use strict';

const { z } = require('zod');
const { server } = require('../server');

server.tool('echo', 'Echoes a message', { message: z.string() }, async ({ message }) => ({
  content: [{ type: 'text', text: message }],
}));
`,
    'src/tools/greet.js': `const { z } = require('zod');
const { server } = require('../server');

server.registerTool('greet', { description: 'Greets someone', inputSchema: { name: z.string() } }, async ({ name }) => {
  const answer = await server.server.elicitInput({ message: \`Greet \${name}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: \`\${name}: \${answer.action}\` }] };
});

server.registerTool('count', { description: 'Counts', inputSchema: { n: z.number() } }, async ({ n }) => ({
  content: [{ type: 'text', text: String(n + 1) }],
}));
`,
    // A line of a template that starts with \`import\` is no import declaration: the file is still read through a require.
    'src/tools/list.js': `const { z } = require('zod');
const { server } = require('../server');

server.tool(
  'list-imports',
  \`Lists a module's dependencies:
import declarations first, then requires\`,
  { module: z.string() },
  async ({ module }) => ({ content: [{ type: 'text', text: module }] }),
);
`,
    'src/index.js': `const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { server } = require('./server');
require('./tools/echo');
require('./tools/greet');
require('./tools/list');

server.connect(new StdioServerTransport());
`,
  };

  it('upgrades them in their own quotes, and a second run finds nothing left', async () => {
    const m = await bothWays(files);
    expect(m.text('src/tools/echo.js')).toBe(
      files['src/tools/echo.js'].replace(
        "server.tool('echo', 'Echoes a message', { message: z.string() },",
        "server.registerTool('echo', { description: 'Echoes a message', inputSchema: z.object({ message: z.string() }) },",
      ),
    );
    const greet = m.text('src/tools/greet.js');
    expect(greet).toContain("const { z } = require('zod');\nconst { server } = require('../server');\n");
    expect(greet).toContain(
      "resumable(server).registerTool('greet', { description: 'Greets someone', inputSchema: z.object({ name: z.string() }) },",
    );
    expect(greet).toContain("server.registerTool('count', { description: 'Counts', inputSchema: z.object({ n: z.number() }) },");
    const list = m.text('src/tools/list.js');
    expect(list).toContain("const { z } = require('zod');\nconst { server } = require('../server');\n");
    expect(list).toContain('inputSchema: z.object({ module: z.string() })');
    expect(list).not.toContain('@modelcontextprotocol');
    expect(m.result.report.upgrade.filter(n => n.level !== 'info').map(n => `${n.file}:${n.line} ${n.message}`)).toEqual([]);
    const sources = ['src/server.js', 'src/tools/echo.js', 'src/tools/greet.js', 'src/tools/list.js', 'src/index.js'];
    const again = await migrateSources(
      sources.map(rel => ({ path: path.join(m.dir, rel), text: m.text(rel) })),
      { cwd: m.dir },
    );
    expect(again.changes.map(c => path.relative(m.dir, c.path))).toEqual([]);
    expect(again.report.upgrade.map(n => `${n.file}:${n.line} ${n.message}`)).toEqual([]);
  }, 600_000);

  it('serves every tool on both eras', async () => {
    const result = await verifyBothEras(files, 'src/index.js', [
      { name: 'echo', tool: 'echo', arguments: { message: 'hi' } },
      { name: 'greet', tool: 'greet', arguments: { name: 'Ada' }, elicitation: [{ action: 'accept', content: {} }] },
      { name: 'count', tool: 'count', arguments: { n: 41 } },
      { name: 'list', tool: 'list-imports', arguments: { module: 'zod' } },
    ]);
    sameOnBothEras(result, 'echo', 'greet', 'count', 'list');
  }, 600_000);
});

describe('modules whose exported function registers tools on the server it is handed', () => {
  // `module.exports = function (server) { server.tool(...) }`, called with the SDK server by the module that
  // requires it: the file names nothing of the SDK, its parameter has no type, and the function no name its
  // callers use. It was not read at all: it kept tool(), no line said so, and the migrated server died as it
  // started. Its callers say what it is handed, whether it is required or imported, named or a default export.
  const commonJs = {
    'package.json': legacyPackage('handed-cjs'),
    'src/index.js': `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const registerNotes = require('./notes');
const { registerPrompts } = require('./prompts');

const server = new McpServer({ name: 'handed-cjs', version: '1.0.0' });
registerNotes(server);
registerPrompts(server);
server.connect(new StdioServerTransport());
`,
    'src/notes.js': `const { z } = require('zod');

const notes = [];

module.exports = function registerNotes(server) {
  server.tool('add_note', 'Adds a note', { text: z.string() }, async ({ text }) => {
    notes.push(text);
    return { content: [{ type: 'text', text: \`\${notes.length} notes\` }] };
  });
};
`,
    'src/prompts.js': `exports.registerPrompts = (mcp) => {
  mcp.prompt('summary', 'Summarises the notes', () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }] }));
};
`,
  };
  const modules = {
    'package.json': legacyPackage('handed-esm', 'module'),
    'src/index.js': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import registerClock from './clock.js';
import { registerEcho } from './echo.js';
import ping from './ping.js';

const server = new McpServer({ name: 'handed-esm', version: '1.0.0' });
registerClock(server);
registerEcho(server);
ping(server);
await server.connect(new StdioServerTransport());
`,
    'src/clock.js': `export default function registerClock(server) {
  server.tool('year', 'The year', async () => ({ content: [{ type: 'text', text: '2026' }] }));
}
`,
    'src/echo.js': `export function registerEcho(server) {
  server.tool('echo', 'Echoes', async () => ({ content: [{ type: 'text', text: 'echo' }] }));
}
`,
    'src/ping.js': `export default (server) => {
  server.tool('ping', 'Pings', async () => ({ content: [{ type: 'text', text: 'pong' }] }));
};
`,
  };

  it('upgrades their registrations, required or imported', async () => {
    const cjs = await migrate(commonJs, true);
    expect(cjs.text('src/notes.js')).toContain(
      "  server.registerTool('add_note', { description: 'Adds a note', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {",
    );
    expect(cjs.text('src/prompts.js')).toContain("  mcp.registerPrompt('summary', { description: 'Summarises the notes' }, () => ({");
    const esm = await migrate(modules, true);
    for (const [file, tool] of [
      ['src/clock.js', 'year'],
      ['src/echo.js', 'echo'],
      ['src/ping.js', 'ping'],
    ])
      expect(esm.text(file!), file).toContain(`  server.registerTool('${tool}', { description: `);
    for (const m of [cjs, esm]) expect(m.result.report.upgrade.filter(n => n.level !== 'info')).toEqual([]);
  }, 600_000);

  it('marks an SDK 1.x registration on something no caller it follows hands a server, and not one on a typed object', async () => {
    // `for (const register of modules) register(server)`: what register is handed is not followed. The call is
    // written as SDK 1.x registers a tool, on an untyped parameter: marked, with what to do either way. `agent.tool`
    // on an object the file imports, whose type the checker knows, is not an SDK server's: left alone.
    const m = await migrate(
      {
        ...commonJs,
        'src/index.js': commonJs['src/index.js'].replace(
          'registerPrompts(server);\n',
          "registerPrompts(server);\nfor (const register of [require('./clock')]) register(server);\nrequire('./local');\n",
        ),
        'src/clock.js': `module.exports = function (server) {
  server.tool('year', 'The year', async () => ({ content: [{ type: 'text', text: '2026' }] }));
};
`,
        'src/agent.js': `const agent = { tools: [], tool(name, run) { this.tools.push({ name, run }); } };

module.exports = { agent };
`,
        'src/local.js': `const { agent } = require('./agent');

agent.tool('local', async () => 'local');
`,
      },
      true,
    );
    const note = m.result.report.upgrade.find(n => n.file === 'src/clock.js');
    expect(note?.message).toMatch(
      /^server\.tool\(\.\.\.\) is written as SDK 1\.x registers a tool, on server, which mcp-migrate cannot tell is an SDK server/,
    );
    expect(m.text('src/clock.js')).toContain(`/* @mcp-codemod-error ${note!.message} */\n  server.tool('year'`);
    expect(m.result.report.upgrade.filter(n => n.file === 'src/local.js')).toEqual([]);
    expect(m.result.changes.map(c => path.relative(m.dir, c.path))).not.toContain('src/local.js');
  }, 600_000);

  it('serves every tool and prompt on both eras', async () => {
    const cjs = await verifyBothEras(commonJs, 'src/index.js', [{ name: 'add', tool: 'add_note', arguments: { text: 'milk' } }]);
    sameOnBothEras(cjs, 'add');
    const esm = await verifyBothEras(modules, 'src/index.js', [
      { name: 'year', tool: 'year' },
      { name: 'echo', tool: 'echo' },
      { name: 'ping', tool: 'ping' },
    ]);
    sameOnBothEras(esm, 'year', 'echo', 'ping');
  }, 600_000);
});

describe('an asking helper a CommonJS module exports as its value or as a property', () => {
  // `module.exports = async function (server, message) {...}` required as `const confirm = require('./confirm')`:
  // its question was marked as a value passed on, where the handler calling it could be followed. Followed, the
  // handler's work before the call must be journaled as before any question: the count below is made once a call.
  const files = {
    'package.json': legacyPackage('exported-helpers'),
    'src/index.js': `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');
const confirm = require('./confirm');
const { pick } = require('./pick');
const { choose } = require('./choose');

const server = new McpServer({ name: 'exported-helpers', version: '1.0.0' });
let wipes = 0;
server.registerTool('wipe', { description: 'Wipes a bucket', inputSchema: { bucket: z.string() } }, async ({ bucket }) => {
  wipes++;
  if (!(await confirm(server, \`Wipe \${bucket}?\`))) return { content: [{ type: 'text', text: \`kept (\${wipes})\` }] };
  return { content: [{ type: 'text', text: \`wiped \${bucket} (\${wipes})\` }] };
});
let picks = 0;
server.registerTool('pick', { description: 'Picks a colour' }, async () => {
  picks += 1;
  const colour = await pick(server);
  return { content: [{ type: 'text', text: \`\${colour} (\${picks})\` }] };
});
let chosen = 0;
server.registerTool('choose', { description: 'Chooses a size' }, async () => {
  chosen++;
  return { content: [{ type: 'text', text: \`\${await choose(server)} (\${chosen})\` }] };
});
server.connect(new StdioServerTransport());
`,
    'src/confirm.js': `module.exports = async function (server, message) {
  const res = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return res.action === 'accept';
};
`,
    'src/pick.js': `exports.pick = async (server) => {
  const res = await server.server.elicitInput({ message: 'Colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } });
  return res.action === 'accept' ? String(res.content.colour) : 'none';
};
`,
    // Exported in an object (the shorthand was also read as the function stored where nothing could follow it: a
    // note said the request would still be sent to the client itself, where every call was followed).
    'src/choose.js': `async function choose(server) {
  const res = await server.server.elicitInput({ message: 'Size?', requestedSchema: { type: 'object', properties: { size: { type: 'string' } } } });
  return res.action === 'accept' ? String(res.content.size) : 'none';
}

module.exports = { choose };
`,
  };

  it('rewrites both questions and journals the counts made before them', async () => {
    const m = await migrate(files, true);
    expect(outcomes(m)).toEqual([
      'src/choose.js:2 rewritten elicitation',
      'src/confirm.js:2 rewritten elicitation',
      'src/pick.js:2 rewritten elicitation',
    ]);
    expect(m.text('src/index.js')).toContain('  journaled(() => wipes++);\n');
    expect(m.text('src/index.js')).toContain('  journaled(() => picks += 1);\n');
    expect(m.text('src/index.js')).toContain('  journaled(() => chosen++);\n');
    expect(m.result.report.notes.filter(n => /cannot be followed|passed on as a value/.test(n))).toEqual([]);
  }, 600_000);

  it('counts each call once, on both eras', async () => {
    const accept = (content: Record<string, unknown>) => [{ action: 'accept', content }];
    const result = await verifyBothEras(files, 'src/index.js', [
      { name: 'wipe logs', tool: 'wipe', arguments: { bucket: 'logs' }, elicitation: accept({ ok: true }) },
      { name: 'wipe tmp', tool: 'wipe', arguments: { bucket: 'tmp' }, elicitation: [{ action: 'decline' }] },
      { name: 'pick', tool: 'pick', elicitation: accept({ colour: 'teal' }) },
      { name: 'pick again', tool: 'pick', elicitation: accept({ colour: 'red' }) },
      { name: 'choose', tool: 'choose', elicitation: accept({ size: 'L' }) },
      { name: 'choose again', tool: 'choose', elicitation: accept({ size: 'S' }) },
    ]);
    sameOnBothEras(result, 'wipe logs', 'wipe tmp', 'pick', 'pick again', 'choose', 'choose again');
  }, 600_000);
});

describe('an asking helper an ES module exports as its default', () => {
  // `export default async function (server, message)`: its question was not reported at all (the server it is
  // asked on was not followed to the callers of a function with no name), and the handler kept a request
  // 2026-07-28 has not; `export default async (server) => ...` was marked as in no handler. Both are followed
  // to the handlers importing them, and each handler's count before the call is made once a call; so is one put in
  // the object a module exports as its default (`export default { confirmReset }`, called as `ui.confirmReset(...)`).
  const files = {
    'package.json': legacyPackage('default-helpers', 'module'),
    'src/index.js': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import confirmWipe from './confirm.js';
import pickColour from './pick.js';
import ui from './ui.js';

const server = new McpServer({ name: 'default-helpers', version: '1.0.0' });
let wipes = 0;
server.registerTool('wipe', { description: 'Wipes a bucket', inputSchema: { bucket: z.string() } }, async ({ bucket }) => {
  wipes++;
  if (!(await confirmWipe(server, \`Wipe \${bucket}?\`))) return { content: [{ type: 'text', text: \`kept (\${wipes})\` }] };
  return { content: [{ type: 'text', text: \`wiped \${bucket} (\${wipes})\` }] };
});
let picks = 0;
server.registerTool('pick', { description: 'Picks a colour' }, async () => {
  picks++;
  const colour = await pickColour(server);
  return { content: [{ type: 'text', text: \`\${colour} (\${picks})\` }] };
});
let resets = 0;
server.registerTool('reset', { description: 'Resets the counts' }, async () => {
  resets++;
  if (!(await ui.confirmReset(server))) return { content: [{ type: 'text', text: \`kept (\${resets})\` }] };
  wipes = 0;
  return { content: [{ type: 'text', text: \`reset (\${resets})\` }] };
});
await server.connect(new StdioServerTransport());
`,
    'src/ui.js': `async function confirmReset(server) {
  const res = await server.server.elicitInput({ message: 'Reset?', requestedSchema: { type: 'object', properties: {} } });
  return res.action === 'accept';
}

export default { confirmReset };
`,
    'src/confirm.js': `export default async function (server, message) {
  const res = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return res.action === 'accept';
}
`,
    'src/pick.js': `export default async (server) => {
  const res = await server.server.elicitInput({ message: 'Colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } });
  return res.action === 'accept' ? String(res.content.colour) : 'none';
};
`,
  };

  it('rewrites each question and journals the counts made before them', async () => {
    const m = await migrate(files, true);
    expect(outcomes(m)).toEqual([
      'src/confirm.js:2 rewritten elicitation',
      'src/pick.js:2 rewritten elicitation',
      'src/ui.js:2 rewritten elicitation',
    ]);
    expect(m.text('src/index.js')).toContain('  journaled(() => wipes++);\n');
    expect(m.text('src/index.js')).toContain('  journaled(() => picks++);\n');
    expect(m.text('src/index.js')).toContain('  journaled(() => resets++);\n');
  }, 600_000);

  it('counts each call once, on both eras', async () => {
    const result = await verifyBothEras(files, 'src/index.js', [
      { name: 'wipe logs', tool: 'wipe', arguments: { bucket: 'logs' }, elicitation: [{ action: 'accept', content: { ok: true } }] },
      { name: 'wipe tmp', tool: 'wipe', arguments: { bucket: 'tmp' }, elicitation: [{ action: 'decline' }] },
      { name: 'pick', tool: 'pick', elicitation: [{ action: 'accept', content: { colour: 'teal' } }] },
      { name: 'pick again', tool: 'pick', elicitation: [{ action: 'cancel' }] },
      { name: 'reset', tool: 'reset', elicitation: [{ action: 'accept', content: {} }] },
      { name: 'reset again', tool: 'reset', elicitation: [{ action: 'decline' }] },
    ]);
    sameOnBothEras(result, 'wipe logs', 'wipe tmp', 'pick', 'pick again', 'reset', 'reset again');
  }, 600_000);
});

describe('a dispatcher that counts before it runs the table entry that asks', () => {
  // `const tool = tools[name]; calls++; return tool(args, extra)`: the reach follows the question through the
  // entry read by a computed key, but the call of `tool` resolves to no function where the journal looked, so
  // `calls++` ran again on each round of a 2026-07-28 call. A call the reach follows a question through is a
  // question to the journal too: the count is made once a call.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ElicitResultSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export const server = new Server({ name: 'table-dispatch', version: '1.0.0' }, { capabilities: { tools: {} } });
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
let calls = 0;

const tools: Record<string, (args: Record<string, unknown>, extra: Extra) => Promise<CallToolResult>> = {
  async remove(args, extra) {
    const answer = await extra.sendRequest(
      { method: 'elicitation/create', params: { message: \`Delete \${String(args.id)}?\`, requestedSchema: { type: 'object', properties: {} } } },
      ElicitResultSchema,
    );
    return { content: [{ type: 'text', text: \`\${answer.action} (call \${calls})\` }] };
  },
};

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const tool = tools[request.params.name];
  if (!tool) throw new Error(\`unknown tool \${request.params.name}\`);
  calls++;
  return tool(request.params.arguments ?? {}, extra);
});
`,
  };

  it('journals the count', async () => {
    const m = await migrate(files, true);
    expect(outcomes(m)).toEqual(['src/server.ts:11 rewritten elicitation']);
    // (the official codemod's marker on the context handed on stays, as in the table-entry-typed-context fixture)
    expect(m.text('src/server.ts')).toMatch(
      /^  journaled\(\(\) => calls\+\+\);\n  \/\* @mcp-codemod-error The context object is forwarded to tool\(…\)[^\n]*\n  return tool\(/m,
    );
  }, 600_000);

  it('counts each call once, on both eras', async () => {
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'remove a', tool: 'remove', arguments: { id: 'a' }, elicitation: [{ action: 'accept', content: {} }] },
      { name: 'remove b', tool: 'remove', arguments: { id: 'b' }, elicitation: [{ action: 'decline' }] },
    ]);
    sameOnBothEras(result, 'remove a', 'remove b');
  }, 600_000);
});

describe('a request method only an SDK server has, on something nothing says is one', () => {
  // The helper's `mcp` is handed by a call through an array the reach does not follow, and JavaScript types it
  // nothing: the request was dropped without a word (no site, no marker, `--check` passing) while the tool kept
  // asking as 2025 did. It is marked, with what to do either way. A `createMessage` on an untyped chat client (no
  // `.server`) stays the project's own.
  const files = {
    'package.json': legacyPackage('unknown-receiver', 'module'),
    'src/index.js': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { confirmWith, summarise } from './ui.js';

const server = new McpServer({ name: 'unknown-receiver', version: '1.0.0' });
const steps = [confirmWith];
server.registerTool('go', { description: 'Goes' }, async () => {
  const ok = await steps[0](server, 'Go?');
  return { content: [{ type: 'text', text: String(ok) }] };
});
server.registerTool('sum', { description: 'Summarises' }, async () => ({ content: [{ type: 'text', text: await summarise(globalThis.chat) }] }));
await server.connect(new StdioServerTransport());
`,
    'src/ui.js': `export async function confirmWith(mcp, message) {
  const res = await mcp.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return res.action === 'accept';
}

export async function summarise(chat) {
  return chat ? (await chat.createMessage({ text: 'sum' })).text : 'no chat';
}
`,
  };

  it('marks the request, and leaves the chat client alone', async () => {
    const m = await migrate(files, true);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind} ${s.causeId}`)).toEqual([
      'src/ui.js:2 marked elicitation request-on-unknown-receiver',
    ]);
    expect(m.text('src/ui.js')).toMatch(
      /^ {2}\/\/ mcp-migrate: [^\n]*elicitInput\(\) is called on mcp\.server, which mcp-migrate cannot tell is an SDK server/m,
    );
    expect(m.text('src/ui.js')).toContain('chat.createMessage({ text: ');
  }, 600_000);
});

describe('tools registered on a server a workspace package exports, by a file that imports nothing of the SDK', () => {
  // `import { server } from '@acme/core'`: the packages are linked into node_modules as a workspace links them. A
  // file that only registers (extras' echo.ts) names no trigger and imports no MCP file by a relative path, so it
  // was not read: it kept server.tool(), which SDK 2.x does not have, the server died as it started, and the run
  // said nothing. Its package, declaring zod 3 and nothing of MCP, then kept zod 3: its tools would not have listed.
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'acme', private: true, type: 'module', workspaces: ['packages/*'] }),
    'packages/core/package.json': JSON.stringify({
      name: '@acme/core',
      type: 'module',
      main: 'src/index.ts',
      types: 'src/index.ts',
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' },
    }),
    'packages/core/src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n\nexport const server = new McpServer({ name: 'ws', version: '1.0.0' });\n`,
    'packages/core/src/main.ts': `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { server } from './index.js';
import '@acme/extras';
import '@acme/tools';

await server.connect(new StdioServerTransport());
`,
    'packages/extras/package.json': JSON.stringify({
      name: '@acme/extras',
      type: 'module',
      main: 'src/echo.ts',
      dependencies: { '@acme/core': '*', zod: '^3.25.0' },
    }),
    'packages/extras/src/echo.ts': `import { server } from '@acme/core';\n\nserver.tool('echo', 'Echoes', async () => ({ content: [{ type: 'text', text: 'echo' }] }));\n`,
    'packages/tools/package.json': JSON.stringify({
      name: '@acme/tools',
      type: 'module',
      main: 'src/notes.ts',
      dependencies: { '@acme/core': '*', zod: '^3.25.0' },
    }),
    'packages/tools/src/notes.ts': `import { z } from 'zod';
import { server } from '@acme/core';

server.tool('add_note', { text: z.string() }, async ({ text }) => {
  const answer = await server.server.elicitInput({ message: \`Add \${text}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: \`\${text}: \${answer.action}\` }] };
});
`,
  };

  /** The project written, its packages linked into node_modules beside the SDKs and zod. */
  function writeWorkspace(): string {
    const dir = writeProject(files, false);
    fs.mkdirSync(path.join(dir, 'node_modules', '@acme'), { recursive: true });
    for (const name of ['@modelcontextprotocol', 'zod'])
      fs.symlinkSync(path.join(root, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');
    for (const name of ['core', 'extras', 'tools'])
      fs.symlinkSync(path.join('..', '..', 'packages', name), path.join(dir, 'node_modules', '@acme', name), 'dir');
    return dir;
  }

  async function migrateWorkspace(): Promise<{ dir: string; result: MigrateResult }> {
    const dir = writeWorkspace();
    const sources = Object.keys(files)
      .filter(isSource)
      .map(rel => ({ path: path.join(dir, rel), text: files[rel]! }));
    const result = await migrateSources(sources, { cwd: dir });
    for (const c of result.changes) fs.writeFileSync(c.path, c.after);
    return { dir, result };
  }

  it("reads them, upgrades their registrations and asks their questions, and raises their packages' zod", async () => {
    const { result } = await migrateWorkspace();
    const after = (file: string) => result.changes.find(c => c.path.endsWith(file))?.after ?? '';
    expect(after('echo.ts')).toContain("server.registerTool('echo', { description: 'Echoes' }, async () => (");
    const notes = after('notes.ts');
    expect(notes).toContain(
      "resumable(server).registerTool('add_note', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {",
    );
    expect(notes).toContain(`await ask(server.server, 'answer').elicitInput(`);
    expect(result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome}`)).toEqual(['packages/tools/src/notes.ts:5 rewritten']);
    // Each package hands SDK 2.x its zod schemas, which SDK 2.x refuses from zod 3: zod is raised in both; the one
    // whose code now imports the requestState module (which imports the SDK's server package) gets that too.
    expect(JSON.parse(after('packages/extras/package.json')).dependencies).toEqual({ '@acme/core': '*', zod: '^4.2.0' });
    expect(JSON.parse(after('packages/tools/package.json')).dependencies).toEqual({
      '@acme/core': '*',
      '@modelcontextprotocol/server': '^2.4.0',
      zod: '^4.2.0',
    });
    expect(result.report.notes).toContain(
      'packages/extras/package.json: zod "^3.25.0" raised to "^4.2.0" in dependencies: @modelcontextprotocol/server 2.x needs zod >= 4.2 (the zod 3 calls zod 4 reads otherwise were repaired, or marked where they could not be)',
    );
    expect(result.report.notes).toContain("packages/extras/package.json: run your package manager's install to update the lockfile");
  }, 600_000);

  // The tools package and the server's package each got a requestState module: the round the tools' copy sealed
  // is opened by the copy the server was given. Each sealed with a key of its own where no MCP_REQUEST_STATE_KEY
  // is set (stdio, as a user runs it), and the 2026-07-28 client's retry was refused.
  it('gives the same results on both eras with no key configured, the two copies of the requestState module sealing alike', async () => {
    const before = writeWorkspace();
    const { dir } = await migrateWorkspace();
    expect(fs.existsSync(path.join(dir, 'packages/tools/src/mcp-migrate-state.ts'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'packages/core/src/mcp-migrate-state.ts'))).toBe(true);
    const { MCP_REQUEST_STATE_KEY: _key, ...env } = process.env;
    const result = await verify({
      before: `${tsx} ${path.join(before, 'packages/core/src/main.ts')}`,
      after: `${tsx} ${path.join(dir, 'packages/core/src/main.ts')}`,
      scenario: parseScenario({
        calls: [
          { name: 'echo', method: 'tools/call', params: { name: 'echo' } },
          {
            name: 'add',
            method: 'tools/call',
            params: { name: 'add_note', arguments: { text: 'a' } },
            answers: { elicitation: [{ action: 'accept', content: {} }] },
          },
          {
            name: 'add2',
            method: 'tools/call',
            params: { name: 'add_note', arguments: { text: 'b' } },
            answers: { elicitation: [{ action: 'decline' }] },
          },
        ],
      }),
      env,
      timeoutMs: 120_000,
    });
    sameOnBothEras(result, 'echo', 'add', 'add2');
  }, 600_000);
});

/** A project whose files import one another by specifiers its tsconfig.json or package.json maps (`@/server`, `#server`). */
const MAPPED_IMPORTS = [
  {
    how: 'a tsconfig paths alias',
    prefix: '@/',
    config: {
      'package.json': PACKAGE,
      'tsconfig.json': `{
  // the paths of a template
  "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "baseUrl": ".", "paths": { "@/*": ["src/*"] } },
}
`,
    },
  },
  {
    how: "a package.json subpath import (Node's own)",
    prefix: '#',
    config: {
      'package.json': JSON.stringify({ ...(JSON.parse(PACKAGE) as object), imports: { '#*': './src/*.ts' } }),
      'tsconfig.json': `{ "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "allowImportingTsExtensions": true, "noEmit": true } }\n`,
    },
  },
];

describe.each(MAPPED_IMPORTS)('tools in files the server imports through $how', ({ prefix, config }) => {
  // `import { server } from '@/server'` (or '#server'), as many templates write it: a file that only registers (weather.ts) and one
  // whose tool asks (ask.ts) import nothing of the SDK and no MCP file by a relative path. Neither was read: both
  // kept server.tool(), ask.ts its elicitInput, the run reported no site, and the server died as it started.
  const mapped: Record<string, string> = {
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n\nexport const server = new McpServer({ name: 'aliased', version: '1.0.0' });\n`,
    'src/index.ts': `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { server } from '${prefix}server';
import '${prefix}tools/weather';
import '${prefix}tools/ask';

await server.connect(new StdioServerTransport());
`,
    'src/tools/weather.ts': `import { z } from 'zod';
import { server } from '${prefix}server';

server.tool('weather', { city: z.string() }, async ({ city }) => ({ content: [{ type: 'text', text: \`sunny in \${city}\` }] }));
`,
    'src/tools/ask.ts': `import { z } from 'zod';
import { server } from '${prefix}server';

server.tool('confirm', { what: z.string() }, async ({ what }) => {
  const answer = await server.server.elicitInput({
    message: \`Really \${what}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.ok ? 'done' : 'cancelled' }] };
});
`,
  };
  const files = { ...config, ...mapped };

  it('reads them, upgrades their registrations and asks the question', async () => {
    const { result, text } = await migrate(files, true);
    expect(text('src/tools/weather.ts')).toContain("server.registerTool('weather', { inputSchema: z.object({ city: z.string() }) }, async");
    expect(text('src/tools/ask.ts')).toContain("resumable(server).registerTool('confirm'");
    expect(text('src/tools/ask.ts')).toContain('await ask(server.server');
    expect(result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome}`)).toEqual(['src/tools/ask.ts:5 rewritten']);
  }, 600_000);

  // Each served from its project's directory, as its user runs it: tsx maps the aliases by its tsconfig.json, Node
  // the subpath imports by its package.json.
  it('gives the same results on both eras', async () => {
    const before = writeProject(files, true);
    const after = await migrate(files, true);
    const call = (name: string, args: Record<string, unknown>, elicitation?: unknown[]) => ({
      name,
      method: 'tools/call',
      params: { name: name === 'weather' ? 'weather' : 'confirm', arguments: args },
      answers: elicitation ? { elicitation } : {},
    });
    const result = await verify({
      before: { command: `${tsx} src/index.ts`, cwd: before },
      after: { command: `${tsx} src/index.ts`, cwd: after.dir },
      scenario: parseScenario({
        calls: [
          call('weather', { city: 'Oslo' }),
          call('yes', { what: 'go' }, [{ action: 'accept', content: { ok: true } }]),
          call('no', { what: 'go' }, [{ action: 'decline' }]),
        ],
      }),
      timeoutMs: 120_000,
    });
    sameOnBothEras(result, 'weather', 'yes', 'no');
  }, 600_000);
});

describe('a registration method a subclass of the SDK server declares again', () => {
  // AppServer.registerTool hands its callback the server, not the arguments: the callback is not an SDK
  // handler, and `srv` is a server. Its request is reported and marked, never migrated as a handler's.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

type Handler = (srv: McpServer) => Promise<{ content: { type: 'text'; text: string }[] }>;

class AppServer extends McpServer {
  registerTool(name: string, cb: Handler): any {
    return super.registerTool(name, {}, async () => cb(this));
  }
}

const app = new AppServer({ name: 'sub', version: '1.0.0' });

app.registerTool('ask', async srv => {
  const answer = await srv.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: String(answer.action) }] };
});
`,
  };

  it('is not taken for the SDK registration: the request is marked, and nothing is made resumable', async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.kind} ${s.handler}`)).toEqual([
      'src/server.ts:14 marked elicitation wrapped',
    ]);
    expect(m.sites('src/server.ts')[0]!.reason).toMatch(
      /^elicitation request in a callback passed to registerTool\(\) on an instance of a class that declares registerTool\(\) of its own: /,
    );
    expect(m.text('src/server.ts')).not.toMatch(/resumable|ask\(/);
    expectOnlyReplayEdits(m, 'src/server.ts', { marks: true });
  }, 600_000);
});

describe('a stdio server made in the statement that connects it', () => {
  // serveStdio calls its factory at the client's first message, maybe more than once: the server is declared
  // before the statement, where it was made. In a braceless `if` body there is no place for that declaration:
  // the connect stays, marked above the `if` (a marker on a line of its own), and the file is still rewritten.
  const server = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

function createServer(): McpServer {
  const server = new McpServer({ name: 'made', version: '1.0.0' });
  server.registerTool('ask', {}, async () => {
    const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;

  it('is declared before it, made once where it was', async () => {
    const m = await bothWays({
      'package.json': PACKAGE,
      'src/server.ts': `${server}\nawait createServer().connect(new StdioServerTransport());\n`,
    });
    // (createServer()'s own `server` shadows the new one: the name is free where it is declared)
    expect(m.text('src/server.ts')).toMatch(/\nconst server = createServer\(\);\n\s*serveStdio\(\(\) => server\);\s*$/);
    expect(m.sites('src/server.ts').map(s => s.outcome)).toEqual(['rewritten']);
    expect(m.text('src/server.ts')).toContain("  resumable(server).registerTool('ask',");
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it("takes another name where `server` names something the statement's block reads", async () => {
    const m = await bothWays({
      'package.json': PACKAGE,
      'src/server.ts': `${server}\nconst server = { name: 'settings' };\nconsole.error(server.name);\nawait createServer().connect(new StdioServerTransport());\n`,
    });
    expect(m.text('src/server.ts')).toMatch(/\nconst server2 = createServer\(\);\n\s*serveStdio\(\(\) => server2\);\s*$/);
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('in a braceless if body, is marked above the if', async () => {
    const m = await bothWays({
      'package.json': PACKAGE,
      'src/server.ts': `${server}\nif (process.env.STDIO !== '0') await createServer().connect(new StdioServerTransport());\n`,
    });
    expect(m.sites('src/server.ts').map(s => `${s.outcome} ${s.kind}`)).toEqual(['rewritten elicitation', 'marked entry']);
    expect(m.text('src/server.ts')).toMatch(
      /\n\/\/ mcp-migrate: createServer\(\)\.connect\(new StdioServerTransport\(\)\) stays, serving 2025-era clients only: the server is made in the statement that connects it \(createServer\(\)\).*serveStdio\(\(\) => server\) from @modelcontextprotocol\/server\/stdio.*\nif \(process\.env\.STDIO !== '0'\)\s+await createServer\(\)\.connect/,
    );
  }, 600_000);
});

describe("a helper called through a module namespace's default", () => {
  // `ask.default(...)`: no file writes the name `default`, only `export default`; the handler calls the
  // helper through the namespace's property of that name.
  const files = {
    'package.json': PACKAGE,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export default async function confirm(server: McpServer, what: string): Promise<boolean> {
  const answer = await server.server.elicitInput({ message: \`Delete \${what}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
  return answer.action === 'accept' && answer.content?.ok === true;
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import * as ask from './ask.js';

const server = new McpServer({ name: 'namespace', version: '1.0.0' });

server.registerTool('delete', { inputSchema: { path: z.string() } }, async ({ path }) => {
  if (!(await ask.default(server, path.trim()))) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: \`deleted \${path}\` }] };
});
`,
  };

  it('rewrites the request in the default export for the handler that calls it', async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual([
      'src/ask.ts:4 rewritten tools/call delete',
    ]);
    expect(m.text('src/server.ts')).toContain("resumable(server).registerTool('delete',");
  }, 600_000);
});

describe('a helper imported under another name', () => {
  // `import { askName as askIt }`: the handler calls the helper by a name its file gives it.
  const files = {
    'package.json': PACKAGE,
    'src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'friend';
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName as askIt } from './ask.js';

const server = new McpServer({ name: 'renamed', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askIt(server);
  return { content: [{ type: 'text', text: \`Hello \${name}\` }] };
});
`,
  };

  it('rewrites the request for the handler that calls it by that name', async () => {
    const m = await bothWays(files);
    expect(m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual([
      'src/ask.ts:4 rewritten tools/call hello',
    ]);
    expect(m.text('src/server.ts')).toContain("resumable(server).registerTool('hello',");
  }, 600_000);
});

describe("accessors of the project's classes that do something outside the round", () => {
  // Reading `book.next` runs a getter that counts the tickets issued; setting `prefs.theme` runs a setter that
  // records the change in a module's list. Each is a call of the project's code: done before the question, it is
  // journaled, done once in the call. A getter that only reads (`book.label`) is left as written.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Preferences } from './prefs.js';
import { TicketBook } from './tickets.js';

const book = new TicketBook('Main hall');
const prefs = new Preferences();
const server = new McpServer({ name: 'accessors', version: '1.0.0' });

server.registerTool('book', { inputSchema: { theme: z.string() } }, async ({ theme }) => {
  prefs.theme = theme;
  const ticket = book.next;
  const label = book.label;
  const answer = await server.server.elicitInput({
    message: \`Book ticket \${ticket} in \${label}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: \`ticket \${ticket}: \${answer.action}; \${book.issued} issued, theme \${prefs.theme} set \${prefs.changes} times\` }] };
});
`,
    'src/tickets.ts': `export class TicketBook {
  #issued = 0;

  constructor(private readonly hall: string) {}

  get next(): number {
    this.#issued += 1;
    return this.#issued;
  }

  get issued(): number {
    return this.#issued;
  }

  get label(): string {
    return this.hall.toUpperCase();
  }
}
`,
    'src/prefs.ts': `const history: string[] = [];

export class Preferences {
  #theme = 'light';

  get theme(): string {
    return this.#theme;
  }

  set theme(value: string) {
    history.push(value);
    this.#theme = value;
  }

  get changes(): number {
    return history.length;
  }
}
`,
  };
  let m: Migrated;

  it('journals the getter that counts and the setter that records, and leaves the getter that only reads', async () => {
    m = await bothWays(files);
    expect(outcomes(m)).toEqual(['src/server.ts:14 rewritten elicitation']);
    const server = m.text('src/server.ts');
    expect(server).toContain('  journaled(() => prefs.theme = theme);\n');
    expect(server).toContain('  const ticket = journaled(() => book.next);\n');
    expect(server).toContain('  const label = book.label;\n');
    expect(m.text('src/tickets.ts')).toBe(files['src/tickets.ts']);
    expect(m.text('src/prefs.ts')).toBe(files['src/prefs.ts']);
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);

  it('issues one ticket and records one change per call, on both eras', async () => {
    const ok = { action: 'accept', content: { ok: true } };
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'first', tool: 'book', arguments: { theme: 'dark' }, elicitation: [ok] },
      { name: 'second', tool: 'book', arguments: { theme: 'solar' }, elicitation: [{ action: 'decline' }] },
      { name: 'third', tool: 'book', arguments: { theme: 'dark' }, elicitation: [ok] },
    ]);
    sameOnBothEras(result, 'first', 'second', 'third');
  }, 600_000);
});

describe('constructions of project classes whose fields or constructor do something outside the round', () => {
  // Making an Order numbers it from a module's counter in a field's initializer: made again on each round, it
  // would be numbered again, and an instance cannot travel in requestState to be replayed. It is marked, so the
  // run does not end as done. A Stamp reads the clock in its field: made again, it changes nothing outside it,
  // and the report says it is made again. Neither was seen before: a field's initializer was not read as part
  // of the construction.
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Order, Stamp } from './order.js';

const server = new McpServer({ name: 'orders', version: '1.0.0' });

server.registerTool('order', { inputSchema: { item: z.string() } }, async ({ item }) => {
  const order = new Order(item);
  const stamp = new Stamp();
  const answer = await server.server.elicitInput({
    message: \`Confirm order \${order.id} of \${order.item}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: \`order \${order.id}: \${answer.action} at \${stamp.at}\` }] };
});
`,
    'src/order.ts': `let lastId = 0;

export class Entity {
  readonly id = ++lastId;
}

export class Order extends Entity {
  constructor(readonly item: string) {
    super();
  }
}

export class Stamp {
  readonly at = Date.now();
}
`,
  };

  it('marks the construction that numbers the order, and notes the one made again', async () => {
    const m = await bothWays(files);
    const sites = m.result.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.causeId ?? ''}`.trim());
    expect(sites).toEqual(['src/server.ts:8 marked construction-with-effect', 'src/server.ts:10 rewritten']);
    expect(m.text('src/server.ts')).toMatch(
      /^ {2}\/\/ mcp-migrate: tools\/call order makes new Order\(item\) again on each round .*\n {2}const order = new Order\(item\);$/m,
    );
    expect(m.result.report.notes.filter(n => n.includes('new Stamp()'))).toEqual([
      'src/server.ts:9: tools/call order makes new Stamp() again on each round of a 2026-07-28 call (an instance of class Stamp cannot travel in requestState): review that making it again is safe',
    ]);
    expect(m.text('src/order.ts')).toBe(files['src/order.ts']);
  }, 600_000);
});

describe('counters kept in an assignment and an id sequence', () => {
  // `stats.calls = stats.calls + 1`, `ids.next()` on a module's generator, a function run through .call() and one
  // handed to forEach() change what outlives the round: each is journaled, so a call counts once and takes one id
  // on every era (before, each round counted and took again).
  const files = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

function* sequence(): Generator<number> {
  let n = 100;
  while (true) yield ++n;
}
const ids = sequence();
const stats = { calls: 0 };
const filed: string[] = [];
const remember = (title: string) => filed.push(title);
function tally(this: unknown, by: number) {
  stats.calls += by;
}

const server = new McpServer({ name: 'counters', version: '1.0.0' });

server.registerTool('file', { inputSchema: { title: z.string() } }, async ({ title }) => {
  stats.calls = stats.calls + 1;
  tally.call(null, 10);
  [title].forEach(remember);
  const id = ids.next().value;
  const answer = await server.server.elicitInput({
    message: \`File \${title} as #\${id}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: \`#\${id} \${title}: \${answer.action} (call \${stats.calls}, \${filed.length} filed)\` }] };
});

server.registerTool('label', { inputSchema: { title: z.string(), serial: z.number().optional() } }, async ({ title, serial = ids.next().value }) => {
  const answer = await server.server.elicitInput({
    message: \`Label \${title} as #\${serial}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: \`#\${serial} \${title}: \${answer.action}\` }] };
});
`,
  };

  it('journals both, and a default of a parameter', async () => {
    const m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(server).toContain('  journaled(() => stats.calls = stats.calls + 1);\n');
    expect(server).toContain('  const id = journaled(() => ids.next()).value;\n');
    expect(server).toContain('  journaled(() => tally.call(null, 10));\n  journaled(() => [title].forEach(remember));\n');
    expect(server).toContain('async ({ title, serial = journaled(() => ids.next()).value }) => {\n');
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('counts each call once and gives it one id, on both eras (a default of a parameter too)', async () => {
    const ok = { action: 'accept', content: { ok: true } };
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'first', tool: 'file', arguments: { title: 'a' }, elicitation: [ok] },
      { name: 'second', tool: 'file', arguments: { title: 'b' }, elicitation: [{ action: 'decline' }] },
      { name: 'third', tool: 'file', arguments: { title: 'c' }, elicitation: [ok] },
      { name: 'labelled', tool: 'label', arguments: { title: 'd' }, elicitation: [ok] },
      { name: 'numbered', tool: 'label', arguments: { title: 'e', serial: 7 }, elicitation: [ok] },
      { name: 'after', tool: 'file', arguments: { title: 'f' }, elicitation: [ok] },
    ]);
    sameOnBothEras(result, 'first', 'second', 'third', 'labelled', 'numbered', 'after');
  }, 600_000);
});

describe('counters and stock kept by a store, a map and a library call in other modules', () => {
  // A store's immutable update (`const next = { ...this.stats, runs: this.stats.runs + 1 }; this.stats = next;`), a
  // map's entry set from itself (in a helper, and in the handler through a helper's read) and
  // `Array.prototype.push.apply` onto a module's array: each read as setting a value (or as pure), each ran again on
  // the next round of a 2026-07-28 call, which counted twice. And a method's read of what the handler then changes
  // (`inventory.stockOf(item)` before `inventory.reserve(item)`), which the next round read changed.
  const files = {
    'package.json': PACKAGE,
    'src/stats.ts': `export class StatsStore {
  private stats = { runs: 0 };

  bump(): number {
    const next = { ...this.stats, runs: this.stats.runs + 1 };
    this.stats = next;
    return next.runs;
  }

  get runs(): number {
    return this.stats.runs;
  }
}

export class Inventory {
  private stock = new Map<string, number>();

  stockOf(item: string): number {
    return this.stock.get(item) ?? 3;
  }

  reserve(item: string): void {
    this.stock.set(item, 0);
  }
}
`,
    'src/hits.ts': `const counts = new Map<string, number>();
export const audit: string[] = [];

export function hit(key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

export function hits(key: string): number {
  return counts.get(key) ?? 0;
}

export function record(entries: string[]): void {
  Array.prototype.push.apply(audit, entries);
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { audit, hit, hits, record } from './hits.js';
import { Inventory, StatsStore } from './stats.js';

const stats = new StatsStore();
const inventory = new Inventory();
const deploys = new Map<string, number>();
const deploysOf = (counts: Map<string, number>, key: string) => counts.get(key) ?? 0;
const server = new McpServer({ name: 'stores', version: '1.0.0' });

server.registerTool('deploy', { inputSchema: { service: z.string() } }, async ({ service }) => {
  stats.bump();
  hit(service);
  record([service]);
  deploys.set(service, deploysOf(deploys, service) + 1);
  const stock = inventory.stockOf(service);
  inventory.reserve(service);
  const answer = await server.server.elicitInput({
    message: \`Deploy \${service}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: \`\${service}: \${answer.action} (runs \${stats.runs}, hits \${hits(service)}, audit \${audit.length}, deploys \${deploysOf(deploys, service)}, stock \${stock})\` }] };
});
`,
  };

  it('journals each call, and the read of the stock before the handler changes it', async () => {
    const m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(server).toContain('  journaled(() => stats.bump());\n  journaled(() => hit(service));\n  journaled(() => record([service]));\n');
    expect(server).toContain('  journaled(() => {\n    deploys.set(service, deploysOf(deploys, service) + 1);\n  });\n');
    expect(server).toContain('  const stock = journaled(() => inventory.stockOf(service));\n  inventory.reserve(service);\n');
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('counts each call once and reads the stock it had, on both eras', async () => {
    const ok = { action: 'accept', content: { ok: true } };
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'first', tool: 'deploy', arguments: { service: 'api' }, elicitation: [ok] },
      { name: 'second', tool: 'deploy', arguments: { service: 'api' }, elicitation: [{ action: 'decline' }] },
      { name: 'third', tool: 'deploy', arguments: { service: 'web' }, elicitation: [ok] },
    ]);
    sameOnBothEras(result, 'first', 'second', 'third');
  }, 600_000);
});

describe('work whose result is not used and cannot travel in requestState', () => {
  // A save that resolves to an instance of a class (a driver's result object): journaled with its result, a later
  // round could not read the instance back, and the call failed on its second round. The result is not used: the
  // work is journaled with a block body, so that nothing is kept of it.
  const files = {
    'package.json': PACKAGE,
    'src/store.ts': `export class Receipt {
  constructor(readonly id: number) {}
}

const rows: string[] = [];

export async function save(title: string): Promise<Receipt> {
  rows.push(title);
  return new Receipt(rows.length);
}

export function saved(): number {
  return rows.length;
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { save, saved } from './store.js';

const seen = new Map<string, number>();
const server = new McpServer({ name: 'store', version: '1.0.0' });

server.registerTool('file', { inputSchema: { title: z.string() } }, async ({ title }) => {
  await save(title);
  seen.set(title, (seen.get(title) ?? 0) + 1);
  const answer = await server.server.elicitInput({
    message: \`Filed \${title}. Notify the team?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: \`\${title}: \${answer.action} (\${saved()} saved, seen \${seen.get(title)})\` }] };
});
`,
  };

  it('journals the work with a block body', async () => {
    const m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(server).toContain('  await journaled(async () => {\n    await save(title);\n  });\n');
    // (the set counts: done again, it would count again; Map.set keeps nothing of its result but the map)
    expect(server).toContain('  journaled(() => {\n    seen.set(title, (seen.get(title) ?? 0) + 1);\n  });\n');
    expectOnlyReplayEdits(m, 'src/server.ts');
  }, 600_000);

  it('saves once per call and answers on both eras', async () => {
    const ok = { action: 'accept', content: { ok: true } };
    const result = await verifyBothEras(withStdio(files, 'src/server.ts'), 'src/server.ts', [
      { name: 'first', tool: 'file', arguments: { title: 'a' }, elicitation: [ok] },
      { name: 'second', tool: 'file', arguments: { title: 'a' }, elicitation: [{ action: 'decline' }] },
    ]);
    sameOnBothEras(result, 'first', 'second');
  }, 600_000);
});
