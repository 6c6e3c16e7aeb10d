/**
 * Streamable HTTP entries, end to end: the http-stateless and http-sessionful fixtures (node:http)
 * and the SDK 1.x README's Express setups (test/http-servers/), migrated by the whole pipeline, run
 * as real processes on a free loopback port (verify's HTTP mode) and called over Streamable HTTP
 * by the 2026-07-28 client (@modelcontextprotocol/client) and the 2025-era one (@modelcontextprotocol/sdk
 * 1.x), with scripted answers to every elicitation and sampling request.
 *
 * (verify-fixtures also verifies both fixtures with their scenarios; this file adds the Express
 * setups, the generated text, the ordering after an authorization check, and the 2025 era of a
 * stateless entry.)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';
import {
  MODERN_PROTOCOL_VERSION,
  formatVerifyTable,
  parseScenario,
  runScenario,
  verify,
  type Scenario,
  type ScenarioCall,
} from '../src/verify/index.js';
import { freeLoopbackPort, waitForPort } from '../src/verify/http.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, '__testfixtures__');
const servers = path.join(root, 'test', 'http-servers');
const work = path.join(root, '.tmp', 'http-entry');
const tsxCli = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const tsx = `node ${tsxCli}`;
// One instance serves each server: it seals requestState with a key of its own (a shared key would need a shared store).
const env = { ...process.env };
delete env.MCP_REQUEST_STATE_KEY;
delete env.MCP_TOKEN;
const TIMEOUT = 20_000;

/** Migrates one server module into its own directory and writes the result (with the requestState module). */
async function migrate(name: string, input: string): Promise<{ file: string; result: MigrateResult; output: string }> {
  const dir = path.join(work, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.ts`);
  const result = await migrateSources([{ path: file, text: fs.readFileSync(input, 'utf8') }], { cwd: dir });
  for (const change of result.changes) fs.writeFileSync(change.path, change.after);
  return { file, result, output: fs.readFileSync(file, 'utf8') };
}

const confirm = (name: string, action: string, answer: Record<string, unknown>, expected: string): ScenarioCall & { expected: string } => ({
  name,
  method: 'tools/call',
  params: { name: 'confirm', arguments: { action } },
  answers: { elicitation: [answer] },
  expected,
});
const confirmCalls = [
  confirm('confirm sure', 'deploy', { action: 'accept', content: { sure: true } }, 'deploy: done'),
  confirm('confirm not sure', 'deploy', { action: 'accept', content: { sure: false } }, 'deploy: kept'),
  confirm('confirm decline', 'wipe', { action: 'decline' }, 'wipe: decline'),
  confirm('confirm cancel', 'wipe', { action: 'cancel' }, 'wipe: cancel'),
];
const echo: ScenarioCall = { name: 'echo', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } };
const text = (result: unknown): string | undefined => (result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text;

const sessionful = [
  { name: 'http-sessionful', input: path.join(fixtures, 'http-sessionful.input.ts'), factory: 'buildServer()', body: 'body' },
  { name: 'express-sessionful', input: path.join(servers, 'express-sessionful.ts'), factory: 'getServer()', body: 'req.body' },
];
const stateless = [
  { name: 'http-stateless', input: path.join(fixtures, 'http-stateless.input.ts'), factory: 'buildServer()', args: 'req, res' },
  { name: 'express-stateless', input: path.join(servers, 'express-stateless.ts'), factory: 'getServer()', args: 'req, res, req.body' },
];

const started: { kill(): void }[] = [];
afterAll(() => {
  for (const child of started) child.kill();
});

describe.each(sessionful)('a sessionful Streamable HTTP server, migrated ($name)', ({ name, input, factory, body }) => {
  it('routes 2026-07-28 requests to createMcpHandler before the session is read, and reports the entry', async () => {
    const { result, output } = await migrate(name, input);
    const entries = result.report.sites.filter(s => s.kind === 'entry');
    expect(entries.map(e => e.outcome)).toEqual(['rewritten']);
    expect(entries[0]!.reason).toContain(
      `routed (isLegacyRequest) to toNodeHandler(createMcpHandler(() => ${factory}, { legacy: 'reject' }))`,
    );
    expect(result.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
    expect(output).toContain(`const mcpHandler = toNodeHandler(createMcpHandler(() => ${factory}, { legacy: 'reject' }));`);
    expect(output).toContain(
      `if (!(await isLegacyRequest(await toWebRequest(req, ${body})))) {\n    await mcpHandler(req, res, ${body});\n    return;\n  }\n  const sessionId`,
    );
  }, 600_000);

  it('gives the same results on both eras as the original, each input request answered', async () => {
    const { file } = await migrate(name, input);
    const scenario = parseScenario(JSON.parse(fs.readFileSync(path.join(fixtures, 'scenarios', 'http-sessionful.json'), 'utf8')));
    const result = await verify({ before: `${tsx} ${input}`, after: `${tsx} ${file}`, http: '/mcp', scenario, env, timeoutMs: TIMEOUT });
    const table = formatVerifyTable(result);
    expect(result.ok, table).toBe(true);
    expect(result.runs.modern.protocolVersion, table).toBe(MODERN_PROTOCOL_VERSION);
    expect(result.runs.shim.protocolVersion, table).not.toBe(MODERN_PROTOCOL_VERSION);
    expect(result.runs.modern.calls.map(c => text(c.result))).toEqual([...confirmCalls.map(c => c.expected), 'Rain on the tin roof']);
    // One input request per call: a retry after input_required on 2026-07-28, a server-initiated
    // request over the session on the 2025 era (through the legacy shim after the migration).
    for (const run of ['before', 'modern', 'shim'] as const) {
      for (const c of result.runs[run].calls) {
        expect(c.rounds, `${c.name} (${run})\n${table}`).toBe(2);
        expect(c.requests.map(r => r.method)).toEqual([c.name === 'haiku' ? 'sampling/createMessage' : 'elicitation/create']);
      }
    }
  }, 600_000);

  it('keeps the authorization check in front of both eras', async () => {
    const { file } = await migrate(`${name}-auth`, input);
    const port = await freeLoopbackPort();
    const child = spawn(process.execPath, [tsxCli, file], { env: { ...env, PORT: String(port), MCP_TOKEN: 'secret' }, stdio: 'ignore' });
    started.push(child);
    await waitForPort(port, 30_000, () => (child.exitCode !== null ? `exited with ${child.exitCode}` : undefined));
    const post = (message: Record<string, unknown>, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(message),
      });
    const modern = {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION } },
    };
    const legacy = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    };
    expect((await post(modern)).status).toBe(401);
    expect((await post(legacy)).status).toBe(401);
    const initialized = await post(legacy, { authorization: 'Bearer secret' });
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get('mcp-session-id')).toBeTruthy();
  }, 600_000);
});

describe.each(stateless)('a stateless Streamable HTTP server, migrated ($name)', ({ name, input, factory, args }) => {
  it('calls one handler in place of the server and transport, and reports the entry', async () => {
    const { result, output } = await migrate(name, input);
    const entries = result.report.sites.filter(s => s.kind === 'entry');
    expect(entries.map(e => e.outcome)).toEqual(['rewritten']);
    expect(entries[0]!.reason).toContain(`served by toNodeHandler(createMcpHandler(() => ${factory}))`);
    expect(result.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
    expect(output).toContain(`const mcpHandler = toNodeHandler(createMcpHandler(() => ${factory}));`);
    expect(output).toContain(`await mcpHandler(${args});`);
    expect(output).not.toMatch(/StreamableHTTPServerTransport|\.connect\(|res\.on\('close'/);
  }, 600_000);

  it('serves a 2026-07-28 client every branch of the tool that asks for input', async () => {
    const { file } = await migrate(name, input);
    const run = await runScenario({
      command: `${tsx} ${file}`,
      http: '/mcp',
      env,
      era: 'modern',
      scenario: { calls: [echo, ...confirmCalls] },
      timeoutMs: TIMEOUT,
    });
    expect(run.fatal, run.stderr).toBeUndefined();
    expect(run.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(run.calls.map(c => text(c.result))).toEqual(['hello', ...confirmCalls.map(c => c.expected)]);
    expect(run.calls[0]).toMatchObject({ rounds: 1, requests: [], violations: [] });
    for (const c of run.calls.slice(1)) {
      expect(c).toMatchObject({ rounds: 2, violations: [] });
      expect(c.requests.map(r => r.method)).toEqual(['elicitation/create']);
    }
  }, 600_000);

  it('serves a 2025-era client statelessly, as before: a tool that asks for input is refused, as it was', async () => {
    const { file } = await migrate(name, input);
    const scenario: Scenario = { calls: [echo, confirmCalls[0]!] };
    const [before, after] = await Promise.all([
      runScenario({ command: `${tsx} ${input}`, http: '/mcp', env, era: 'legacy', scenario, timeoutMs: TIMEOUT }),
      runScenario({ command: `${tsx} ${file}`, http: '/mcp', env, era: 'legacy', scenario, timeoutMs: TIMEOUT }),
    ]);
    expect(before.fatal, before.stderr).toBeUndefined();
    expect(after.fatal, after.stderr).toBeUndefined();
    expect(text(before.calls[0]!.result)).toBe('hello');
    expect(text(after.calls[0]!.result)).toBe('hello');
    // A per-request server never saw the client's initialize: the 1.x server refused the
    // elicitation, and the migrated one refuses it too, at once and without asking.
    for (const run of [before, after]) expect(run.calls[1]).toMatchObject({ rounds: 1, requests: [], result: { isError: true } });
    expect(text(before.calls[1]!.result)).toMatch(/does not support form elicitation/);
    expect(text(after.calls[1]!.result)).toMatch(/does not support form elicitation/);
  }, 600_000);
});

describe('where the handler is declared', () => {
  it('in the scope that declares the request handler, once, with a name of its own', async () => {
    const source = [
      "import { createServer } from 'node:http';",
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';",
      '',
      "const buildServer = async () => new McpServer({ name: 'inner', version: '1.0.0' });",
      '',
      'async function main(mcpHandler: number): Promise<void> {',
      '  const server = createServer(async (req, res) => {',
      '    const mcp = await buildServer();',
      '    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });',
      '    await mcp.connect(transport);',
      '    transport.handleRequest(req, res);',
      '  });',
      '  server.listen(mcpHandler);',
      '}',
      '',
      'void main(3000);',
      '',
    ].join('\n');
    const dir = path.join(work, 'declared');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'server.ts');
    const result = await migrateSources([{ path: file, text: source }], { cwd: dir });
    const output = result.changes.find(c => c.path === file)!.after;
    expect(output).toContain(
      [
        'async function main(mcpHandler: number): Promise<void> {',
        '  const mcpHandler2 = toNodeHandler(createMcpHandler(() => buildServer()));',
        '  const server = createServer(async (req, res) => {',
        '    await mcpHandler2(req, res);',
        '  });',
      ].join('\n'),
    );
    expect(result.report.sites.map(s => `${s.kind} ${s.outcome}`)).toEqual(['entry rewritten']);
  }, 600_000);
});
