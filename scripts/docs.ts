/**
 * The generated documentation: a page per fixture pair (`__testfixtures__/<name>.input.*` beside
 * `<name>.output.*`), their index, and the causes table. `npm run docs` writes them; test/docs.test.ts
 * fails when a page differs from what this script makes, so they cannot drift from the fixtures.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAUSES } from '../src/tables/causes.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(REPO, '__testfixtures__');
export const SHAPES_DIR = 'docs/shapes';

/** What each pair shows, where its input says nothing of it in a leading comment. */
const ABOUT: Record<string, string> = {
  'aliased-import': 'The SDK imported under another name (`McpServer as Mcp`): found through the import, not by spelling.',
  'awaits-in-expressions': 'Requests awaited inside expressions (arguments, templates, `?:`, `&&`, `??`), hoisted into statements of their own first.',
  'capability-guard': "A guard on the client's capabilities: in a rewritten handler it reads the request's own capabilities.",
  'client-tasks': "Task-augmented requests and requests about the client's tasks have no MCP 2026-07-28 form: each is marked, none rewritten.",
  'narrowed-locals': 'A const narrowed before the question (`if (!node) return`) keeps its narrowed type where it is restored; a local read only in a shorthand property is carried.',
  'recursion': 'A recursive helper beside a request: a recursion is a site only when its cycle reaches a request, so a synchronous tree walk is left alone.',
  'destructured-context': '`sendRequest` destructured from the handler context, in the signature or in the body: a site like `extra.sendRequest`.',
  'destructured-context-marked': 'A destructured context the rewrite cannot expand (a rest element): the request is marked, never left silently.',
  'elicit-form': 'A form elicitation in a tool, served over stdio.',
  'extra-send-request': "`extra.sendRequest({ method: 'elicitation/create' | 'sampling/createMessage', ... }, Schema)` in a tool.",
  'for-in-and-await': 'Requests in `for...in` and `for await...of` loops: the keys or items travel in requestState, one round per iteration.',
  helpers: 'Helpers that make the request, awaited by handlers: inlined into each handler and split there.',
  'if-else': 'A request in one branch of an `if`: the code after it runs in whichever phase reaches it.',
  'javascript-esm': 'A JavaScript (ESM) server, handlers inline and passed by name, typed with JSDoc.',
  'loops-and-try': 'Requests in loops and in `try`/`catch`: each iteration a round, a failed answer reaching the `catch`.',
  'low-level-server': 'A low-level `Server` with `setRequestHandler(CallToolRequestSchema, ...)`.',
  'multiline-templates': 'Multi-line template literals keep their text when their statements move into phase blocks.',
  'named-handlers': 'Handlers declared beside their registration and passed by name.',
  'not-a-handler': 'Requests outside a handler that can return input_required (oninitialized, helpers, channels handed on): marked with the redesign.',
  'promise-all': 'Independent requests awaited together (`Promise.all`, adjacent awaits): sent in one round.',
  'prompt-and-resource': 'Requests in a prompt and in a templated resource.',
  roots: '`listRoots()` in a tool.',
  'server-holders': 'Servers reached through a factory, a nullable field, a getter and a method: found by their types.',
  'stdio-after-connect': 'stdio entries whose server is used after `connect`, or whose promise is used: moved to `serveStdio` where that keeps their meaning, marked where it does not.',
  sampling: '`createMessage(...)` (sampling) in a tool.',
  'switch-dispatch': "A low-level `tools/call` handler dispatching on the tool's name with a `switch`: migrated case by case.",
  'try-finally': 'Requests inside `try` blocks with a `finally`: the `finally` runs once, on the round that leaves the `try`.',
  'tsx-component': 'A server beside JSX code: the rewrite parses TSX.',
  'typed-and-stdio': 'Typed requests and results, and stdio entries: a transport made, passed in or returned.',
  'unsupported-shapes': 'Shapes that are not split into phases (a `Date` kept across the await, an await in `finally`, in a callback, two in one statement): marked, the rest migrated.',
  'v2-push-style': 'SDK 2.x push-style requests (`ctx.mcpReq.elicitInput`, `requestSampling`) moved to input_required.',
  'wrapper-function': 'Tools registered through a function of the project that hands each handler on unchanged: each callback migrated as its tool\'s handler, the wrapper\'s callback type widened.',
  'wrapper-method': 'A tool registered through a private method, its callback handing the call to another method: that method migrated as the handler\'s delegate.',
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

/** The first `//` comment of a fixture input, at its top or right after its imports; else the description above. */
function about(pair: FixturePair): string {
  const lines: string[] = [];
  for (const line of pair.input.split('\n')) {
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

function shapePage(pair: FixturePair): string {
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
    'How each shape resumes is explained in [how it works](../how-it-works.md).',
    '',
    '| shape | what it shows |',
    '| --- | --- |',
    ...pairs.map(p => `| [${p.name}](${p.name}.md) | ${about(p).replace(/\|/g, '\\|')} |`),
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
    "the SARIF level: `error` where the migrated server fails (at startup, or on the call), `warning` where",
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
  const pages = new Map<string, string>();
  pages.set(`${SHAPES_DIR}/README.md`, shapesIndex(pairs));
  for (const pair of pairs) pages.set(`${SHAPES_DIR}/${pair.name}.md`, shapePage(pair));
  pages.set('docs/causes.md', causesPage());
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
  process.stdout.write(`wrote ${pages.size} pages (${SHAPES_DIR}/, docs/causes.md)\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
