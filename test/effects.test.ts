/**
 * What src/effects decides for work done before a question, on small projects migrated in a fresh
 * directory (the packages installed): journaled (done once, its result replayed), or done again on each
 * round as it is written (pure code, reads of the file system, module loading, timers, log lines).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { journaledWork } from './support/journaledWork.js';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';

const root = path.resolve(import.meta.dirname, '..');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const PACKAGE = JSON.stringify({ name: 'effects', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^4.2.0' } });

interface Migrated {
  result: MigrateResult;
  text(rel: string): string;
}

async function migrate(files: Record<string, string>): Promise<Migrated> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-effects-')));
  made.push(dir);
  const all = { 'package.json': PACKAGE, ...files };
  for (const [rel, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const sources = Object.entries(files).map(([rel, text]) => ({ path: path.join(dir, rel), text }));
  const result = await migrateSources(sources, { cwd: dir });
  const after = new Map(result.changes.map(c => [c.path, c.after]));
  return { result, text: rel => after.get(path.join(dir, rel)) ?? all[rel as keyof typeof all]! };
}

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'effects', version: '1.0.0' });
const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };
`;

/** A tool whose handler runs `before` and then asks twice (so that what comes before the first question runs again). */
const tool = (name: string, before: string) => `
server.registerTool('${name}', { inputSchema: { p: z.string() } }, async ({ p }) => {
${before}
  const a = await server.server.elicitInput({ message: 'First?', requestedSchema: okSchema });
  const b = await server.server.elicitInput({ message: 'Second?', requestedSchema: okSchema });
  return { content: [{ type: 'text', text: \`\${a.action} \${b.action}\` }] };
});
`;

describe('reads of the file system', () => {
  it("runs node:fs's reads and the methods of the Stats they return again on each round", async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}import { existsSync, statSync, readFileSync, promises as fsp } from 'node:fs';
import { stat } from 'node:fs/promises';
${tool(
  'fs',
  `  const isFile = existsSync(p) && statSync(p).isFile();
  const dir = (await stat(p)).isDirectory();
  const size = statSync(p).size;
  const text = isFile ? readFileSync(p, 'utf8') : '';
  const again = (await fsp.stat(p)).isSymbolicLink();
  void [isFile, dir, size, text, again];`,
)}`,
    });
    expect(journaledWork(m.text('src/server.ts'))).toEqual([]);
  }, 120_000);
});

describe('module loading', () => {
  it('loads a module with import() again on each round: it is loaded once per process', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}${tool(
        'load',
        `  const { shout } = await import('./shout.js');
  const mod = await import('./shout.js');
  void [shout(p), mod.shout(p)];`,
      )}`,
      'src/shout.ts': `export function shout(s: string): string {\n  return s.toUpperCase();\n}\n`,
    });
    expect(journaledWork(m.text('src/server.ts'))).toEqual([]);
  }, 120_000);

  it('loads a module with require() again on each round', async () => {
    const m = await migrate({
      'src/server.cjs': `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const server = new McpServer({ name: 'effects', version: '1.0.0' });
server.registerTool('load', { description: 'Loads, then asks' }, async () => {
  const { shout } = require('./shout.cjs');
  void shout;
  const a = await server.server.elicitInput({ message: 'First?', requestedSchema: { type: 'object', properties: {} } });
  const b = await server.server.elicitInput({ message: 'Second?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: \`\${a.action} \${b.action}\` }] };
});
module.exports = { server };
`,
      'src/shout.cjs': `exports.shout = s => s.toUpperCase();\n`,
    });
    expect(m.text('src/server.cjs')).toContain("const { shout } = require('./shout.cjs');");
    expect(journaledWork(m.text('src/server.cjs'))).toEqual([]);
  }, 120_000);
});

describe('timers', () => {
  const helper = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
let fired = 0;
let kept = 0;
export async function askLater(server: McpServer): Promise<string> {
  setTimeout(() => { fired++; }, 0);
  const handle = setTimeout(() => { kept++; }, 0);
  await new Promise(resolve => setTimeout(resolve, 1));
  const a = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
  clearTimeout(handle);
  return \`\${a.action} \${fired} \${kept}\`;
}
`;
  it('sets a timer once where its callback changes what outlives the round; again on each round, noted, where its handle is kept; never journals inside a callback, which runs after the round', async () => {
    const m = await migrate({
      'src/later.ts': helper,
      'src/server.ts': `${HEAD}import { askLater } from './later.js';
server.registerTool('later', { description: 'Asks later' }, async () => {
  const said = await askLater(server);
  return { content: [{ type: 'text', text: said }] };
});
`,
    });
    expect(journaledWork(m.text('src/later.ts'))).toEqual(['setTimeout(() => { fired++; }, 0)']);
    const notes = m.result.report.notes.filter(n => /sets a timer/.test(n));
    // The sleep's timer only settles its promise: nothing to say of it.
    expect(notes).toEqual([
      expect.stringMatching(
        /^src\/later\.ts:6: tools\/call later sets a timer \(setTimeout\(\(\) => \{ kept\+\+; \}, 0\)\) again on each round/,
      ),
    ]);
  }, 120_000);
});

describe('reads of what a called function changes before a later question', () => {
  it('journals the read of a module variable another module changes through the helper the handler calls', async () => {
    const m = await migrate({
      'src/state.ts': `export let current = 'start';\nexport function advance(next: string): void {\n  current = next;\n}\n`,
      'src/server.ts': `${HEAD}import { advance, current } from './state.js';

async function askAbout(topic: string): Promise<string> {
  advance('changed');
  const answer = await server.server.elicitInput({ message: \`About \${topic}?\`, requestedSchema: okSchema });
  return answer.action;
}

const seen: string[] = [];
function remember(what: string): void {
  seen.push(what);
}
${tool(
  'direct',
  `  const before = current;
  advance(p);`,
)}
server.registerTool('topic', { description: 'Asks' }, async () => {
  const said = await askAbout(current);
  return { content: [{ type: 'text', text: said }] };
});
${tool(
  'seen',
  `  const message = \`Seen: \${seen}\`;
  remember(p);
  void message;`,
)}
server.registerTool('handed', { description: 'Asks' }, async () => {
  const list = seen;
  const n = list.length;
  remember('x');
  const answer = await server.server.elicitInput({ message: String(n), requestedSchema: okSchema });
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
    });
    const server = m.text('src/server.ts');
    expect(server).toContain('const before = journaled(() => current);');
    expect(server).toContain('askAbout(journaled(() => current))');
    expect(server).toContain('const message = `Seen: ${journaled(() => seen)}`;');
    // The array itself, handed on, is not copied by a journal: only its contents read as a value are.
    expect(server).toContain('const list = seen;');
    expect(server).toContain('const n = journaled(() => list.length);');
    expect(journaledWork(server).sort()).toEqual(['current', 'current', 'list.length', 'remember(p)', "remember('x')", 'seen'].sort());
  }, 120_000);

  it("journals a call of the project's functions that reads what the handler changes before a later question: through an argument, its own object or a module", async () => {
    const m = await migrate({
      'src/inventory.ts': `export class Inventory {
  private stock = new Map<string, number>([['x', 3]]);

  stockOf(item: string): number {
    return this.stock.get(item) ?? 0;
  }

  reserve(item: string): void {
    this.stock.set(item, 1);
  }
}

let level = 'low';
export const levelOf = (): string => level;
export function raise(): void {
  level = 'high';
}
`,
      'src/server.ts': `${HEAD}import { Inventory, levelOf, raise } from './inventory.js';
const seen = new Map<string, number>();
const countOf = (counts: Map<string, number>, key: string) => counts.get(key) ?? 0;
const named = (key: string) => key.toUpperCase();
const inventory = new Inventory();
${tool(
  'reserve',
  `  const before = countOf(seen, p);
  const nested = countOf(seen, String(seen.get(p)));
  const name = named(p);
  seen.set(p, 5);
  const stock = inventory.stockOf(p);
  inventory.reserve(p);
  const level = levelOf();
  raise();
  void [before, nested, name, stock, level];`,
)}`,
    });
    expect(journaledWork(m.text('src/server.ts'))).toEqual([
      'countOf(seen, p)',
      'countOf(seen, String(seen.get(p)))',
      'inventory.stockOf(p)',
      'levelOf()',
    ]);
    // (the sets are not: done again, each leaves what the first left)
  }, 120_000);

  it('leaves the calls on an object the handler makes, whichever of its methods read and change it', async () => {
    const m = await migrate({
      'src/ledger.ts': `export class Transaction {
  private readonly pending: [string, number][] = [];
  private done = false;

  move(account: string, delta: number): void {
    if (this.done) throw new Error('transaction finished');
    this.pending.push([account, delta]);
  }
}
`,
      'src/server.ts': `${HEAD}import { Transaction } from './ledger.js';
${tool(
  'transfer',
  `  const tx = new Transaction();
  tx.move(p, -1);
  tx.move(p, 1);`,
)}`,
    });
    // (keyed by its class, the first move's read of the transaction met the second's change: journaled, the first move
    // was left out of the transaction on the next round)
    expect(journaledWork(m.text('src/server.ts'))).toEqual([]);
  }, 120_000);

  it('reads again, with a note, what cannot travel in requestState', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}
let format: (s: string) => string = s => s;
function useUpper(): void {
  format = s => s.toUpperCase();
}
${tool(
  'format',
  `  const f = format;
  useUpper();
  void [f, p];`,
)}`,
    });
    const server = m.text('src/server.ts');
    expect(server).toContain('  const f = format;\n');
    expect(journaledWork(server)).toEqual([]);
    expect(m.result.report.notes).toContainEqual(
      expect.stringMatching(
        /tools\/call format reads format before it \(or a function it calls\) changes it, .*a function, cannot travel in requestState/,
      ),
    );
  }, 120_000);
});

describe("a wrapper's call of the callback it is handed", () => {
  it('takes the call for a question where a callback handed to the wrapper asks', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Cb = (args: { p: string }, extra: unknown) => Promise<CallToolResult>;
function timed(name: string, cb: Cb) {
  server.registerTool(name, { inputSchema: { p: z.string() } }, async (args, extra) => {
    const started = Date.now();
    try {
      return await cb(args, extra);
    } finally {
      console.error(name, Date.now() - started);
    }
  });
}
function outer(name: string, cb: Cb) {
  timed(name, cb);
}

timed('purge', async ({ p }) => {
  const answer = await server.server.elicitInput({ message: \`Purge \${p}?\`, requestedSchema: okSchema });
  return { content: [{ type: 'text', text: answer.action }] };
});
outer('wipe', async ({ p }) => {
  const answer = await server.server.elicitInput({ message: \`Wipe \${p}?\`, requestedSchema: okSchema });
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
    });
    const server = m.text('src/server.ts');
    expect(server).toContain('const started = journaled(() => Date.now());');
    expect(server).toMatch(/\} finally \{\n\s+rethrowIfSuspended\(\);\n\s+console\.error\(name, Date\.now\(\) - started\);/);
    expect(journaledWork(server)).toEqual(['Date.now()']);
  }, 120_000);
});

describe('questions in a loop', () => {
  it("says where a loop may ask more often than a 2026-07-28 client's round limit, not where it is written out short", async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}
server.registerTool('each', { inputSchema: { items: z.array(z.string()) } }, async ({ items }) => {
  const kept: string[] = [];
  for (const item of items) {
    const answer = await server.server.elicitInput({ message: \`Keep \${item}?\`, requestedSchema: okSchema });
    if (answer.action === 'accept') kept.push(item);
  }
  return { content: [{ type: 'text', text: kept.join(', ') }] };
});

server.registerTool('three', {}, async () => {
  let yes = 0;
  for (let i = 0; i < 3; i++) {
    const answer = await server.server.elicitInput({ message: \`Again (\${i})?\`, requestedSchema: okSchema });
    if (answer.action === 'accept') yes++;
  }
  for (const color of ['red', 'green']) {
    const answer = await server.server.elicitInput({ message: \`Like \${color}?\`, requestedSchema: okSchema });
    if (answer.action === 'accept') yes++;
  }
  return { content: [{ type: 'text', text: String(yes) }] };
});
`,
    });
    const notes = m.result.report.notes.filter(n => /asks in a loop/.test(n));
    expect(notes).toEqual([
      expect.stringMatching(
        /^src\/server\.ts:9: tools\/call each asks in a loop \(for \(const item of items\)\): each iteration that asks is a round .*round limit \(10 in the SDK's client/,
      ),
    ]);
  }, 120_000);
});

describe('a lock held around a callback that asks', () => {
  it('lets the lock go on every round: a guarded finally would hold it for good', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private locked = false;
  async acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>(resolve => (release = resolve));
    await previous;
    return release;
  }
  async runExclusive<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    this.locked = true;
    try {
      return await work();
    } finally {
      this.locked = false;
      release();
    }
  }
}
const lock = new Mutex();

server.registerTool('rename', { inputSchema: { name: z.string() } }, async ({ name }) => {
  const answer = await lock.runExclusive(() => server.server.elicitInput({ message: \`Rename to \${name}?\`, requestedSchema: okSchema }));
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
    });
    expect(m.text('src/server.ts')).toMatch(/\} finally \{\n\s+this\.locked = false;\n\s+release\(\);/);
  }, 120_000);
});

describe('wrappers around wrappers', () => {
  it("guards each outer wrapper's finally, whichever handler the inner wrapper wraps first", async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}
type Cb = (args: { p: string }) => Promise<{ content: { type: 'text'; text: string }[] }>;
let timedCalls = 0;
let loggedCalls = 0;
function withErrors(cb: Cb): Cb {
  return async args => {
    try {
      return await cb(args);
    } catch (error) {
      return { content: [{ type: 'text', text: String(error) }] };
    }
  };
}
function timed(cb: Cb): Cb {
  return async args => {
    try {
      return await cb(args);
    } finally {
      timedCalls++;
    }
  };
}
function logged(cb: Cb): Cb {
  return async args => {
    try {
      return await cb(args);
    } finally {
      loggedCalls++;
    }
  };
}

server.registerTool('one', { inputSchema: { p: z.string() } }, timed(withErrors(async ({ p }) => {
  const answer = await server.server.elicitInput({ message: \`One \${p}?\`, requestedSchema: okSchema });
  return { content: [{ type: 'text', text: answer.action }] };
})));
server.registerTool('two', { inputSchema: { p: z.string() } }, logged(withErrors(async ({ p }) => {
  const answer = await server.server.elicitInput({ message: \`Two \${p}?\`, requestedSchema: okSchema });
  return { content: [{ type: 'text', text: answer.action }] };
})));
`,
    });
    const server = m.text('src/server.ts');
    expect(server).toMatch(/\} finally \{\n\s+rethrowIfSuspended\(\);\n\s+timedCalls\+\+;/);
    expect(server).toMatch(/\} finally \{\n\s+rethrowIfSuspended\(\);\n\s+loggedCalls\+\+;/);
    expect(server).toMatch(/\} catch \(error\) \{\n\s+rethrowIfSuspended\(\);/);
  }, 120_000);
});

describe('iterators', () => {
  it("journals advancing an iterator that outlives the round (a module's id sequence), not one the handler makes", async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}function* sequence(): Generator<number> {
  let n = 0;
  while (true) yield ++n;
}
const ids = sequence();
const names = new Map([['a', 1]]).keys();
${tool(
  'ids',
  `  const id = ids.next().value;
  const name = names.next();
  const own = sequence();
  const first = own.next().value;
  const letters = ['x', 'y'].values();
  const letter = letters.next().value;
  void [id, name, first, letter];`,
)}`,
    });
    expect(journaledWork(m.text('src/server.ts'))).toEqual(['ids.next()', 'names.next()']);
  }, 120_000);
});

describe('counters written as assignments', () => {
  it('journals an assignment whose value (or index) reads what it assigns, as it journals `+=`; not one that only sets, nor a lazy set (as `??=`)', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}const stats = { calls: 0, last: '' };
const seen: Record<string, number> = {};
let history: string[] = [];
const log: string[] = [];
${tool(
  'count',
  `  stats.calls = stats.calls + 1;
  seen[p] = (seen[p] || 0) + 1;
  history = [...history, p];
  log[log.length] = p;
  seen[p] = 1;
  stats.last = p;
  stats.last = stats.last ?? p;
  stats.last = stats.last || p;
  stats.last = stats.last ? stats.last : p;
  let local = 0;
  local = local + 1;
  void local;`,
)}`,
    });
    // (A read of stats.last before the handler changes it is journaled as any such read is: not an assignment.)
    expect(journaledWork(m.text('src/server.ts')).filter(work => / = /.test(work))).toEqual([
      'stats.calls = stats.calls + 1',
      'seen[p] = (seen[p] || 0) + 1',
      'history = [...history, p]',
      'log[log.length] = p',
    ]);
  }, 120_000);
});

describe('counters written through a local', () => {
  it("journals a call of a method that assigns a field a value made from the field, and the handler's own such assignment", async () => {
    const m = await migrate({
      'src/stats.ts': `export class StatsStore {
  private stats = { runs: 0, last: '' };

  bump(name: string): { runs: number; last: string } {
    const next = { ...this.stats, runs: this.stats.runs + 1, last: name };
    this.stats = next;
    return next;
  }

  rename(name: string): void {
    const next = { runs: 0, last: name };
    this.stats = next;
  }
}
`,
      'src/server.ts': `${HEAD}import { StatsStore } from './stats.js';
const store = new StatsStore();
let settings = { region: 'eu', deploys: 0 };
const regionOf = (s: { region: string }) => ({ region: s.region, deploys: 0 });
${tool(
  'deploy',
  `  store.bump(p);
  store.rename(p);
  const next = { ...settings, deploys: settings.deploys + 1 };
  settings = next;
  const region = regionOf(settings);
  settings = { ...region };`,
)}`,
    });
    // (settings' reads before the handler changes it are journaled too, for the values the handler makes of them)
    expect(journaledWork(m.text('src/server.ts'))).toEqual([
      'store.bump(p)',
      'settings',
      'settings.deploys',
      'settings = next',
      'regionOf(settings)',
      'settings = { ...region }',
    ]);
  }, 120_000);
});

describe('a value set from an answer', () => {
  it('is set again on each round, not counted: the question asked with what it sets gets the same answer', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}const quota = { limit: 10 };
const limitSchema = { type: 'object' as const, properties: { limit: { type: 'integer' as const } }, required: ['limit'] };
server.registerTool('raise', { inputSchema: { p: z.string() } }, async ({ p }) => {
  const answer = await server.server.elicitInput({ message: \`New limit (now \${quota.limit})?\`, requestedSchema: limitSchema });
  const limit = Number(answer.content?.limit);
  quota.limit = limit;
  const sure = await server.server.elicitInput({ message: \`Sure about \${limit} for \${p}?\`, requestedSchema: okSchema });
  return { content: [{ type: 'text', text: \`\${sure.action} \${quota.limit}\` }] };
});
`,
    });
    // (the read of quota.limit the first question is made of is journaled: the handler changes it before the second)
    expect(journaledWork(m.text('src/server.ts'))).toEqual(['quota.limit']);
  }, 120_000);
});

describe('counters kept in a map', () => {
  it("journals a call that sets a map's entry from the entry, or an object from itself, in a helper or in the handler; not one that sets a given value", async () => {
    const m = await migrate({
      'src/hits.ts': `const counts = new Map<string, number>();
const cache = new Map<string, string>();
const totals = { runs: 0 };

export function hit(key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

export function total(): void {
  Object.assign(totals, { runs: totals.runs + 1 });
}

export function remember(key: string, value: string): void {
  cache.set(key, value);
}
`,
      'src/server.ts': `${HEAD}import { hit, remember, total } from './hits.js';
const seen = new Map<string, number>();
const countOf = (counts: Map<string, number>, key: string) => counts.get(key) ?? 0;
${tool(
  'count',
  `  hit(p);
  total();
  remember(p, p);
  seen.set(p, (seen.get(p) ?? 0) + 1);
  seen.set(p, countOf(seen, p) + 1);
  seen.set(p, 1);`,
)}`,
    });
    expect(journaledWork(m.text('src/server.ts'))).toEqual([
      'hit(p)',
      'total()',
      'seen.set(p, (seen.get(p) ?? 0) + 1)',
      'seen.set(p, countOf(seen, p) + 1)',
    ]);
  }, 120_000);
});

describe('work done by a destructuring or a for...of', () => {
  it('marks a getter run by a destructuring, and a module iterator advanced by a for...of: replay cannot journal either', async () => {
    const m = await migrate({
      'src/tickets.ts': `let issued = 0;
export class Book {
  get next(): number {
    return ++issued;
  }
  get label(): string {
    return 'book';
  }
}
`,
      'src/server.ts': `${HEAD}import { Book } from './tickets.js';
function* sequence(): Generator<number> {
  let n = 0;
  while (true) yield ++n;
}
const ids = sequence();
const book = new Book();
const names = ['a', 'b'];
${tool(
  'destructure',
  `  const { next } = book;
  const { label } = book;
  for (const id of ids) {
    if (id > 2) break;
  }
  for (const name of names) void name;
  for (const id of sequence()) {
    if (id > 2) break;
  }
  void [next, label];`,
)}`,
    });
    const sites = m.result.report.sites.map(s => `${s.line} ${s.outcome} ${s.causeId ?? ''}`.trim());
    expect(sites).toEqual([
      '16 marked effect-outside-an-expression',
      '18 marked effect-outside-an-expression',
      '26 rewritten',
      '27 rewritten',
    ]);
    const text = m.text('src/server.ts');
    expect(text).toMatch(
      /\/\/ mcp-migrate: tools\/call destructure runs book's getter next, which does something outside the round, in const \{ next \} = book: .*read it in an expression of its own \(const next = book\.next\).*\n {2}const \{ next \} = book;/,
    );
    expect(text).toMatch(
      /\/\/ mcp-migrate: tools\/call destructure advances ids, an iterator that outlives the round, in a for\.\.\.of: .*ids\.next\(\).*\n {2}for \(const id of ids\) \{/,
    );
    expect(journaledWork(text)).toEqual([]);
  }, 120_000);
});

describe("a class's static members", () => {
  it("marks a construction whose constructor counts in a static field: the class's, not the new instance's", async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}class Order {
  static count = 0;
  readonly number: number;
  constructor(readonly item: string) {
    this.number = ++Order.count;
  }
}
class Line {
  total = 0;
  constructor(readonly item: string) {
    this.total += 1;
  }
}
${tool('order', '  const order = new Order(p);\n  const line = new Line(p);\n  void [order.number, line.total];')}`,
    });
    const sites = m.result.report.sites.map(s => `${s.line} ${s.outcome} ${s.causeId ?? ''}`.trim());
    expect(sites).toEqual(['21 marked construction-with-effect', '24 rewritten', '25 rewritten']);
    expect(m.result.report.notes.filter(n => n.includes('new Line'))).toEqual([]);
  }, 120_000);
});

describe("iterators taken whole, and parameters' defaults", () => {
  it("journals a spread of a module iterator and a library call handed it, marks an array pattern's; journals a parameter's default", async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}import { randomUUID } from 'node:crypto';
function* sequence(): Generator<number> {
  let n = 0;
  while (n < 10) yield ++n;
}
const ids = sequence();
const names = ['a', 'b'];
server.registerTool('take', { inputSchema: { p: z.string() } }, async ({ p }, _extra, stamp: string = randomUUID()) => {
  const spread = [...ids];
  const copied = Array.from(ids);
  const seen = new Set(ids);
  const [first] = ids;
  const letters = [...names];
  const own = Array.from(sequence());
  const a = await server.server.elicitInput({ message: \`\${p}?\`, requestedSchema: okSchema });
  const b = await server.server.elicitInput({ message: 'Second?', requestedSchema: okSchema });
  return { content: [{ type: 'text', text: \`\${a.action} \${b.action} \${stamp} \${spread} \${copied} \${seen.size} \${first} \${letters} \${own}\` }] };
});
`,
    });
    const text = m.text('src/server.ts');
    expect(journaledWork(text)).toEqual(['randomUUID()', '[...ids]', 'Array.from(ids)', 'new Set(ids)']);
    const sites = m.result.report.sites.map(s => `${s.line} ${s.outcome} ${s.causeId ?? ''}`.trim());
    expect(sites).toEqual(['17 marked effect-outside-an-expression', '20 rewritten', '21 rewritten']);
    expect(text).toMatch(
      /\/\/ mcp-migrate: tools\/call take advances ids, an iterator that outlives the round, in const \[first\] = ids: /,
    );
  }, 120_000);
});

describe('work whose result is not used', () => {
  it('keeps nothing of a result that is more than a primitive, and awaits inside the work what is awaited where it stands, typed or not', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}import { EventEmitter } from 'node:events';
declare const db: any;
const events = new EventEmitter();
let calls = 0;
${tool(
  'discard',
  `  await db.insert(p);
  events.on('done', () => undefined);
  void fetch('https://example.com/' + p);
  calls++;`,
)}`,
    });
    const text = m.text('src/server.ts');
    expect(text).toContain('  await journaled(async () => {\n    await db.insert(p);\n  });\n');
    expect(text).toContain("  journaled(() => {\n    events.on('done', () => undefined);\n  });\n");
    expect(text).toContain("  void journaled(async () => {\n    await fetch('https://example.com/' + p);\n  });\n");
    expect(text).toContain('  journaled(() => calls++);\n');
  }, 120_000);
});

describe('functions of the project run by another call', () => {
  it('journals a call through .call() or .apply(), and a call handed an effectful function by name (with the Promise.all it feeds); not one handed a pure one', async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}let counter = 0;
const log: string[] = [];
function bump(by: number): number {
  counter += by;
  return counter;
}
const record = (line: string) => log.push(line);
const shout = (line: string) => line.toUpperCase();
async function save(line: string): Promise<number> {
  return log.push(line);
}
${tool(
  'run',
  `  bump.call(null, 1);
  bump.apply(null, [2]);
  [p].forEach(record);
  const loud = [p].map(shout);
  setTimeout(record, 10, p);
  const saved = await Promise.all([p].map(save));
  void [loud, saved];`,
)}`,
    });
    // (the promises save() makes cannot travel in requestState: what Promise.all settles to can)
    // (the timer is set once, as any timer whose callback does something outside the round and whose handle is not kept)
    expect(journaledWork(m.text('src/server.ts'))).toEqual([
      'bump.call(null, 1)',
      'bump.apply(null, [2])',
      '[p].forEach(record)',
      'setTimeout(record, 10, p)',
      'Promise.all([p].map(save))',
    ]);
    expect(m.result.report.sites.map(s => s.outcome)).toEqual(['rewritten', 'rewritten']);
  }, 120_000);
});

describe("the standard library's functions run through .call() or .apply()", () => {
  it('journals one that changes what outlives the round, whose first argument it is called on; not one that only reads', async () => {
    const m = await migrate({
      'src/audit.ts': `export const auditLog: string[] = [];

export function record(entries: string[]): void {
  Array.prototype.push.apply(auditLog, entries);
}
`,
      'src/server.ts': `${HEAD}import { record } from './audit.js';
const seen: string[] = [];
${tool(
  'run',
  `  const titles = [p, p];
  Array.prototype.push.apply(seen, titles);
  Array.prototype.push.call(titles, p);
  record(titles);
  const joined = Array.prototype.join.call(titles, ',');
  void joined;`,
)}`,
    });
    // (titles is the handler's own: pushing onto it again on the next round changes nothing that outlives the round)
    expect(journaledWork(m.text('src/server.ts'))).toEqual(['Array.prototype.push.apply(seen, titles)', 'record(titles)']);
    expect(m.result.report.sites.map(s => s.outcome)).toEqual(['rewritten', 'rewritten']);
  }, 120_000);
});

describe('work whose result cannot travel', () => {
  it("marks it, naming the result's type with its article", async () => {
    const m = await migrate({
      'src/server.ts': `${HEAD}class IssueApi {
  private calls = 0;
  async *pages(project: string): AsyncGenerator<string[]> {
    this.calls++;
    yield [project];
  }
}
const api = new IssueApi();
${tool(
  'run',
  `  const pages = api.pages(p);
  void pages;`,
)}`,
    });
    expect(m.text('src/server.ts')).toContain(
      '// mcp-migrate: tools/call run journals api.pages(p) (done once), but its result, an AsyncGenerator (an object with methods), cannot travel',
    );
  }, 120_000);
});

describe('a block printed in a tab-indented file', () => {
  it('is indented with tabs, as the file is', async () => {
    const m = await migrate({
      'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EventEmitter } from 'node:events';

const server = new McpServer({ name: 'tabs', version: '1.0.0' });
const events = new EventEmitter();

/**
 * Asks twice.
 */
server.registerTool('tabs', {}, async () => {
\tif (events.listenerCount('done') < 10) {
\t\tevents.on('done', () => undefined);
\t}
\tconst a = await server.server.elicitInput({ message: 'First?', requestedSchema: { type: 'object', properties: {} } });
\tconst b = await server.server.elicitInput({ message: 'Second?', requestedSchema: { type: 'object', properties: {} } });
\treturn { content: [{ type: 'text', text: a.action + b.action }] };
});
`,
    });
    const text = m.text('src/server.ts');
    expect(text).toContain("\t\tjournaled(() => {\n\t\t\tevents.on('done', () => undefined);\n\t\t});\n");
    expect(text).toContain('/**\n * Asks twice.\n */\n');
  }, 120_000);
});
