/**
 * The generated documentation: a page per fixture pair (`__testfixtures__/<name>.input.*` beside
 * `<name>.output.*`, with the units that act on it), their index, the units page and the causes table. `npm run docs` writes them; test/docs.test.ts
 * fails when a page differs from what this script makes, so they cannot drift from the fixtures.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getMigration } from '@modelcontextprotocol/codemod';
import { ANALYSES } from '../src/analysis/units/index.js';
import { REWRITES } from '../src/rewrite/units.js';
import { CAUSES } from '../src/tables/causes.js';
import type { Stage } from '../src/unitTrace.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(REPO, '__testfixtures__');
export const SHAPES_DIR = 'docs/shapes';
const UNITS_PAGE = 'docs/units.md';

/** Which units of each stage act on each fixture pair, by the pair's name: written by test/fixtures.test.ts's runs. */
export const UNITS_FILE = '__testfixtures__/units.json';
export type UnitsActing = Record<Stage, string[]>;

/** What each pair shows, where its input says nothing of it in a leading comment. */
const ABOUT: Record<string, string> = {
  'aliased-import':
    'The SDK imported under another name (`McpServer as Mcp`): found through the import, not by spelling; its registration and question are wrapped under that name.',
  'awaits-in-expressions':
    'Requests awaited inside expressions (arguments, templates, `?:`, `&&`, `??`): each is asked in place and the expressions stay as they are; a counter ticked before a question is journaled.',
  'cache-filler':
    'Helpers that fill a module-level cache, one under a lock: asked where they are written, the cache filled on the round that has the answer and read by the next calls.',
  'capability-guard': "A guard on the client's capabilities: in a handler it reads the request's own, `clientCapabilities(server.server)`.",
  'class-delegate':
    "A base class registering each subclass's `execute()`, and a module function a handler returns: each question is asked where it is written, the base class's registration made resumable.",
  'class-method-handlers':
    'Tools as members of a class, registered by reference (a bound method, an arrow-function field): the registrations made resumable, the members changed only at their questions.',
  'class-methods':
    'Requests in a method of the class that registers the tools, and in one of an instance it holds in a field: asked where they are written.',
  'client-tasks':
    "Task-augmented requests and requests about the client's tasks have no MCP 2026-07-28 form: each is marked, none rewritten.",
  'destructured-context':
    '`sendRequest` destructured from the handler context, in the signature or in the body: the official codemod names the context, and the request is asked through `ctx.mcpReq.send`.',
  'destructured-context-marked':
    'A destructured context the rewrite cannot expand (a rest element): the request is marked, never left silently.',
  'elicit-form': 'A form elicitation in a tool, served over stdio: its registration, its question, the import and `serveStdio`.',
  'extra-send-request':
    "`extra.sendRequest({ method: 'elicitation/create' | 'sampling/createMessage', ... }, Schema)` in a tool: asked through the requestState module, with its schema.",
  'for-in-and-await':
    'Requests in `for...in` and `for await...of` loops: each round runs the loop from its start, the answers it has replayed; a finally in the loop is guarded.',
  'helper-assigns-parameter':
    "Helpers that assign their own parameter before and after their question: nothing is journaled, a parameter is the round's own.",
  'if-else': 'A request in one branch of an `if`: asked where it is written, the branches as they were.',
  'javascript-esm': 'A JavaScript (ESM) server, handlers inline and passed by name, typed with JSDoc.',
  'journaled-result-changed':
    "Work done before a question is journaled, and what it returned is changed after it: the task a store of the server's own hands out is, on a later round, a copy read back from requestState, so its change would be lost while the reply says it was made: marked, with what to do. A fetched issue and an array made from the tasks are copies on every era: not marked.",
  'let-assigned-after-await':
    'A `let` first assigned after the question, in a `try` or its `catch`: the catch starts with `rethrowIfSuspended()`.',
  'live-handles':
    'Handles that cannot travel in requestState (an API client, a pooled connection): made again on each round; a finally that only releases runs on every round.',
  'log-messages':
    "Log messages sent from handlers become the request's own, `ctx.mcpReq.log(...)`: a handler without a context parameter is given one, params held in a name are read member by member, a low-level server's handler too. A function a handler calls has no context: marked, to hand it down. One sent where no request is served is left, with a note.",
  'loop-past-round-limit':
    "Loops that ask once per iteration: each question is a round of a 2026-07-28 call, and a client gives up after its round limit (10 in the SDK's client). A loop written out to ask 12 times is marked with what to do; one that asks at most 3 times is rewritten with no word; one whose count is not written out gets a note saying the limit.",
  'loops-and-try':
    'Requests in loops and in `try`/`catch`: each round replays the loop from its start; the catch is guarded, and still reached by a failed request.',
  'low-level-server': 'A low-level `Server` with `setRequestHandler(CallToolRequestSchema, ...)`: that registration made resumable.',
  'method-of-a-known-instance':
    "A call through an interface many classes implement, on instances whose class is known where they are made: the call that reaches the counting `execute()` is journaled in the handler that asks after it (done once in the call), the other class's `execute()` asks where it is written, and a handler that never reaches a question is left as it was.",
  'multiline-templates':
    'Multi-line template literals in a handler: nothing is moved or re-indented, so their text stays the string returned.',
  'named-handlers': 'Handlers declared beside their registration and passed by name.',
  'narrowed-locals':
    'A const narrowed before the question and a local read in a shorthand property: unchanged, computed again on each round.',
  'not-a-handler':
    'Requests outside any request (oninitialized, an exported helper no handler calls) marked; those handlers reach through helpers, a recursion and a channel handed on, asked where they are written.',
  'ping-the-client':
    'A ping of the client, in a handler and in a keep-alive timer: MCP 2026-07-28 has no such request, so each is marked and left as it is, for 2025-era clients.',
  'promise-all': 'Requests awaited together (`Promise.all`), then one after another: each asked under the name its answer is bound to.',
  'promise-all-asking-helper': 'A `Promise.all` awaiting a question and a helper that asks one: both go out in one round.',
  'promise-all-load-after-question':
    'A `Promise.all` starting a load after its question: it starts before the round can end, so it is journaled, done once per call.',
  'promise-all-load-before-question': 'A `Promise.all` starting a load before its question: the load is journaled, done once per call.',
  'prompt-and-resource': 'Requests in a prompt and in a templated resource.',
  'request-arguments-change-handle':
    'A question whose message increments a field of an instance the handler makes: made again on each round, so the question reads the same.',
  'request-arguments-change-local':
    'A question whose message increments a local read after the answer: counted again from 0 on each round.',
  'request-arguments-change-local-loop':
    'Questions in a loop whose messages increment a local counter: counted again from 0 on each round.',
  'request-arguments-closure-counter':
    'A question whose message a function of the handler makes, counting in its closure: made again on each round.',
  'request-in-class-accessor': 'A request in a class getter, which cannot return input_required: marked, its marker says where it is.',
  'request-in-inline-functions':
    'Requests in a Promise executor and in a function called where it is written: asked where they are written.',
  'request-in-sdk-callbacks': "Requests in the SDK's resources/list and completion callbacks, which cannot return input_required: marked.",
  'request-options':
    "A request's options (a timeout, the call's abort signal): kept where they are written, for a 2025-era client's request.",
  roots: '`listRoots()` in a tool.',
  sampling: '`createMessage(...)` (sampling) in a tool.',
  'server-subclass':
    'A server subclass registering its tools in its constructor: `resumable(this)`, and the requestState option passed through `super(...)`.',
  'server-subclass-tool-override':
    "A server class declaring SDK 1.x's `tool()` again: its callback is no SDK handler, so its request is marked.",
  'stdio-after-connect':
    'stdio entries whose server is used after `connect`, or whose promise is used: moved to `serveStdio` where that keeps their meaning, marked where it does not.',
  'stdio-server-made-at-connect': 'A stdio server made in the statement that connects it: declared first, then served with `serveStdio`.',
  'switch-dispatch': "A low-level `tools/call` handler dispatching on the tool's name with a `switch`: each case asks where it is written.",
  'table-entry-typed-context':
    "Table entries whose context takes the table's type (an alias of `RequestHandlerExtra`): `extra.sendRequest` in an entry found and asked.",
  'trailing-comments':
    'Trailing comments on the edited lines stay where they are: a catch in a helper guarded, a `Date.now()` before the question journaled.',
  'try-finally':
    'Requests inside `try` blocks with a `catch` and a `finally`: each guarded, so each finally runs once, when the call ends.',
  'tsx-component': 'A server beside JSX code: the rewrite parses TSX.',
  'typed-and-stdio': 'Typed requests and results, and stdio entries: a transport made, passed in or returned.',
  'v2-push-style':
    'SDK 2.x push-style requests (`ctx.mcpReq.elicitInput`, `requestSampling`): asked through the requestState module on `ctx.mcpReq`.',
  'wrapper-function':
    "Tools registered through a function of the project that hands each handler on: that function's registration made resumable, the callbacks asking where they are written.",
  'wrapper-method':
    'A tool registered through a private method, its callback handing the call to another method: that method asks where it is written.',
};

export interface FixturePair {
  name: string;
  input: string;
  output: string;
  /** The files, relative to the repository. */
  inputFile: string;
  outputFile: string;
  scenario?: string;
}

export function fixturePairs(): FixturePair[] {
  const pairs: FixturePair[] = [];
  for (const file of readdirSync(FIXTURES).sort()) {
    const m = /^(.+)\.input(\.[cm]?[jt]sx?)$/.exec(file);
    if (!m) continue;
    const [, name, ext] = m;
    const outputFile = `${name}.output${ext}`;
    if (!existsSync(path.join(FIXTURES, outputFile))) continue;
    const scenario = path.join(FIXTURES, 'scenarios', `${name}.json`);
    pairs.push({
      name: name!,
      input: readFileSync(path.join(FIXTURES, file), 'utf8'),
      output: readFileSync(path.join(FIXTURES, outputFile), 'utf8'),
      inputFile: `__testfixtures__/${file}`,
      outputFile: `__testfixtures__/${outputFile}`,
      ...(existsSync(scenario) ? { scenario: `__testfixtures__/scenarios/${name}.json` } : {}),
    });
  }
  return pairs;
}

/** The first `//` comment of a fixture input, at its top (after a shebang) or right after its imports; else the description above. */
function about(pair: FixturePair): string {
  const lines: string[] = [];
  for (const line of pair.input.replace(/^#!.*\n/, '').split('\n')) {
    const m = /^\/\/ ?(.*)$/.exec(line);
    if (m) lines.push(m[1]!);
    else if (lines.length || !/^(?:import\b.*|\s*)$/.test(line)) break;
  }
  return lines.length ? lines.join(' ') : (ABOUT[pair.name] ?? '');
}

/** A fence longer than any run of backticks in the code. */
function fenced(code: string, language: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map(m => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${code.endsWith('\n') ? code : `${code}\n`}${fence}`;
}

function language(file: string): string {
  return /\.[cm]?tsx?$/.test(file) ? (file.endsWith('x') ? 'tsx' : 'ts') : 'js';
}

const GENERATED = (sources: string) => `<!-- Generated by \`npm run docs\` from ${sources}: edit those, then run it. -->`;

/** One unit of a stage: its module in this repository, none for the official codemod's own transforms. */
export interface UnitEntry {
  stage: Stage;
  id: string;
  name: string;
  module?: string;
}

/** A unit's module is named by its id (`server-wiring` → serverWiring.ts) in its stage's directory. */
export function unitModule(dir: string, id: string): string {
  return `${dir}/${id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}.ts`;
}

const REPAIRS_DIR = 'src/upgrade/repairs';

/** The upgrade's repairs, read from their modules: each declares its `id` and `name` as the codemod's transforms do. */
function repairEntries(): UnitEntry[] {
  const entries: UnitEntry[] = [];
  for (const file of readdirSync(path.join(REPO, REPAIRS_DIR)).sort()) {
    const text = readFileSync(path.join(REPO, REPAIRS_DIR, file), 'utf8');
    for (const m of text.matchAll(/\bid: '([a-z-]+)',\s*name: (?:'((?:[^'\\]|\\.)*)'|"([^"]*)")/g))
      entries.push({ stage: 'upgrade', id: m[1]!, name: (m[2] ?? m[3]!).replace(/\\'/g, "'"), module: `${REPAIRS_DIR}/${file}` });
  }
  return entries;
}

/** Every unit of the three stages, in the order each stage runs them (the upgrade's repairs after the codemod's transforms). */
export function unitCatalogue(): UnitEntry[] {
  const official = getMigration('v1-to-v2')?.transforms ?? [];
  return [
    ...official.map(t => ({ stage: 'upgrade' as const, id: t.id, name: t.name })),
    ...repairEntries(),
    ...ANALYSES.map(u => ({ stage: 'analysis' as const, id: u.id, name: u.name, module: unitModule('src/analysis/units', u.id) })),
    ...REWRITES.map(u => ({ stage: 'rewrite' as const, id: u.id, name: u.name, module: unitModule('src/rewrite', u.id) })),
  ];
}

function unitsActing(): Record<string, UnitsActing> {
  const file = path.join(REPO, UNITS_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, UnitsActing>) : {};
}

/** The line of a shape page naming the units that act on its pair, each of this repository's linked to its module. */
function unitsLine(acting: UnitsActing | undefined, catalogue: UnitEntry[], up: string): string {
  if (!acting) return `Units acting on it: not recorded in [${path.basename(UNITS_FILE)}](${up}${UNITS_FILE}).`;
  const entries = (stage: Stage) =>
    acting[stage].map(id => catalogue.find(e => e.stage === stage && e.id === id) ?? { stage, id, name: id });
  const linked = (list: UnitEntry[]) => list.map(e => `[${e.id}](${up}${e.module})`).join(', ');
  const upgrade = entries('upgrade');
  const official = upgrade.filter(e => !e.module).map(e => `\`${e.id}\``);
  const parts = [
    official.length > 0 ? `the official codemod's ${official.join(', ')}` : '',
    upgrade.some(e => e.module) ? `the upgrade's repairs ${linked(upgrade.filter(e => e.module))}` : '',
    acting.analysis.length > 0 ? `the analysis's ${linked(entries('analysis'))}` : '',
    acting.rewrite.length > 0 ? `the rewrite's ${linked(entries('rewrite'))}` : '',
  ].filter(Boolean);
  return `Units acting on it: ${parts.length > 0 ? parts.join('; ') : 'none'} ([every unit](../units.md)).`;
}

function shapePage(pair: FixturePair, units: string): string {
  const lang = language(pair.inputFile);
  const verified = pair.scenario
    ? `Run with real clients on both eras by test/verify-fixtures.test.ts (scenario: [${path.basename(pair.scenario)}](../../${pair.scenario})).`
    : 'Not run with clients (nothing to run, or nothing rewritten): checked as text by test/fixtures.test.ts.';
  return [
    GENERATED(`${pair.inputFile} and ${pair.outputFile}`),
    '',
    `# ${pair.name}`,
    '',
    about(pair),
    '',
    verified,
    '',
    units,
    '',
    '<table>',
    `<tr><th>Before: <a href="../../${pair.inputFile}">${path.basename(pair.inputFile)}</a></th><th>After: <a href="../../${pair.outputFile}">${path.basename(pair.outputFile)}</a></th></tr>`,
    '<tr>',
    '<td>',
    '',
    fenced(pair.input, lang),
    '',
    '</td>',
    '<td>',
    '',
    fenced(pair.output, lang),
    '',
    '</td>',
    '</tr>',
    '</table>',
    '',
  ].join('\n');
}

function shapesIndex(pairs: FixturePair[]): string {
  return [
    GENERATED('__testfixtures__'),
    '',
    '# Shapes, before and after',
    '',
    'Each page shows one fixture of the test suite: the SDK 1.x (or push-style 2.x) input beside what',
    'mcp-migrate writes. test/fixtures.test.ts checks that the tool still writes exactly that output, and',
    'test/verify-fixtures.test.ts runs those with a scenario against real clients on both protocol eras.',
    'How each shape resumes is explained in [how it works](../how-it-works.md); each page names the units of',
    'the upgrade, the analysis and the rewrite that act on it, which [the units](../units.md) lists.',
    '',
    '| shape | what it shows |',
    '| --- | --- |',
    ...pairs.map(p => `| [${p.name}](${p.name}.md) | ${about(p).replace(/\|/g, '\\|')} |`),
    '',
  ].join('\n');
}

/** A unit's test file: its module's path under test/ (test/layout.test.ts checks that it exists). */
export const unitTestOf = (module: string): string => module.replace(/^src\//, 'test/').replace(/\.ts$/, '.test.ts');

/** Where a unit acts on more pairs than this, the units page gives their count. */
const MOST_SHAPES = 12;

/** Every unit of the three stages, its module, and the fixture pairs it acts on. */
function unitsPage(catalogue: UnitEntry[], acting: Record<string, UnitsActing>): string {
  const shapes = (e: UnitEntry) =>
    Object.keys(acting)
      .filter(name => acting[name]![e.stage].includes(e.id))
      .map(name => `[${name}](shapes/${name}.md)`);
  const row = (e: UnitEntry) => {
    const on = shapes(e);
    const where = e.module ? `[${path.basename(e.module)}](../${e.module})` : 'the official codemod';
    const test = e.module && unitTestOf(e.module);
    const tested = test ? `[${path.basename(test)}](../${test})` : "the official codemod's";
    // A unit most pairs go through is counted, not listed: its list would say nothing a reader can use.
    const listed =
      on.length === 0 ? 'none' : on.length <= MOST_SHAPES ? on.join(', ') : `${on.length} of the ${Object.keys(acting).length}`;
    return `| \`${e.id}\` | ${e.name.replace(/\|/g, '\\|')} | ${where} | ${tested} | ${listed} |`;
  };
  const table = (stage: Stage) => [
    '| id | what it does | module | its tests | shapes it acts on |',
    '| --- | --- | --- | --- | --- |',
    ...catalogue.filter(e => e.stage === stage).map(row),
  ];
  return [
    GENERATED(`the stages' unit tables and ${UNITS_FILE}`),
    '',
    '# The units',
    '',
    "Each stage is a table of units, run in order, as the official codemod's transforms are: the upgrade (the",
    "official codemod's transforms, then the repairs of src/upgrade/repairs), the analysis (ANALYSES,",
    'src/analysis/units/index.ts) and the rewrite (REWRITES, src/rewrite/units.ts). A unit lives in the module its',
    'id names, and is tested in a file of its own at that path under test/ (test/layout.test.ts holds it): a repair on',
    'a file upgraded alone, an analysis unit on the plan it makes (plain data, each range shown as its text), a rewrite',
    'unit on a plan written by hand. Which units act on each fixture pair is recorded in',
    `[${path.basename(UNITS_FILE)}](../${UNITS_FILE}) by test/fixtures.test.ts's runs.`,
    '',
    '## The upgrade',
    '',
    ...table('upgrade'),
    '',
    '## The analysis',
    '',
    ...table('analysis'),
    '',
    '## The rewrite',
    '',
    ...table('rewrite'),
    '',
  ].join('\n');
}

function causesPage(): string {
  return [
    GENERATED('src/tables/causes.ts'),
    '',
    '# Why something is left: the causes',
    '',
    'Every site mcp-migrate marks instead of rewriting, and every other thing `--check` fails on, has a',
    'cause with a stable id. The SARIF output (`--format sarif`) uses the id as its rule id; the level is',
    'the SARIF level: `error` where the migrated server fails (at startup, or on the call), `warning` where',
    'it still serves 2025-era clients and needs a redesign for 2026-07-28 ones.',
    '',
    '| id | level | what | what to do |',
    '| --- | --- | --- | --- |',
    ...CAUSES.map(c => `| \`${c.id}\` | ${c.level} | ${c.text.replace(/\|/g, '\\|')} | ${c.fix.replace(/\|/g, '\\|')} |`),
    '',
  ].join('\n');
}

/** Every generated page, by path relative to the repository. */
export function renderDocs(): Map<string, string> {
  const pairs = fixturePairs();
  const catalogue = unitCatalogue();
  const acting = unitsActing();
  const pages = new Map<string, string>();
  pages.set(`${SHAPES_DIR}/README.md`, shapesIndex(pairs));
  for (const pair of pairs) pages.set(`${SHAPES_DIR}/${pair.name}.md`, shapePage(pair, unitsLine(acting[pair.name], catalogue, '../../')));
  pages.set('docs/causes.md', causesPage());
  pages.set(UNITS_PAGE, unitsPage(catalogue, acting));
  return pages;
}

function main(): void {
  const pages = renderDocs();
  // Pages of fixtures that are gone go too.
  rmSync(path.join(REPO, SHAPES_DIR), { recursive: true, force: true });
  for (const [file, text] of pages) {
    mkdirSync(path.dirname(path.join(REPO, file)), { recursive: true });
    writeFileSync(path.join(REPO, file), text);
  }
  process.stdout.write(`wrote ${pages.size} pages (${SHAPES_DIR}/, docs/causes.md, ${UNITS_PAGE})\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
