/**
 * Helpers inlined into handlers, as a user's project would have them: each project is migrated in a
 * fresh directory outside the repository, twice: with nothing installed (node's and the SDK's
 * declarations do not resolve there) and with the packages installed (a node_modules link); both runs
 * must give the same result. The outputs are then typechecked against the real types.
 *
 * Inlined code keeps the meaning of every name it uses, checked by symbol; it is pasted only into
 * handlers that are then migrated; and every marker about a helper says what truly happened.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { partitionCandidates } from '../src/partition.js';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';
import { Project, ts } from 'ts-morph';
import { typecheckFiles } from './support/typecheck.js';

const root = path.resolve(import.meta.dirname, '..');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

interface Migrated {
  dir: string;
  result: MigrateResult;
  /** A file's text after the run (as it was when unchanged), by its path in the project. */
  text(rel: string): string;
  sites(rel: string): MigrateResult['report']['sites'];
}

/** Writes the project into a fresh directory outside the repository and migrates its sources (those under `only`, if given). */
async function migrate(files: Record<string, string>, installed: boolean, only = ''): Promise<Migrated> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-bindings-')));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  if (installed) fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const sources = Object.entries(files)
    .filter(([rel]) => /\.[cm]?[jt]s$/.test(rel) && rel.startsWith(only))
    .map(([rel, text]) => ({ path: path.join(dir, rel), text }));
  const result = await migrateSources(sources, { cwd: dir });
  for (const c of result.changes) fs.writeFileSync(c.path, c.after);
  return {
    dir,
    result,
    text: rel => fs.readFileSync(path.join(dir, rel), 'utf8'),
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

const PACKAGE = JSON.stringify({ name: 'bindings', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^4.2.0' } });

describe('names an imported helper takes from node built-ins', () => {
  // The handler's file imports readFileSync from node:fs; the helper imports isAbsolute from node:path and
  // existsSync and statSync from node:fs. With nothing installed none of them resolves, and they must not
  // be taken for one another (nor for McpServer or StdioServerTransport).
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

  it('imports each name from its own module, aliased where the handler file has the name, and calls it by that name', async () => {
    m = await bothWays(files);
    expect(m.sites('src/server.ts').map(s => `${s.outcome} ${s.shape}`)).toEqual(['rewritten helper']);
    const server = m.text('src/server.ts');
    expect(server).toMatch(/^import \{ readFileSync, existsSync, statSync \} from 'node:fs';$/m);
    expect(server).toMatch(/^import \{ isAbsolute as isAbsolute2 \} from 'node:path';$/m);
    // The helper's SDK type, imported from the package by its name (upgraded to 2.x, as the helper's own import is).
    expect(server).toMatch(/^import (type \{ ElicitResult \}|\{[^}]*\btype ElicitResult\b[^}]*\}) from ["']@modelcontextprotocol\/server["'];$/m);
    // (The helper's own p renamed: the handler's `const p = await ...` is the result the inlined code assigns.)
    expect(server).toContain('if (!isAbsolute2(p2) || !existsSync(p2) || !statSync(p2).isFile())');
    expect(server).not.toMatch(/StdioServerTransport\(p\)|McpServer\(p\)|readFileSync\(p\)\.isFile/);
    // The server's own isAbsolute keeps serving the server's code.
    expect(server).toContain("text: isAbsolute(p) ? 'home'");
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('names that cannot keep their meaning in the handler', () => {
  // The helper reads the global process; the handler's file declares a process of its own at module level.
  // Its exported LIMIT is imported beside the handler file's own LIMIT, from another module, aliased.
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

  it('imports a module export beside a name of the same spelling from another module, aliased', async () => {
    m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(server).toMatch(/^import \{ LIMIT as LIMIT2 \} from '\.\/limits\.js';$/m);
    expect(server).toContain('Math.min(Number(a.content?.n), LIMIT2)');
    expect(server).toContain('text: `${n} of ${LIMIT}`');
    expect(m.sites('src/server.ts').find(s => s.handler === 'tools/call count')).toMatchObject({ outcome: 'rewritten', shape: 'helper' });
  }, 600_000);

  it('marks a call whose helper reads a global the handler file declares differently, and pastes nothing', () => {
    const server = m.text('src/server.ts');
    const dir = m.sites('src/server.ts').filter(s => s.handler === 'tools/call dir');
    expect(dir).toHaveLength(1);
    expect(dir[0]).toMatchObject({ outcome: 'marked', call: 'askDir(...)', shape: 'helper' });
    expect(dir[0]!.reason).toMatch(/^askDir\(\) \(dir\.ts\) is not inlined: it uses process, which means something else at the call site/);
    expect(server).toContain(`// mcp-migrate: ${dir[0]!.reason}\n  const d = await askDir(server);`);
    expect(server).not.toContain('Directory under');
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe("a helper refused for one module-local leaves the others' imports out", () => {
  // askName reads prefix (a const, which could be exported) before it assigns counted (a let) in an
  // expression that uses the value, which no setter call stands for: it is not inlined, so the
  // handler's file must import neither, and ask.ts export nothing.
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

  it('marks the call and adds no import of the names it would have brought over', async () => {
    m = await bothWays(files);
    const [call] = m.sites('src/server.ts');
    expect(call).toMatchObject({ outcome: 'marked', call: 'askName(...)', shape: 'helper' });
    expect(call!.reason).toMatch(/^askName\(\) \(ask\.ts\) is not inlined: it assigns counted, a module-level let of ask\.ts, inside an expression that uses its value/);
    const server = m.text('src/server.ts');
    expect(server).toMatch(/^import \{ askName \} from '\.\/ask\.js';$/m);
    expect(server).not.toMatch(/\bprefix\b/);
    expect(m.text('src/ask.ts')).toMatch(/^const prefix = 'Your name';$/m);
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a helper that assigns module-level variables of its own module', () => {
  // An import cannot assign what it imports: ask.ts gets a setter beside each variable askName assigns,
  // typed as the variable is, and the inlined code calls it; the variables it reads are exported (live
  // bindings), and the helper stays as it is for its other callers.
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

  it('inlines the helper, with setter calls where it assigned them', async () => {
    m = await bothWays(files);
    expect(m.sites('src/server.ts').map(s => s.outcome)).toEqual(['rewritten']);
    const server = m.text('src/server.ts');
    for (const call of ['setAsked(asked + 1);', 'setLastName(given);', "setMode('known');", 'setAsked(asked + 10);']) expect(server).toContain(call);
    expect(server).not.toMatch(/^\s*(mode|asked|lastName)\b[^(]*=/m);
    const ask = m.text('src/ask.ts');
    expect(ask).toContain("export let mode: Mode = 'new';\n\n/** Sets mode from another module, which cannot assign an imported binding. */\nexport function setMode(value: Mode): void {\n  mode = value;\n}\n");
    expect(ask).toContain('export function setAsked(value: number): void {');
    expect(ask).toContain('export function setLastName(value: string | undefined): void {');
    expect(ask).toMatch(/^export var asked = 0;$/m);
    // The helper itself is as it was.
    expect(ask).toContain("  lastName = given;\n  mode = 'known';\n  asked += 10;\n");
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a cache filler of another module, split for the tools that call it', () => {
  // getSettings() returns its module's cache when set, else asks once and stores what it makes of the
  // answer. Its type is not exported; one tool awaits it in an expression, the form the split is not made for.
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

  it('reads the cache in the tool and asks only when it is empty, the fill in the helper\'s module', async () => {
    m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(server).toMatch(/^import \{ getSettings, type Settings, cachedSettings, fillSettings \} from '\.\/settings\.js';$/m);
    expect(m.sites('src/server.ts').find(s => s.line === 7)).toMatchObject({ outcome: 'rewritten' });
    const settings = m.text('src/settings.ts');
    expect(settings).toContain('export interface Settings {');
    expect(settings).toContain('export function cachedSettings(): Settings | undefined {\n  return cached;\n}');
    expect(settings).toMatch(/export function fillSettings\(answer: ElicitResult\): Settings \{\n  cached = \{ theme: answer\.action/);
    expect(settings).toMatch(/^ {2}return fillSettings\(await server\.server\.elicitInput\(/m);
    expect(m.result.report.notes.some(n => /^src\/settings\.ts:9: getSettings\(\) split for the tool call to it: cachedSettings\(\) reads its cache and fillSettings\(\) fills it/.test(n))).toBe(true);
  }, 600_000);

  it('marks the call awaited in an expression, and adds nothing for it', () => {
    const [summary] = m.sites('src/server.ts').filter(s => s.line === 12);
    expect(summary).toMatchObject({ outcome: 'marked', call: 'getSettings(...)', shape: 'helper' });
    expect(summary!.reason).toMatch(/^getSettings\(\) \(settings\.ts\) fills a cache, but is not split into a read of it and a fill from the answer: the call is not written `const name = await getSettings\(\.\.\.\)`/);
    expect(m.text('src/server.ts').match(/cachedSettings\(\)/g)).toHaveLength(1);
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('a helper of the same file', () => {
  // The handler passes its local `question`, and the helper declares a `question` of its own; the
  // handler has a local DEFAULT_NAME beside the module's, which the helper reads.
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

  it("renames the helper's local that the handler's argument would otherwise read", async () => {
    m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(m.sites('src/server.ts').find(s => s.handler === 'tools/call greet')).toMatchObject({ outcome: 'rewritten', shape: 'helper' });
    expect(server).toContain('const prompt: string = question;');
    expect(server).toContain('const question2 = `${prompt} (or leave it empty)`;');
  }, 600_000);

  it("marks the call of a handler whose own local would hide the module's name the helper reads", () => {
    const server = m.text('src/server.ts');
    const shadow = m.sites('src/server.ts').filter(s => s.handler === 'tools/call shadow');
    expect(shadow).toHaveLength(1);
    expect(shadow[0]).toMatchObject({ outcome: 'marked', call: 'askName(...)', shape: 'helper' });
    expect(shadow[0]!.reason).toMatch(/^askName\(\) is not inlined: it uses DEFAULT_NAME, which would mean something else in server\.ts/);
    expect(server).toContain(`// mcp-migrate: ${shadow[0]!.reason}\n  const name = await askName('Name?');`);
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('arguments a helper parameter is not replaced by', () => {
  // A parameter is replaced by its argument only when the argument holds its value all along. An imported
  // `export let` is a live binding the helper changes here (through advanceTopic); handler parameters the
  // helper swaps with a destructuring assignment would be assigned in the handler; a template of a name the call
  // also hands the helper, or one the helper reads after a call of its own, would be made after the helper changed
  // what the name holds.
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

  it('binds an imported let, a template the helper could change before reading it, and a parameter the helper assigns by destructuring', async () => {
    m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(m.sites('src/server.ts').map(s => s.outcome)).toEqual(['rewritten', 'rewritten', 'rewritten', 'rewritten']);
    expect(server).toContain("const message: string = `Seen: ${seen}`;\n      remember('asked');");
    expect(server).toContain("const message: string = `Confirm ${items}?`;\n      items.push('extra');");
    expect(server).toContain('const topic: string = currentTopic;\n      advanceTopic(\'changed\');');
    expect(server).toContain('message: `About ${topic}?`');
    expect(server).toContain('let first: string = a;');
    expect(server).toContain('if (first > second) [first, second] = [second, first];');
    expect(server).not.toContain('[a, b] = [b, a]');
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('handlers that cannot be migrated with a helper inlined', () => {
  // askChoice is inlined into three handlers; "timed" keeps a Date across it and cannot be migrated,
  // nor can "when", whose helper keeps the Date itself: both keep their text, with the call marked.
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

  it('pastes the helper only into the handler that is migrated, and says so', async () => {
    m = await bothWays(files);
    const server = m.text('src/server.ts');
    expect(m.sites('src/server.ts').find(s => s.handler === 'tools/call pick')).toMatchObject({ outcome: 'rewritten', shape: 'helper' });
    const [pick, rest] = server.split("server.registerTool('timed'");
    expect(pick).toContain('c = String(answer.content?.choice);');
    expect(rest).not.toMatch(/mcpInline|askChoiceResult/);
    expect(m.result.report.notes).toContainEqual(expect.stringMatching(/^src\/server\.ts: askChoice\(\) from src\/ask\.ts:\d+ inlined into the handler that calls it, where it is migrated/));
    expect(m.result.report.notes.filter(n => n.includes('askWhen() from'))).toEqual([]);
  }, 600_000);

  it('leaves the handlers it could not migrate as they were, the call marked with why', () => {
    const server = m.text('src/server.ts');
    for (const [handler, text, helper] of [['timed', timed, 'askChoice'], ['when', when, 'askWhen']] as const) {
      const sites = m.sites('src/server.ts').filter(s => s.handler === `tools/call ${handler}`);
      expect(sites, handler).toHaveLength(1);
      expect(sites[0]).toMatchObject({ outcome: 'marked', call: `${helper}(...)`, shape: 'helper' });
      expect(sites[0]!.reason).toMatch(new RegExp(`^${helper}\\(\\) \\(ask\\.ts\\) is not inlined: inlined, tools/call ${handler} could not be migrated \\(.*\\b(started|asked)\\b.*a Date.*\\), so its elicitation request is not migrated`));
      const call = text.split('\n').find(l => l.includes(`await ${helper}(`))!;
      expect(server, handler).toContain(text.replace(call, `  // mcp-migrate: ${sites[0]!.reason}\n${call}`));
    }
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe('what a helper marker says of its callers', () => {
  // askName is inlined into one handler; it is also called from a notification handler, from an HTTP
  // server's request callback and through a copy bound into a static. askAge is a method, called
  // through this from a handler registered in the class.
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

  it('says how many calls were inlined and migrated, and how many are left, each marked where it is made', async () => {
    m = await bothWays(files);
    const [askName] = m.sites('src/ask.ts');
    expect(askName).toMatchObject({ outcome: 'marked', handler: 'helper' });
    expect(askName!.reason).toBe(
      'elicitation request in helper askName(), not directly in a handler: 1 handler call reaching it was inlined there and migrated; 3 other calls reaching it are marked where they are made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it'
    );
    const askAge = m.sites('src/server.ts').find(s => s.call === 'mcp.server.elicitInput(...)');
    expect(askAge!.reason).toMatch(/^elicitation request in helper askAge\(\), not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made;/);
    expect(m.sites('src/server.ts').find(s => s.handler === 'tools/call hello')).toMatchObject({ outcome: 'rewritten', shape: 'helper' });
  }, 600_000);

  it('marks each caller it could not migrate, with why, and counts it as left', () => {
    const server = m.text('src/server.ts');
    const left = m.sites('src/server.ts').filter(s => s.outcome === 'marked' && s.shape === 'helper');
    expect(left.map(s => `${s.line} ${s.call} [${s.handler}]`)).toEqual([
      '14 askName(...) [notification]',
      '18 askName(...) [callback]',
      '34 this.askAge(...) [tools/call age]',
      '43 Greeter.ask(...) [tools/call stored]',
    ]);
    const reasons = left.map(s => s.reason);
    expect(reasons[0]).toMatch(/^calls askName\(\), which makes an elicitation request, in a notification handler: a notification handler cannot ask the client anything on MCP 2026-07-28 .*; do not ask here: clear what the answer would refresh and let the next tool call that needs it ask$/);
    expect(reasons[1]).toMatch(/^calls askName\(\), which makes an elicitation request, in a callback passed to createServer\(\): only a tools\/call/);
    expect(reasons[2]).toMatch(/^askAge\(\) is not inlined: it writes this\.asked and reads it back \(a later round would read the instance's field/);
    expect(reasons[3]).toMatch(/^calls Greeter\.ask\(\), bound to askName\(\), which makes an elicitation request: it is not inlined \(it is called through a stored function\)/);
    const original = files['src/server.ts'].split('\n');
    for (const site of left) expect(server).toContain(`// mcp-migrate: ${site.reason}\n${original[site.line - 1]}`);
  });
});

describe('helpers reached through a tsconfig.json paths alias, or loaded with import()', () => {
  // A workspace: the server package imports its helper from the shared package through the alias
  // @shared/*, which only the server's tsconfig.json knows; another tool loads its helper with import().
  const files = {
    'package.json': JSON.stringify({ name: 'acme', private: true, type: 'module', workspaces: ['packages/*'] }),
    'packages/shared/package.json': JSON.stringify({ name: '@acme/shared', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' } }),
    'packages/shared/src/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PROMPT } from './prompts.js';

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({ message: PROMPT, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'friend';
}
`,
    'packages/shared/src/prompts.ts': `export const PROMPT = 'Your name?';
`,
    'packages/server/package.json': JSON.stringify({ name: '@acme/server', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', '@acme/shared': '*' } }),
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

  it('inlines a helper imported through the alias, importing its names through the alias too', async () => {
    m = await bothWays(files);
    expect(m.sites(index).find(s => s.handler === 'tools/call hello')).toMatchObject({ outcome: 'rewritten', shape: 'helper', line: 7, call: 'askName(...)' });
    const server = m.text(index);
    expect(server).toMatch(/^import \{ PROMPT \} from '@shared\/prompts\.js';$/m);
    expect(server).toContain('inputRequired.elicit({ message: PROMPT,');
    expect(m.result.report.notes).toContainEqual(expect.stringMatching(/^packages\/server\/src\/index\.ts: askName\(\) from packages\/shared\/src\/ask\.ts:\d+ inlined into the handler that calls it/));
  }, 600_000);

  it('marks a call of a helper loaded with import() that reads its own module, and does not report its handler rewritten', () => {
    const age = m.sites(index).filter(s => s.handler === 'tools/call age');
    expect(age).toHaveLength(1);
    expect(age[0]).toMatchObject({ outcome: 'marked', call: 'askAge(...)', shape: 'helper', line: 13 });
    expect(age[0]!.reason).toMatch(/^askAge\(\) \(age\.ts\) is not inlined: it is loaded with import\('\.\/age\.js'\) when the handler runs and uses MAX_AGE of its module, which inlining would import up front/);
    expect(m.text(index)).toContain(`// mcp-migrate: ${age[0]!.reason}\n  const age = await askAge(server);`);
  });

  it('inlines a helper loaded with import() that reads nothing of its module, and drops the import()', () => {
    expect(m.sites(index).find(s => s.handler === 'tools/call mood')).toMatchObject({ outcome: 'rewritten', call: 'askMood(...)', shape: 'helper' });
    const server = m.text(index);
    expect(server).not.toContain("import('./mood.js')");
    expect(server).toContain("const { askAge } = await import('./age.js');");
    expect(server).toMatch(/Mood \$\{\w+\}\?/);
  });

  it("typechecks with the server package's own tsconfig.json", () => {
    const project = new Project({ tsConfigFilePath: path.join(m.dir, 'packages/server/tsconfig.json') });
    const errors = project.getPreEmitDiagnostics().map(d => `${path.relative(m.dir, d.getSourceFile()?.getFilePath() ?? '')}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, ' ')}`);
    expect(errors).toEqual([]);
  }, 600_000);

  it('keeps the alias importer and its helper in one group when the run is split into threads', () => {
    const sources = Object.entries(files).filter(([rel]) => rel.endsWith('.ts')).map(([rel, text]) => ({ path: path.join(m.dir, rel), text }));
    const groups = partitionCandidates(sources, 4).map(g => g.map(f => path.relative(m.dir, f.path)));
    expect(groups.find(g => g.includes(index))).toContain('packages/shared/src/ask.ts');
  });

  it('inlines the aliased helper into a file that names no request and imports nothing relative', async () => {
    // The handler's file reaches its helper only through the alias: nothing else in it says a request may be near.
    const only = { ...files, [index]: files[index].slice(0, files[index].indexOf("server.registerTool('age'")) };
    const alone = await migrate(only, false);
    expect(alone.sites(index).find(s => s.handler === 'tools/call hello')).toMatchObject({ outcome: 'rewritten', call: 'askName(...)' });
  }, 600_000);

  it("marks the call when the helper's package is not part of the run, rather than pasting it un-upgraded", async () => {
    const server = await migrate(files, true, 'packages/server/');
    const hello = server.sites(index).filter(s => s.handler === 'tools/call hello');
    expect(hello).toHaveLength(1);
    expect(hello[0]).toMatchObject({ outcome: 'marked', call: 'askName(...)', shape: 'helper' });
    expect(hello[0]!.reason).toMatch(/^askName\(\) \(ask\.ts\) is not inlined: ask\.ts is not one of the files this run migrates, so its elicitation request is not migrated; run mcp-migrate over its files and the handler's together/);
    expect(server.text(index)).toContain(`// mcp-migrate: ${hello[0]!.reason}\n  const name = await askName(server);`);
  }, 600_000);
});

describe('a JavaScript helper that takes the server inside an options object', () => {
  // No types say what `server` is: only the call passes it, as a property of the object the helper destructures.
  const files = {
    'package.json': JSON.stringify({ name: 'consent', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^3.25.0' } }),
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

  it('finds the request it reaches and marks the call, whatever is installed', async () => {
    const m = await bothWays(files);
    const sites = m.sites('src/server.js');
    expect(sites).toHaveLength(1);
    expect(sites[0]).toMatchObject({ outcome: 'marked', kind: 'elicitation', call: 'requestWriteConsent(...)', line: 6 });
    expect(m.text('src/server.js')).toContain(`// mcp-migrate: ${sites[0]!.reason}\n  const allowed = await requestWriteConsent(`);
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
    'package.json': JSON.stringify({ name: 'app', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^3.25.0' } }),
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

  it('inlines it with the object bound to the helper\'s parameter, whatever is installed', async () => {
    const m = await bothWays(typed);
    expect(m.sites('src/server.ts')).toEqual([expect.objectContaining({ outcome: 'rewritten', kind: 'elicitation', call: 'askUser(...)' })]);
    expect(m.text('src/server.ts')).toContain('const deps: Deps = this;');
    expect(m.text('src/server.ts')).toContain('deps.log.request(');
  }, 600_000);

  it('finds it in JavaScript, where only the constructor says what the field holds', async () => {
    const m = await bothWays(untyped);
    expect(m.sites('src/server.js')).toEqual([expect.objectContaining({ kind: 'elicitation', call: 'askUser(...)' })]);
    expect(m.sites('src/server.js')[0]!.outcome).not.toBe('skipped');
  }, 600_000);
});

describe('a helper typed by a part of the server', () => {
  // `Pick<LowLevel, ...>` of `McpServer['server']`, through type aliases: the helper's body is a request site
  // (so a caller other than a handler, here a lifecycle callback, is marked), whatever is installed.
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

  it('migrates the handler\'s call and marks the helper body and its lifecycle caller', async () => {
    const m = await bothWays(files);
    expect(m.sites('src/server.ts').map(s => `${s.outcome} ${s.line}`)).toEqual(['rewritten 7', 'marked 12']);
    expect(m.sites('src/ask.ts').map(s => `${s.outcome} ${s.line}`)).toEqual(['marked 7']);
  }, 600_000);

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
      'src/server.ts': files['src/server.ts'].replace("import { confirm } from './ask.js';", "import { confirm, confirmAny } from './ask.js';").replace("console.error('on');", "console.error('on');\n  if (await confirmAny(mcp, 'Crash reports?')) console.error('on');"),
    };
    const m = await bothWays(structural);
    expect(m.sites('src/server.ts').map(s => `${s.outcome} ${s.line}`)).toEqual(['rewritten 7', 'marked 12', 'marked 13']);
    expect(m.sites('src/ask.ts').map(s => `${s.outcome} ${s.line}`)).toEqual(['marked 8', 'marked 14']);
  }, 600_000);
});

describe('methods of the project\'s classes, inlined with this bound to the receiver', () => {
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

  it('migrates both calls and typechecks, the private field read as receiver[name]', async () => {
    const m = await bothWays(files);
    expect(m.sites('src/tools.ts').filter(s => s.handler === 'tools/call order').map(s => s.outcome)).toEqual(['rewritten', 'rewritten']);
    const tools = m.text('src/tools.ts');
    expect(tools).toContain("this.asker['prefix']");
    expect(tools).not.toMatch(/await this\.(asker\.ask|confirm)\(/);
    expect(typecheck(m)).toEqual([]);
  }, 120_000);
});

describe('a handler that only hands its call to a method: each override is migrated in place as its delegate', () => {
  // The base class registers `async args => this.run(args as Args)` and has a default run() of its own that
  // asks nothing; one subclass asks (migrated as the handler's delegate), another does not (left as it is).
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

  it('migrates the asking override in place, passes the context on from the handler, and typechecks', async () => {
    const m = await bothWays(files);
    expect(m.sites('src/ask.ts').map(s => `${s.outcome} ${s.reason}`)).toEqual([
      'rewritten rewritten into input_required phases of run() of AskTool, migrated as the delegate of the tools/call handler registered in Tool.register()',
    ]);
    const base = m.text('src/base.ts');
    expect(base).toContain('async (args, ctx) => this.run(args as Args, ctx)');
    // The default body asks nothing, but an override may not take more parameters than it.
    expect(base).toMatch(/async run\(_args: Args, _ctx: ServerContext\): Promise<CallToolResult \| InputRequiredResult>/);
    expect(m.text('src/ask.ts')).toMatch(/async run\(\{ text \}: \{ text: string \}, ctx: ServerContext\)/);
    expect(m.text('src/echo.ts')).toBe(files['src/echo.ts'].replace("'@modelcontextprotocol/sdk/types.js'", "'@modelcontextprotocol/server'"));
    expect(m.result.report.notes).toContainEqual(expect.stringMatching(/^src\/base\.ts:\d+: the tools\/call handler registered in Tool\.register\(\) passes its context on to this\.run\(\.\.\.\): run\(\) of AskTool migrated as its delegate$/));
    expect(typecheck(m)).toEqual([]);
  }, 120_000);
});

describe('a table of tool entries, dispatched through the property they share', () => {
  // ToolDef's invoke() is declared by object literals and by classes implementing it; a loop registers
  // each entry with a handler calling t.invoke(...), and a low-level tools/call handler finds the entry by
  // name and calls its invoke(). Two entries ask, three do not; one asking entry is also called by its own
  // name. In another file, an untyped array of literals is dispatched the same way. The loop's handler only
  // returns t.invoke(...), but deleteTool's invoke() is also called elsewhere: no entry is migrated as its delegate.
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

  it('marks the dispatching call with the entries that ask, and no entry that does not', async () => {
    m = await bothWays(files);
    expect(m.sites('src/basic.ts')).toEqual([]);
    expect(m.sites('src/types.ts')).toEqual([]);
    expect(m.sites('src/index.ts').map(s => `${s.line} ${s.kind} ${s.call}: ${s.reason}`)).toEqual([
      '12 request t.invoke(...): invoke() is not inlined: t.invoke(...) dispatches to the invoke() of whichever of 5 entries t is, and 2 of them ask the client (deleteTool (elicitation), SummarizeTool (sampling)), so no body can be inlined into the handler (the call does not name one), and their requests are not migrated; nor are they migrated as the handler\'s delegates: invoke() of deleteTool is also called in the tools/call delete_now handler, which would get the input_required results it returns once migrated; give that caller a function of its own, or migrate those entries by hand (each returns inputRequired, and this handler returns that result as it is)',
      '15 elicitation deleteTool.invoke(...): invoke() is not inlined: it is called as deleteTool.invoke(...), a member, not by a name of its own, so its elicitation request is not migrated; call a function by its name from the handler, or migrate by hand',
    ]);
    expect(m.sites('src/low-level.ts').map(s => `${s.line} ${s.kind} ${s.call}`)).toEqual(['7 request tool.invoke(...)']);
    expect(m.sites('src/low-level.ts')[0]!.reason).toMatch(/^invoke\(\) is not inlined: tool\.invoke\(\.\.\.\) dispatches to the invoke\(\) of whichever of 5 entries tool is, and 2 of them ask the client \(deleteTool \(elicitation\), SummarizeTool \(sampling\)\)/);
    // One implementation of an interface's method: the call still does not name the body that runs.
    expect(m.sites('src/confirmer.ts').filter(s => s.call === 'confirmer.confirm(...)').map(s => s.reason)).toEqual([
      expect.stringMatching(/^confirm\(\) is not inlined: confirmer\.confirm\(\.\.\.\) dispatches to the confirm\(\) of whatever confirmer is \(one entry of the project declares it\), and it asks the client \(ElicitingConfirmer \(elicitation\)\)/),
    ]);
    expect(m.sites('src/untyped.ts').filter(s => s.call === 'a.execute(...)').map(s => s.reason)).toEqual([
      expect.stringMatching(/^execute\(\) is not inlined: a\.execute\(\.\.\.\) dispatches to the execute\(\) of whichever of 3 entries a is, and 1 of them asks the client \(the confirm entry \(elicitation\)\)/),
    ]);
  }, 600_000);

  it("counts each request's own callers only: each dispatch once, and a call of the entry by its name", () => {
    const fate = (rel: string) => m.sites(rel).filter(s => s.handler === 'helper').map(s => /no handler call reaching it was inlined; (.*?) marked/.exec(s.reason)?.[1]);
    expect(fate('src/confirm.ts')).toEqual(['3 calls reaching it are']);
    expect(fate('src/classes.ts')).toEqual(['2 calls reaching it are']);
    expect(fate('src/untyped.ts')).toEqual(['1 call reaching it is']);
    expect(fate('src/confirmer.ts')).toEqual(['1 call reaching it is']);
    expect(m.result.report.sites.filter(s => /passed on as a value/.test(s.reason))).toEqual([]);
  });

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  });
});

describe('a table whose loop handler only returns the call through it: its entries are the delegates', () => {
  // The handler passes its context on as it is (e.run(args, extra)); one entry asks through the module's
  // server and declares no context parameter (it is given one), a class entry binds its state to this.name.
  // In another file the context travels in an object whose member the project types itself: refused.
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

  it('migrates the entries that ask in place, with the context the handler passes, and widens the interface', async () => {
    m = await bothWays(files);
    expect(m.sites('src/index.ts').map(s => `${s.kind} ${s.outcome}${s.outcome === 'marked' ? ` ${s.reason}` : ''}`)).toEqual(['elicitation rewritten', 'sampling rewritten']);
    const text = m.text('src/index.ts');
    expect(text).toMatch(/run: async \(args, ctx: ServerContext\) => \{\n\s+\/\/ mcp-migrate: input_required phases[^\n]*\n\s+type ConfirmStep = [^;]*;\n\s+const call = resumeCall<ConfirmStep>\(ctx, 'confirm', args\);/);
    expect(text).toMatch(/async run\(args: \{ text: string \}, ctx: ServerContext\) \{\n(?:\s+\/\/ mcp-migrate: input_required phases[^\n]*\n)?\s+type Step = [^;]*;\n\s+const call = resumeCall<Step>\(ctx, this\.name, args\);/);
    expect(text).toMatch(/run\(args: \{ text: string \}, extra: ServerContext\): Promise<CallToolResult \| InputRequiredResult>;/);
    expect(text).toContain("const echo: Entry = { name: 'echo', run: async args => ({ content: [{ type: 'text', text: args.text }] }) };");
    expect(text).toContain('async (args, ctx) => e.run(args, ctx)');
  }, 600_000);

  it('leaves a table whose entries are handed the context in a member typed by the project, saying why', () => {
    expect(m.sites('src/typed.ts').filter(s => s.call === 's.go(...)').map(s => s.reason)).toEqual([
      expect.stringMatching(/nor is it migrated as the handler's delegates: go\(\) of ask reads the handler's context from extra, typed \{ signal: AbortSignal \}, not as the SDK's context; type it as the handler's context \(ServerContext\)/),
    ]);
  });

  it('typechecks', () => {
    expect(typecheck(m).filter(e => !e.includes('typed.ts'))).toEqual([]);
  });
});

describe('handlers registered through a function or method of the project', () => {
  // A module function in another file and a private method hand the callback on unchanged to the
  // registration: each callback is that tool's handler, migrated as one (the method's through its delegate).
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

  it('migrates each callback as the handler of the tool it is registered as, and widens the type the wrapper declares it with', async () => {
    const m = await bothWays(files);
    expect(m.sites('src/index.ts').map(s => `${s.outcome} ${s.handler}`)).toEqual(['rewritten tools/call greet', 'rewritten confirm() of Confirmations']);
    const index = m.text('src/index.ts');
    expect(index).toContain("resumeCall<GreetStep>(ctx, 'greet', { name })");
    expect(index).toContain("resumeCall<ConfirmStep>(extra, 'confirm', a)");
    expect(index).toContain('cb: (a: any, extra: any) => Promise<CallToolResult | InputRequiredResult>');
    expect(m.text('src/reg.ts')).toContain('cb: (args: any, extra: any) => Promise<CallToolResult | InputRequiredResult>');
    expect(m.text('src/index.ts')).not.toMatch(/mcp-migrate: .*not a handler|not directly in a handler/);
  }, 120_000);
});

describe('a callback registered through a wrapper that cannot be migrated as its handler', () => {
  // Each wrapper registers the callback, but: under a name made inside it, declared with a type of the
  // project's own, also returning it, or calling it from a handler of its own. The marker says what was
  // found and what to do.
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

  it('marks each request with the registration it was found in and why it is not migrated as its handler', async () => {
    const m = await bothWays(files);
    const reasons = m.sites('src/index.ts').map(s => `${s.outcome} ${s.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^marked elicitation request in a callback passed to prefixed\(\) of index\.ts, which registers it with server\.registerTool\(\.\.\.\): it is not migrated as that registration's handler: the name prefixed\(\) registers it under \(`admin_\$\{name\}`\) is made inside prefixed\(\), where the callback cannot read it, .*; pass the name to prefixed\(\) as an argument, or migrate by hand$/),
      expect.stringMatching(/^marked elicitation request in a callback passed to aliased\(\) of index\.ts, which registers it with server\.registerTool\(\.\.\.\): it is not migrated as that registration's handler: cb is declared as Handler, which the rewrite cannot widen to let the handler return input_required; declare it as the SDK's callback type/),
      expect.stringMatching(/^marked elicitation request in a callback passed to logged\(\) of index\.ts, which registers it with server\.registerTool\(\.\.\.\): it is not migrated as that registration's handler: logged\(\) also uses it otherwise than registering it \(2 uses\)/),
      expect.stringMatching(/^marked elicitation request in a callback passed to timed\(\) of index\.ts, which registers it with server\.registerTool\(\.\.\.\): it is not migrated as that registration's handler: timed\(\) does not register it but calls it from the handler it registers, .*; have timed\(\) pass it to server\.registerTool\(\.\.\.\) unchanged, or migrate by hand$/),
    ]);
    for (const s of m.sites('src/index.ts')) expect(s.reason).not.toMatch(/passes on|not directly in a handler/);
    expect(m.text('src/index.ts')).toContain('// mcp-migrate: elicitation request in a callback passed to prefixed() of index.ts, which registers it with server.registerTool(...)');
  }, 120_000);
});

describe('a handler wrapped by a pass-through wrapper of the project before it is registered', () => {
  // withLogging() (another file) hands the registration's arguments to the callback unchanged and returns
  // its result: the callback is the tool's handler, and the wrapper's function type is widened. withUser()
  // changes the arguments, and aliased()'s type alias is named outside its signature: both stay marked, with which.
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

  it('migrates the callback of a pass-through as the handler, and marks the others with why not', async () => {
    const m = await bothWays(files);
    const reasons = m.sites('src/index.ts').map(s => `${s.outcome} ${s.reason}`);
    expect(reasons).toEqual([
      'rewritten rewritten into input_required phases of tools/call greet',
      expect.stringMatching(/^marked elicitation request in a handler wrapped by withUser\(\) before registerTool\('wipe'\) registers it: it is not migrated as its handler: withUser\(\) does not hand the callback the arguments it receives as they came/),
      expect.stringMatching(/^marked elicitation request in a handler wrapped by aliased\(\) before registerTool\('reset'\) registers it: it is not migrated as its handler: its parameter cb is declared as Handler<A, E>, a type alias also used outside the wrapper's signature \(index\.ts:8\)/),
    ]);
    expect(m.text('src/index.ts')).toContain("resumeCall<GreetStep>(ctx, 'greet', { name })");
    expect(m.text('src/wrap.ts')).toContain('cb: (args: A, extra: E) => Promise<CallToolResult | InputRequiredResult>');
    expect(m.result.report.notes).toContainEqual(expect.stringMatching(/^src\/index\.ts:\d+: tools\/call greet: withLogging\(\) now runs once per round/));
    expect(typecheck(m)).toEqual([]);
  }, 120_000);
});

describe('awaited helper calls inside expressions (issue 16)', () => {
  // The shapes real servers are written in: the helper's call is awaited inside a condition, an object
  // literal or a concatenation. Each is hoisted into a statement of its own (src/analysis/hoist.ts),
  // evaluation order kept, then inlined and migrated like one written so.
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

  it('hoists the calls, inlines and migrates them; keeps the one it cannot hoist marked', async () => {
    m = await bothWays(files);
    expect(m.sites('src/server.ts').map(s => `${s.handler} ${s.outcome} ${s.shape} ${s.call} ${s.line}:${s.column}`)).toEqual([
      // Where the user wrote each call.
      'tools/call delete_note rewritten helper confirm(...) 10:15',
      'tools/call summarize_note rewritten helper summarize(...) 16:50',
      'tools/call rename_note rewritten helper ask(...) 20:38',
      'tools/call purge_notes rewritten helper confirm(...) 25:30',
      'tools/call append_note marked helper confirm(...) 31:18',
      'tools/call label_note rewritten helper ask(...) 36:50',
      'tools/call move_note marked helper confirm(...) 42:20',
      'tools/call copy_note marked helper confirm(...) 48:15',
      'tools/call stamp_note marked helper confirm(...) 54:15',
    ]);
    const server = m.text('src/server.ts');
    // The hoisted constant is the inlined result itself, read where the call was awaited.
    expect(server).toMatch(/const confirmResult: boolean = answer\.action === 'accept' && answer\.content\?\.ok === true;\n\s*if \(!confirmResult\) return \{ content: \[\{ type: 'text', text: 'kept' \}\] \};/);
    expect(server).toMatch(/const summarizeResult: string = [\s\S]*return \{ content: \[\{ type: 'text', text: summarizeResult \}\] \};/);
    expect(server).toMatch(/const askResult: string = [^\n]*\n\s*const msg = 'renamed to ' \+ askResult;/);
    // On the right of &&: asked only when force is set, as before.
    expect(server).toMatch(/let go!: boolean;\n\s*if \(force\) \{\n\s*return call\.suspend[\s\S]*\} else \{\n\s*go = force;\n\s*\}/);
    expect(server).toMatch(/\n\s*go = confirmResult2;\n/);
    // A loop condition is evaluated again each time round: not hoisted, marked, left as written.
    expect(server).toMatch(/\/\/ mcp-migrate: confirm\(\) \(ask\.ts\) is not inlined: the awaited call is not a statement of its own \(.*\), nor hoisted into one where it is \(a loop condition, .*\), so its elicitation request is not migrated\n\s*while \(!\(await confirm\(mcp\.server, `Append to \$\{id\}\?`\)\)\) notes\.set\(id, ''\);/);
    // What the expression read before the call still is read before it, once.
    expect(server).toMatch(/const mcpValue = notes\.size \+ ' notes, ';\n\s*return call\.suspend[\s\S]*const label = mcpValue \+ askResult;/);
    // An else-if condition is not hoisted either.
    // (Its marker above the line, once, not after the else.)
    expect(server).toMatch(/\n {2}\/\/ mcp-migrate: confirm\(\) \(ask\.ts\) is not inlined: .*\n {2}else if \(!\(await confirm\(mcp\.server, `Move/);
    expect(server.match(/mcp-migrate: confirm\(\)/g)).toHaveLength(4);
    // Inlined into a handler that then cannot be migrated (a Date live across the question): left as written, marked with why.
    expect(server).toMatch(/\/\/ mcp-migrate: confirm\(\) \(ask\.ts\) is not inlined: inlined, tools\/call stamp_note could not be migrated \(local "when" \(a Date\).*\n\s*if \(!\(await confirm\(mcp\.server, `Stamp/);
    // Hoisted, then refused for another reason: left as written, marked with that reason.
    expect(server).toMatch(/\/\/ mcp-migrate: confirm\(\) \(ask\.ts\) is not inlined: an argument is spread, so its elicitation request is not migrated\n\s*if \(!\(await confirm\(\.\.\.args\)\)\) return/);
    expect(server).not.toMatch(/mcpAwait|confirmResult3/);
    // The helpers stay in their module (upgraded only) for the call left there and callers outside.
    for (const name of ['confirm', 'ask', 'summarize']) expect(m.text('src/ask.ts')).toContain(`export async function ${name}(`);
  }, 600_000);

  it('typechecks', () => {
    expect(typecheck(m)).toEqual([]);
  }, 600_000);
});

describe("the official codemod's finding that a call forwards the context to a helper", () => {
  // The codemod writes `/* @mcp-codemod-error The context object is forwarded to confirm(…) ... */` above the
  // call; once the call is inlined (and the helper removed), the finding is no longer true, and left it
  // would keep --check red after a complete migration. A finding the same comment joins to it stays.
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

  it('goes with the inlined call; the one above a call left as it is stays', async () => {
    const m = await bothWays(files);
    expect(m.sites('src/server.ts')).toMatchObject([{ outcome: 'rewritten', shape: 'helper' }]);
    const server = m.text('src/server.ts');
    expect(server).not.toMatch(/forwarded to confirm/);
    expect(server).toMatch(/\/\* @mcp-codemod-error The context object is forwarded to audit\(…\)/);
    expect(server).not.toMatch(/^\s*\n\s*let confirmResult/m);
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

  it('is not taken for the SDK registration: the request is marked, not migrated with the server as its context', async () => {
    const m = await bothWays(files);
    expect(m.sites('src/server.ts')).toMatchObject([{ outcome: 'marked', kind: 'elicitation' }]);
    expect(m.text('src/server.ts')).not.toMatch(/resumeCall/);
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
    const m = await bothWays({ 'package.json': PACKAGE, 'src/server.ts': `${server}\nawait createServer().connect(new StdioServerTransport());\n` });
    expect(m.text('src/server.ts')).toMatch(/\nconst server2 = createServer\(\);\n\s*serveStdio\(\(\) => server2\);\s*$/);
    expect(m.sites('src/server.ts').map(s => s.outcome)).toEqual(['rewritten']);
  }, 600_000);

  it('in a braceless if body, is marked above the if', async () => {
    const m = await bothWays({ 'package.json': PACKAGE, 'src/server.ts': `${server}\nif (process.env.STDIO !== '0') await createServer().connect(new StdioServerTransport());\n` });
    expect(m.sites('src/server.ts').map(s => `${s.outcome} ${s.kind}`)).toEqual(['rewritten elicitation', 'marked entry']);
    expect(m.text('src/server.ts')).toMatch(/\n\/\/ mcp-migrate: createServer\(\)\.connect\(new StdioServerTransport\(\)\) stays, serving 2025-era clients only: the server is made in the statement that connects it \(createServer\(\)\).*serveStdio\(\(\) => server\) from @modelcontextprotocol\/server\/stdio.*\nif \(process\.env\.STDIO !== '0'\)\s+await createServer\(\)\.connect/);
  }, 600_000);
});

describe("a helper called through a module namespace's default", () => {
  // `ask.default(...)`: no file writes the name `default`, only `export default`; a call through a property
  // that no project file names is taken for no helper of the project without asking the checker
  // (src/analysis/projectNames.ts), so the default export must count as a name, or the call goes unmarked.
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

  it('marks the call in the handler, and reports it', async () => {
    const m = await bothWays(files);
    expect(m.sites('src/server.ts').map(s => s.outcome)).toEqual(['marked']);
    expect(m.text('src/server.ts')).toMatch(/\/\/ mcp-migrate: default\(\) is not inlined: it is called as ask\.default\(\.\.\.\)[^\n]*\n\s*if \(!\(await ask\.default\(server/);
  }, 600_000);
});
