/**
 * Streamable HTTP entries, end to end: the http-stateless and http-sessionful fixtures (node:http)
 * and the SDK 1.x README's Express setups (test/http-servers/), migrated by the whole pipeline, run as real processes on a loopback port and called by real SDK clients
 * over Streamable HTTP, the 2026-07-28 client (@modelcontextprotocol/client) and the 2025-era one
 * (@modelcontextprotocol/sdk 1.x), with scripted answers to every elicitation and sampling request.
 *
 * Every POST the clients send is recorded: on 2026-07-28 a request for input must come back as
 * input_required and a retry of the call (no JSON-RPC response posted back to the server), on the
 * 2025 era as a server-initiated request the client answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';
import { CLIENT_CAPABILITIES, MODERN_PROTOCOL_VERSION, normalizeRequest } from '../src/verify/index.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, '__testfixtures__');
const work = path.join(root, '.tmp', 'http-entry');
const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const TOKEN = 'token-for-the-http-entry-test';
const env = { ...process.env, MCP_REQUEST_STATE_KEY: 'test-key-for-request-state-0123456789abcdef', MCP_TOKEN: TOKEN };

type Era = 'legacy' | 'modern';
type Answer = Record<string, unknown>;

interface Served {
  url: URL;
  child: ChildProcess;
  stderr: () => string;
}

const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a server module on a free loopback port and waits until it accepts connections. */
async function serve(file: string): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, [tsx, file], { cwd: path.dirname(file), env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', chunk => (stderr += String(chunk)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${path.basename(file)} exited with ${child.exitCode}\n${stderr}`);
    const open = await new Promise<boolean>(resolve => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`${path.basename(file)} did not listen on ${port}\n${stderr}`);
    await new Promise(r => setTimeout(r, 100));
  }
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), child, stderr: () => stderr };
}

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

interface Call {
  tool: string;
  args: Record<string, unknown>;
  /** Answers to the input requests of the call, in order. */
  answers?: Answer[];
}

interface Outcome {
  result?: unknown;
  error?: string;
  /** The input requests the client was asked (method and params), in order. */
  asked: { method: string; params: unknown }[];
  /** How many times the client POSTed this tools/call (1 + the retries after input_required). */
  sends: number;
  /** JSON-RPC responses the client POSTed: answers to server-initiated requests. */
  answered: number;
}

/** Connects a client of the era over Streamable HTTP and makes the calls in order. */
async function run(era: Era, url: URL, calls: Call[], timeout = 15_000): Promise<{ protocolVersion?: string; outcomes: Outcome[] }> {
  let current: { call: Call; outcome: Outcome } | undefined;
  const ask = (method: string, params: unknown): Answer => {
    if (!current) throw new Error(`${method} asked outside a call`);
    current.outcome.asked.push({ method, params });
    const answer = current.call.answers?.[current.outcome.asked.length - 1];
    if (!answer) throw new Error(`no scripted answer for ${method} #${current.outcome.asked.length}`);
    return answer;
  };
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (current && init?.method === 'POST' && typeof init.body === 'string') {
      const messages = ([] as Record<string, unknown>[]).concat(JSON.parse(init.body));
      for (const m of messages) {
        if (m.method === 'tools/call') current.outcome.sends++;
        if (m.method === undefined && m.id !== undefined) current.outcome.answered++;
      }
    }
    return fetch(input, init);
  };
  const requestInit = { headers: { authorization: `Bearer ${TOKEN}` } };
  let version: string | undefined;
  let callTool: (call: Call) => Promise<unknown>;
  let close: () => Promise<void>;
  if (era === 'legacy') {
    const client = new LegacyClient({ name: 'http-entry-test', version: '1.0.0' }, { capabilities: structuredClone(CLIENT_CAPABILITIES) });
    client.setRequestHandler(ElicitRequestSchema, request => ask(request.method, request.params) as never);
    client.setRequestHandler(CreateMessageRequestSchema, request => ask(request.method, request.params) as never);
    const transport = new LegacyHttpTransport(url, { requestInit, fetch: recordingFetch });
    await client.connect(transport, { timeout });
    version = transport.protocolVersion;
    callTool = call => client.callTool({ name: call.tool, arguments: call.args }, CallToolResultSchema, { timeout });
    close = async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    };
  } else {
    const client = new ModernClient({ name: 'http-entry-test', version: '1.0.0' }, { capabilities: structuredClone(CLIENT_CAPABILITIES), versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } });
    client.setRequestHandler('elicitation/create', request => ask(request.method, request.params) as never);
    client.setRequestHandler('sampling/createMessage', request => ask(request.method, request.params) as never);
    await client.connect(new ModernHttpTransport(url, { requestInit, fetch: recordingFetch }), { timeout });
    version = client.getNegotiatedProtocolVersion();
    callTool = call => client.callTool({ name: call.tool, arguments: call.args }, { timeout });
    close = () => client.close();
  }
  const outcomes: Outcome[] = [];
  try {
    for (const call of calls) {
      const outcome: Outcome = { asked: [], sends: 0, answered: 0 };
      current = { call, outcome };
      try {
        outcome.result = await callTool(call);
      } catch (error) {
        outcome.error = (error as Error).message;
      }
      current = undefined;
      outcomes.push(outcome);
    }
  } finally {
    await close();
  }
  return { protocolVersion: version, outcomes };
}

const text = (outcome: Outcome): unknown => (outcome.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text ?? outcome.error;

const confirmCalls: (Call & { expected: string })[] = [
  { tool: 'confirm', args: { action: 'deploy' }, answers: [{ action: 'accept', content: { sure: true } }], expected: 'deploy: done' },
  { tool: 'confirm', args: { action: 'deploy' }, answers: [{ action: 'accept', content: { sure: false } }], expected: 'deploy: kept' },
  { tool: 'confirm', args: { action: 'wipe' }, answers: [{ action: 'decline' }], expected: 'wipe: decline' },
  { tool: 'confirm', args: { action: 'wipe' }, answers: [{ action: 'cancel' }], expected: 'wipe: cancel' }
];
const haiku = { role: 'assistant', content: { type: 'text', text: 'Rain on the tin roof' }, model: 'scripted' };

beforeAll(() => fs.mkdirSync(work, { recursive: true }));
afterAll(() => {
  for (const child of children) child.kill();
});

const servers = path.join(root, 'test', 'http-servers');
const sessionful = [
  { name: 'http-sessionful', input: path.join(fixtures, 'http-sessionful.input.ts'), factory: 'buildServer()', body: 'body' },
  { name: 'express-sessionful', input: path.join(servers, 'express-sessionful.ts'), factory: 'getServer()', body: 'req.body' }
];
const stateless = [
  { name: 'http-stateless', input: path.join(fixtures, 'http-stateless.input.ts'), factory: 'buildServer()', args: 'req, res' },
  { name: 'express-stateless', input: path.join(servers, 'express-stateless.ts'), factory: 'getServer()', args: 'req, res, req.body' }
];

describe.each(sessionful)('a sessionful Streamable HTTP server, migrated ($name)', ({ name, input, factory, body }) => {
  const calls: Call[] = [...confirmCalls, { tool: 'haiku', args: { topic: 'rain' }, answers: [haiku] }];
  const expected = [...confirmCalls.map(c => c.expected), 'Rain on the tin roof'];
  let before: Served;
  let after: Served;
  let migration: MigrateResult;
  let output: string;

  beforeAll(async () => {
    const migrated = await migrate(name, input);
    migration = migrated.result;
    output = migrated.output;
    [before, after] = await Promise.all([serve(input), serve(migrated.file)]);
  }, 120_000);

  it('reports the entry as rewritten and routes 2026-07-28 requests before the session is read', () => {
    const entries = migration.report.sites.filter(s => s.kind === 'entry');
    expect(entries.map(e => e.outcome)).toEqual(['rewritten']);
    expect(entries[0]!.reason).toContain(`routed (isLegacyRequest) to toNodeHandler(createMcpHandler(() => ${factory}, { legacy: 'reject' }))`);
    expect(migration.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
    expect(output).toContain(`const mcpHandler = toNodeHandler(createMcpHandler(() => ${factory}, { legacy: 'reject' }));`);
    expect(output).toContain(`if (!(await isLegacyRequest(await toWebRequest(req, ${body})))) {\n    await mcpHandler(req, res, ${body});\n    return;\n  }\n  const sessionId`);
  });

  it('gives a 2025-era client of the original, a 2026-07-28 client and a 2025-era client of the migrated server the same results', async () => {
    const original = await run('legacy', before.url, calls);
    const modern = await run('modern', after.url, calls);
    const shim = await run('legacy', after.url, calls);
    expect(original.outcomes.map(text), before.stderr()).toEqual(expected);
    expect(modern.outcomes.map(text), after.stderr()).toEqual(expected);
    expect(shim.outcomes.map(text), after.stderr()).toEqual(expected);
    expect(modern.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(shim.protocolVersion).not.toBe(MODERN_PROTOCOL_VERSION);
    expect(original.protocolVersion).not.toBe(MODERN_PROTOCOL_VERSION);
    for (let i = 0; i < calls.length; i++) {
      // The same input request was asked on every run...
      // (protocol metadata such as the shim's progressToken aside).
      const asked = (o: Outcome) => o.asked.map(normalizeRequest);
      expect(asked(modern.outcomes[i]!)).toEqual(asked(original.outcomes[i]!));
      expect(asked(shim.outcomes[i]!)).toEqual(asked(original.outcomes[i]!));
      expect(original.outcomes[i]!.asked.map(a => a.method)).toEqual([calls[i]!.tool === 'haiku' ? 'sampling/createMessage' : 'elicitation/create']);
      // ...as input_required and a retry on 2026-07-28, as a server-initiated request on the 2025 era.
      expect(modern.outcomes[i]).toMatchObject({ sends: 2, answered: 0 });
      expect(shim.outcomes[i]).toMatchObject({ sends: 1, answered: 1 });
      expect(original.outcomes[i]).toMatchObject({ sends: 1, answered: 1 });
    }
  }, 120_000);

  it('still checks the credentials first: routing comes after the authorization check', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION } } },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }
    ]) {
      const response = await fetch(after.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
      expect(response.status, body.method).toBe(401);
    }
  }, 30_000);
});

describe.each(stateless)('a stateless Streamable HTTP server, migrated ($name)', ({ name, input, factory, args }) => {
  const echo: Call = { tool: 'echo', args: { text: 'hello' } };
  let before: Served;
  let after: Served;
  let migration: MigrateResult;
  let output: string;

  beforeAll(async () => {
    const migrated = await migrate(name, input);
    migration = migrated.result;
    output = migrated.output;
    [before, after] = await Promise.all([serve(input), serve(migrated.file)]);
  }, 120_000);

  it('reports the entry as rewritten: one handler call in place of the server and transport', () => {
    const entries = migration.report.sites.filter(s => s.kind === 'entry');
    expect(entries.map(e => e.outcome)).toEqual(['rewritten']);
    expect(entries[0]!.reason).toContain(`served by toNodeHandler(createMcpHandler(() => ${factory}))`);
    expect(migration.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
    expect(output).toContain(`const mcpHandler = toNodeHandler(createMcpHandler(() => ${factory}));`);
    expect(output).toContain(`await mcpHandler(${args});`);
    expect(output).not.toMatch(/StreamableHTTPServerTransport|\.connect\(|res\.on\('close'/);
  });

  it('serves a 2026-07-28 client every branch of the tool that asks for input, and the plain tool', async () => {
    const modern = await run('modern', after.url, [echo, ...confirmCalls]);
    expect(modern.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(modern.outcomes.map(text), after.stderr()).toEqual(['hello', ...confirmCalls.map(c => c.expected)]);
    expect(modern.outcomes[0]).toMatchObject({ sends: 1, answered: 0, asked: [] });
    for (const outcome of modern.outcomes.slice(1)) {
      expect(outcome).toMatchObject({ sends: 2, answered: 0 });
      expect(outcome.asked.map(a => a.method)).toEqual(['elicitation/create']);
    }
  }, 120_000);

  it('serves a 2025-era client statelessly, as before: the plain tool works, a tool that asks for input is refused as it was', async () => {
    const original = await run('legacy', before.url, [echo, confirmCalls[0]!]);
    const shim = await run('legacy', after.url, [echo, confirmCalls[0]!]);
    expect(original.outcomes.map(text)[0], before.stderr()).toBe('hello');
    expect(shim.outcomes.map(text)[0], after.stderr()).toBe('hello');
    // A per-request server never saw the client's initialize: the 1.x server refused the
    // elicitation, and the migrated one refuses it too, at once and without asking.
    expect(original.outcomes[1]).toMatchObject({ asked: [], answered: 0, result: { isError: true } });
    expect(text(original.outcomes[1]!)).toMatch(/does not support form elicitation/);
    expect(shim.outcomes[1]).toMatchObject({ asked: [], answered: 0, result: { isError: true } });
    expect(text(shim.outcomes[1]!)).toMatch(/did not declare the required capability .*per-request legacy serving cannot receive server-to-client requests/);
  }, 120_000);
});
