/**
 * Latency of `mcp-migrate lsp` on one large document (default 2,000 lines of SDK 1.x tools, each
 * awaiting an elicitation or a sampling request): the first analysis (open → diagnostics), a
 * re-analysis after an edit (change → diagnostics, debounce included), and code actions after the
 * analysis (served from the per-version cache), as median / p95 / max over repeated requests.
 *
 *   npm run build && node dist/bench/lsp-latency.js [--lines 2000] [--requests 200] [--sdk 1|2]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient } from '../src/lsp/client.js';

/** Issue goals for a 2,000-line SDK 1.x document: diagnostics need no upgrade, an edit re-analyses what it touched. */
const FIRST_GOAL_MS = 2000;
const CHANGE_GOAL_MS = 500;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '..', 'src', 'cli.js');

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
  const fields = readFileSync(stat, 'utf8').replace(/^.*\) /s, '').split(' ');
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

async function main(): Promise<void> {
  const lines = arg('lines', 2000);
  const requests = arg('requests', 200);
  const sdk = arg('sdk', 1);
  if (sdk !== 1 && sdk !== 2) throw new Error('--sdk must be 1 or 2');
  const dir = path.join(tmpdir(), `mcp-migrate-lsp-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const text = largeServer(lines, sdk);
  const file = path.join(dir, 'server.ts');
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;
  // As VS Code does: the quick fix's edit (a pipeline run for its handler) is resolved when chosen.
  const client = await LspClient.start(process.execPath, [CLI, 'lsp'], {
    cwd: dir,
    capabilities: {
      workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } },
      textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } }
    }
  });
  try {
    const pid = client.child.pid;
    let cpu = serverCpuMs(pid);
    let t = performance.now();
    await client.open(uri, text);
    const { diagnostics } = await client.diagnostics(uri, 1, 600_000);
    const firstMs = performance.now() - t;
    const firstCpu = cpuNote(cpu, serverCpuMs(pid));
    if (diagnostics.length === 0) throw new Error('no diagnostics on the generated server');

    // Code actions after the first analysis: a quick fix at a site (cursor inside it) and the file's source action.
    const quick: number[] = [];
    const source: number[] = [];
    for (let i = 0; i < requests; i++) {
      const d = diagnostics[i % diagnostics.length]!;
      t = performance.now();
      const qa = await client.codeActions(uri, { start: d.range.start, end: d.range.start }, ['quickfix'], [d]);
      quick.push(performance.now() - t);
      if (qa.length !== 1) throw new Error(`expected one quick fix at ${JSON.stringify(d.range)}, got ${qa.length}`);
      t = performance.now();
      const sa = await client.codeActions(uri, d.range, ['source']);
      source.push(performance.now() - t);
      if (sa.length !== 1) throw new Error(`expected one source action, got ${sa.length}`);
    }

    // An edit, then the diagnostics of the new version (includes the server's debounce).
    cpu = serverCpuMs(pid);
    t = performance.now();
    await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// edited\n' }]);
    await client.diagnostics(uri, 2, 600_000);
    const changeMs = performance.now() - t;
    const changeCpu = cpuNote(cpu, serverCpuMs(pid));

    const lineCount = text.split('\n').length;
    console.log(`mcp-migrate lsp, ${lineCount}-line SDK ${sdk}.x document, ${diagnostics.length} sites`);
    const goal = (ms: number, limit: number) => `(goal < ${limit} ms on an idle machine: ${ms < limit ? 'met' : 'NOT met'})`;
    console.log(`  first analysis (didOpen → publishDiagnostics): ${firstMs.toFixed(0)} ms${firstCpu} ${goal(firstMs, FIRST_GOAL_MS)}`);
    console.log(`  re-analysis (didChange → publishDiagnostics, 150 ms debounce included): ${changeMs.toFixed(0)} ms${changeCpu} ${goal(changeMs, CHANGE_GOAL_MS)}`);
    console.log(`  code action, quick fix after analysis:    ${stats(quick)}`);
    console.log(`  code action, source action after analysis: ${stats(source)}`);
  } finally {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
