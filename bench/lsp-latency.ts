/**
 * Latency of `mcp-migrate lsp` on one large document (default 2,000 lines of SDK 1.x tools, each
 * awaiting an elicitation or a sampling request): the first analysis (open → diagnostics), a
 * re-analysis after an edit (change → diagnostics, debounce included), and code actions after the
 * analysis (served from the per-version cache), as median / p95 / max over repeated requests.
 *
 * With `--fanout N`, the same figures for one file of a fan-out tree (generate-fanout.ts, `--handlers`
 * handlers in all, default 200): its first tool file holds N handlers, each calling the shared helper
 * `confirmAction(server, what)` of another file. The server runs from the tree's root and the helper is
 * read from disk; the file's diagnostics must be one per helper call, on the call's line.
 *
 *   npm run build && node dist/bench/lsp-latency.js [--lines 2000] [--requests 200] [--sdk 1|2]
 *   npm run build && node dist/bench/lsp-latency.js --fanout 50 [--handlers 200] [--requests 200]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import { LspClient } from '../src/lsp/client.js';
import type { SiteData } from '../src/lsp/siteData.js';
import { generateFanoutTree } from './generate-fanout.js';

/**
 * Issue goals for a 2,000-line SDK 1.x document (diagnostics need no upgrade, an edit re-analyses what it
 * touched), and for a file of the fan-out tree calling the shared helper from 50 handlers.
 */
const FIRST_GOAL_MS = 2000;
const CHANGE_GOAL_MS = 500;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '..', 'src', 'cli.js');
const REPO = path.resolve(HERE, '..', '..');

function given(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

/**
 * A server of about `lines` lines: tools alternating elicitation and sampling, plus the stdio entry.
 * SDK 1.x (the official v1-to-v2 codemod runs first, as on a legacy project) or SDK 2.x push style.
 */
function largeServer(lines: number, sdk: 1 | 2): string {
  if (sdk === 2) return largeV2Server(lines);
  const head = [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';",
    "import { z } from 'zod';",
    '',
    "const server = new McpServer({ name: 'large', version: '1.0.0' });",
    '',
  ];
  const tool = (i: number): string[] =>
    i % 2 === 0
      ? [
          `server.tool('confirm-${i}', { path: z.string() }, async ({ path }) => {`,
          `  const label = \`item ${i}: \${path}\`;`,
          '  const answer = await server.server.elicitInput({',
          '    message: `Delete ${label}?`,',
          "    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },",
          '  });',
          "  if (answer.action !== 'accept' || answer.content?.confirm !== true) {",
          "    return { content: [{ type: 'text', text: `Kept ${label} (${answer.action})` }] };",
          '  }',
          "  return { content: [{ type: 'text', text: `Deleted ${label}` }] };",
          '});',
          '',
        ]
      : [
          `server.tool('summarize-${i}', { text: z.string() }, async ({ text }) => {`,
          `  const prompt = \`Summarize (${i}): \${text}\`;`,
          '  const result = await server.server.createMessage({',
          "    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],",
          '    maxTokens: 100,',
          '  });',
          "  const summary = result.content.type === 'text' ? result.content.text : '';",
          "  return { content: [{ type: 'text', text: summary }] };",
          '});',
          '',
        ];
  const out = [...head];
  for (let i = 0; out.length < lines - 2; i++) out.push(...tool(i));
  out.push('await server.connect(new StdioServerTransport());', '');
  return out.join('\n');
}

function largeV2Server(lines: number): string {
  const out = [
    "import { McpServer } from '@modelcontextprotocol/server';",
    "import * as z from 'zod';",
    '',
    "export const server = new McpServer({ name: 'large', version: '2.0.0' });",
    '',
  ];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `server.registerTool('rename-${i}', { inputSchema: z.object({ from: z.string() }) }, async ({ from }, ctx) => {`,
      `  const label = \`item ${i}: \${from}\`;`,
      '  const answer = await ctx.mcpReq.elicitInput({',
      '    message: `New name for ${label}?`,',
      "    requestedSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },",
      '  });',
      "  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'unchanged' }] };",
      '  const check = await ctx.mcpReq.requestSampling({',
      "    messages: [{ role: 'user', content: { type: 'text', text: `Is ${String(answer.content?.to)} a good name?` } }],",
      '    maxTokens: 20,',
      '  });',
      "  return { content: [{ type: 'text', text: `${label} -> ${String(answer.content?.to)} (${check.model})` }] };",
      '});',
      '',
    );
  }
  return out.join('\n');
}

/**
 * CPU time (user + system, ms) the server process has used, from /proc (Linux; undefined elsewhere): on a
 * shared machine the wall-clock latency moves with the load, the server's own CPU time much less.
 */
function serverCpuMs(pid: number | undefined): number | undefined {
  const stat = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(stat)) return undefined;
  // Fields 14 and 15 (utime, stime, in clock ticks of 10 ms), counted after the parenthesised command name.
  const fields = readFileSync(stat, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function cpuNote(before: number | undefined, after: number | undefined): string {
  return before === undefined || after === undefined ? '' : `, server CPU ${after - before} ms`;
}

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms (n=${s.length})`;
}

/** What a document's run must give, so a fast wrong answer is not timed as a win. */
interface Expected {
  /** Throws unless these are the document's diagnostics: `edited` after the bench's edit (one line added at the top). */
  check(diagnostics: Diagnostic[], edited: boolean): void;
  /** Quick fixes the server offers with the cursor at this site. */
  quickFixesAt(d: Diagnostic): number;
}

interface Figures {
  diagnostics: Diagnostic[];
  firstMs: number;
  firstCpu: string;
  changeMs: number;
  changeCpu: string;
  quick: number[];
  source: number[];
}

/** The server, started in `cwd` as an editor starts it there. */
function startServer(cwd: string): Promise<LspClient> {
  // As VS Code does: the quick fix's edit (a pipeline run for its handler) is resolved when chosen.
  return LspClient.start(process.execPath, [CLI, 'lsp'], {
    cwd,
    capabilities: {
      workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } },
      textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } },
    },
  });
}

/** Opens `text` as `uri`, then times the first analysis, `requests` rounds of code actions, and a re-analysis after an edit. */
async function measureDocument(client: LspClient, uri: string, text: string, requests: number, expected: Expected): Promise<Figures> {
  const pid = client.child.pid;
  let cpu = serverCpuMs(pid);
  let t = performance.now();
  await client.open(uri, text);
  const { diagnostics } = await client.diagnostics(uri, 1, 600_000);
  const firstMs = performance.now() - t;
  const firstCpu = cpuNote(cpu, serverCpuMs(pid));
  expected.check(diagnostics, false);

  // Code actions after the first analysis: a quick fix at a site (cursor inside it) and the file's source action.
  const quick: number[] = [];
  const source: number[] = [];
  for (let i = 0; i < requests; i++) {
    const d = diagnostics[i % diagnostics.length]!;
    t = performance.now();
    const qa = await client.codeActions(uri, { start: d.range.start, end: d.range.start }, ['quickfix'], [d]);
    quick.push(performance.now() - t);
    const fixes = expected.quickFixesAt(d);
    if (qa.length !== fixes)
      throw new Error(`expected ${fixes} quick fix${fixes === 1 ? '' : 'es'} at ${JSON.stringify(d.range)}, got ${qa.length}`);
    t = performance.now();
    const sa = await client.codeActions(uri, d.range, ['source']);
    source.push(performance.now() - t);
    if (sa.length !== 1) throw new Error(`expected one source action, got ${sa.length}`);
  }

  // An edit, then the diagnostics of the new version (includes the server's debounce).
  cpu = serverCpuMs(pid);
  t = performance.now();
  await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// edited\n' }]);
  const after = await client.diagnostics(uri, 2, 600_000);
  const changeMs = performance.now() - t;
  const changeCpu = cpuNote(cpu, serverCpuMs(pid));
  expected.check(after.diagnostics, true);
  return { diagnostics, firstMs, firstCpu, changeMs, changeCpu, quick, source };
}

/** `quickNote` says what the quick fix requests got when it was not one fix each. */
function printFigures(f: Figures, quickNote = ''): void {
  const goal = (ms: number, limit: number) => `(goal < ${limit} ms on an idle machine: ${ms < limit ? 'met' : 'NOT met'})`;
  console.log(`  first analysis (didOpen → publishDiagnostics): ${f.firstMs.toFixed(0)} ms${f.firstCpu} ${goal(f.firstMs, FIRST_GOAL_MS)}`);
  console.log(
    `  re-analysis (didChange → publishDiagnostics, 150 ms debounce included): ${f.changeMs.toFixed(0)} ms${f.changeCpu} ${goal(f.changeMs, CHANGE_GOAL_MS)}`,
  );
  console.log(`  code action, quick fix after analysis:    ${stats(f.quick)}${quickNote}`);
  console.log(`  code action, source action after analysis: ${stats(f.source)}`);
}

/** The default mode: one large standalone document. */
async function runLargeDocument(requests: number): Promise<void> {
  const lines = arg('lines', 2000);
  const sdk = arg('sdk', 1);
  if (sdk !== 1 && sdk !== 2) throw new Error('--sdk must be 1 or 2');
  const dir = path.join(tmpdir(), `mcp-migrate-lsp-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const text = largeServer(lines, sdk);
  const file = path.join(dir, 'server.ts');
  writeFileSync(file, text);
  const client = await startServer(dir);
  try {
    let sites = 0;
    const expected: Expected = {
      check(diagnostics, edited) {
        if (!edited && diagnostics.length === 0) throw new Error('no diagnostics on the generated server');
        if (edited && diagnostics.length !== sites)
          throw new Error(`expected the ${sites} sites again after the edit, got ${diagnostics.length}`);
        sites = diagnostics.length;
      },
      quickFixesAt: () => 1,
    };
    const figures = await measureDocument(client, pathToFileURL(file).href, text, requests, expected);
    const lineCount = text.split('\n').length;
    console.log(`mcp-migrate lsp, ${lineCount}-line SDK ${sdk}.x document, ${figures.diagnostics.length} sites`);
    printFigures(figures);
  } finally {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The diagnostics of a file whose handlers each call the helper once: one per call, on the call's line
 * (`at`, 0-based, before the edit), a site the analysis rewrites (a quick fix) or marks (none).
 */
function helperCallDiagnostics(at: number[], helper: string): Expected {
  return {
    check(diagnostics, edited) {
      const lines = new Set(at.map(line => line + (edited ? 1 : 0)));
      const off = diagnostics.filter(d => !lines.has(d.range.start.line));
      const hit = new Set(diagnostics.map(d => d.range.start.line));
      const missed = [...lines].filter(line => !hit.has(line));
      if (diagnostics.length !== lines.size || off.length > 0 || missed.length > 0) {
        const where = (ls: number[]) =>
          ls
            .slice(0, 5)
            .map(l => l + 1)
            .join(', ');
        throw new Error(
          `${edited ? 'after the edit: ' : ''}expected ${lines.size} diagnostics, one on each call of ${helper}; got ${diagnostics.length}` +
            `${off.length ? `, ${off.length} elsewhere (lines ${where(off.map(d => d.range.start.line))}...): ${off[0]!.message}` : ''}` +
            `${missed.length ? `, ${missed.length} calls without one (lines ${where(missed)}...)` : ''}`,
        );
      }
    },
    quickFixesAt: d => ((d.data as SiteData | undefined)?.outcome === 'rewritten' ? 1 : 0),
  };
}

/** What the diagnostics say, counted: `12 × marked elicitation`. */
function outcomes(diagnostics: Diagnostic[]): string {
  const counts = new Map<string, number>();
  for (const d of diagnostics) {
    const data = d.data as SiteData | undefined;
    const key = `${data?.outcome ?? '?'} ${data?.kind ?? '?'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${n} × ${key}`).join(', ');
}

/** `--fanout N`: the first tool file of a fan-out tree, holding N handlers that call the shared helper. */
async function runFanout(inFile: number, requests: number): Promise<void> {
  if (given('lines') || given('sdk')) throw new Error('--lines and --sdk are for the single-document mode, not --fanout');
  const handlers = arg('handlers', Math.max(200, inFile));
  if (handlers < inFile) throw new Error(`--handlers (${handlers}) must be at least --fanout (${inFile})`);
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-migrate-lsp-fanout-')));
  try {
    const tree = generateFanoutTree(root, {
      handlers,
      seed: 20260728 + handlers,
      name: `lsp-fanout-${handlers}`,
      handlersInFirstFile: inFile,
    });
    // As bench/run.ts does for its trees: the SDK and zod resolve from the tree as in a project.
    symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    const opened = tree.toolFiles[0]!;
    if (opened.handlers !== inFile) throw new Error(`the first tool file holds ${opened.handlers} handlers, not ${inFile}`);
    const file = path.join(root, opened.rel);
    const text = readFileSync(file, 'utf8');
    const calls = text.split('\n').flatMap((line, i) => (line.includes(`await ${tree.helper.fn}(`) ? [i] : []));
    if (calls.length !== inFile) throw new Error(`${opened.rel}: ${calls.length} calls of ${tree.helper.fn}, not ${inFile}`);
    const helper = helperCallDiagnostics(calls, tree.helper.fn);
    const client = await startServer(root);
    try {
      const figures = await measureDocument(client, pathToFileURL(file).href, text, requests, helper);
      const style = opened.rel.startsWith('src/tools/')
        ? 'a class holding the server in a field'
        : 'a factory taking the server as a parameter';
      console.log(
        `mcp-migrate lsp, fan-out tree of ${tree.files} sources, ${handlers} handlers calling ${tree.helper.fn}() of ${tree.helper.rel}`,
      );
      console.log(
        `  opened ${opened.rel}: ${text.split('\n').length} lines, ${inFile} handlers (${style}), ${figures.diagnostics.length} sites (${outcomes(figures.diagnostics)})`,
      );
      const fixes = figures.diagnostics.filter(d => helper.quickFixesAt(d) > 0).length;
      const first = figures.diagnostics[0]!;
      console.log(`  line ${first.range.start.line + 1}, as on every site: ${first.message}`);
      printFigures(
        figures,
        fixes === figures.diagnostics.length
          ? ''
          : ` (${figures.diagnostics.length - fixes} of the ${figures.diagnostics.length} sites offer none: marked)`,
      );
    } finally {
      await client.stop();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const requests = arg('requests', 200);
  if (given('fanout')) await runFanout(arg('fanout', 50), requests);
  else await runLargeDocument(requests);
}

await main();
