/**
 * The requestState module as deployments use it: a legacy SDK 1.x server (test/request-state),
 * migrated by the pipeline into a project under the system's temp directory, served over
 * Streamable HTTP as real processes (one or two instances), and called by the real 2.x client and
 * by raw 2026-07-28 JSON-RPC where a client must send what no SDK client would (a state replayed by
 * another user, or twice). Covers: the key (none under stdio, required over HTTP, said at start), binding to the
 * authenticated user, single use, state kept by reference in a store, encryption, a real Redis
 * (node-redis and ioredis) shared by two instances, and rounds a request answers before they are asked.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';
import { freeLoopbackPort, waitForPort } from '../src/verify/http.js';
import { MODERN_PROTOCOL_VERSION } from '../src/verify/index.js';
import { CLIENT_CAPABILITIES } from '../src/verify/run.js';
import { envelope } from './support/rawMcp.js';

const root = path.resolve(import.meta.dirname, '..');
const sources = path.join(root, 'test', 'request-state');
const tsxCli = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const KEY = 'request-state-test-key-0123456789abcdef-0123';
const TIMEOUT = 20_000;

let project: string;
let migration: MigrateResult;
const running: ChildProcess[] = [];
let redisServer: ChildProcess | undefined;
let redisDir: string | undefined;

beforeAll(async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-request-state-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(project, 'node_modules'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  const files = fs.readdirSync(sources).map(f => ({ path: path.join(project, f), text: fs.readFileSync(path.join(sources, f), 'utf8') }));
  migration = await migrateSources(files, { cwd: project });
  for (const change of migration.changes) fs.writeFileSync(change.path, change.after);
  // What a deployment of several instances adds to its entry: a store they share.
  fs.writeFileSync(
    path.join(project, 'redis-entry.ts'),
    [
      "import { configureRequestState, redisStore } from './mcp-migrate-state.js';",
      'const url = process.env.REDIS_URL!;',
      "if (process.env.REDIS_CLIENT === 'ioredis') {",
      "  const { Redis } = await import('ioredis');",
      '  configureRequestState({ store: redisStore(new Redis(url)) });',
      '} else {',
      "  const { createClient } = await import('redis');",
      '  const client = createClient({ url });',
      '  await client.connect();',
      '  configureRequestState({ store: redisStore(client) });',
      '}',
      "await import('./http.js');",
      ''
    ].join('\n')
  );
}, 900_000);

// Each test's servers end with it; Redis ends with the file.
afterEach(() => {
  for (const child of running.splice(0)) child.kill();
});

afterAll(() => {
  redisServer?.kill();
  if (redisDir) fs.rmSync(redisDir, { recursive: true, force: true });
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

interface Instance {
  url: string;
  stderr: () => string;
}

/** This process's environment without the module's settings. */
function withoutStateSettings(): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of Object.keys(base)) if (name.startsWith('MCP_REQUEST_STATE_')) delete base[name];
  return base;
}

/** Starts `entry` of the migrated project on a free port, with `env` added (no inherited key). */
async function serve(env: Record<string, string>, entry = 'http.ts'): Promise<Instance> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, [tsxCli, entry], { cwd: project, env: { ...withoutStateSettings(), ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', chunk => (stderr += chunk));
  let exited: string | undefined;
  child.on('exit', code => (exited = `exited with ${code}: ${stderr}`));
  await waitForPort(port, TIMEOUT, () => exited);
  return { url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr };
}

/** `read()` once `done` holds of it (a process's output arrives when it arrives: no deadline but the test's). */
async function eventually(read: () => string, done: (text: string) => boolean): Promise<string> {
  while (!done(read())) await new Promise(resolve => setTimeout(resolve, 50));
  return read();
}

/** What a migrated server says at start without a key: what stdio needs, and what HTTP does. */
const STARTUP_MESSAGE = /MCP_REQUEST_STATE_KEY is not set\. Under stdio nothing needs configuring.*Over HTTP .*several processes or instances may serve one flow, a configured key is required.*Generate one with/;

interface Reply {
  result?: Record<string, unknown> & { requestState?: string; content?: { text: string }[] };
  error?: { code: number; message: string };
}

/** One raw 2026-07-28 `tools/call` as `token`'s user, with the per-request `_meta` envelope (unless `retry` gives its own). */
async function callTool(instance: Instance, token: string, name: string, args: Record<string, unknown>, retry: Record<string, unknown> = {}): Promise<Reply> {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: envelope(), ...retry } };
  const response = await fetch(instance.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': name
    },
    body: JSON.stringify(body)
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(5)).pop()! : text;
  return JSON.parse(json) as Reply;
}

const accept = { answer: { action: 'accept', content: { ok: true } } };
const textOf = (reply: Reply) => reply.result?.content?.map(c => c.text).join('\n');

/** Round one of `name(args)`: its sealed state. */
async function firstRound(instance: Instance, token: string, name: string, args: Record<string, unknown>): Promise<string> {
  const reply = await callTool(instance, token, name, args);
  expect(reply.result?.resultType, JSON.stringify(reply)).toBe('input_required');
  return reply.result!.requestState!;
}

const REFUSED = { code: -32602, message: 'Invalid or expired requestState' };

/** The real 2.x client on the 2026-07-28 era as `token`'s user, accepting every elicitation. */
async function modernClient(instance: Instance, token: string): Promise<Client> {
  const client = new Client({ name: 'request-state-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(instance.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

// ---------------------------------------------------------------------------------------------

describe('generation', () => {
  it('warns where a carried local looks secret, in the report and with a marker', () => {
    expect(migration.report.notes).toContainEqual(expect.stringMatching(/^tools\.ts:\d+: tools\/call secret carries "apiToken" \(read from process\.env\) in requestState, which the client can read/));
    const tools = migration.changes.find(c => c.path.endsWith('tools.ts'))!.after;
    expect(tools).toMatch(/\/\/ mcp-migrate: tools\/call secret carries "apiToken" .*\n\s+const apiToken = process\.env/);
    expect(migration.report.notes).toContainEqual(expect.stringMatching(/MCP_REQUEST_STATE_KEY .*same on every instance, before serving over HTTP/));
  });
});

describe('the key', () => {
  it('over HTTP, without a configured key, refuses each input_required round with a message that says what to set', async () => {
    const instance = await serve({});
    const client = await modernClient(instance, 'token-alice');
    const result = await client.callTool({ name: 'admin', arguments: { action: 'deploy' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/MCP_REQUEST_STATE_KEY is not set: over HTTP another instance may get the retry/);
    // what asks nothing still serves
    expect((await client.listTools()).tools.map(t => t.name)).toContain('admin');
    await client.close();
  });

  it('over HTTP with a key, a real 2026-07-28 client completes, and two instances sharing the key serve one flow', async () => {
    const [a, b] = await Promise.all([serve({ MCP_REQUEST_STATE_KEY: KEY }), serve({ MCP_REQUEST_STATE_KEY: KEY })]);
    const client = await modernClient(a, 'token-alice');
    expect(await client.callTool({ name: 'admin', arguments: { action: 'deploy' } })).toMatchObject({ content: [{ text: 'deploy (accept) as admin: true' }] });
    await client.close();
    const state = await firstRound(a, 'token-alice', 'admin', { action: 'deploy' });
    expect(textOf(await callTool(b, 'token-alice', 'admin', { action: 'deploy' }, { requestState: state, inputResponses: accept }))).toBe('deploy (accept) as admin: true');
    // and an instance with another key refuses it
    const other = await serve({ MCP_REQUEST_STATE_KEY: `${KEY}-other` });
    expect((await callTool(other, 'token-alice', 'admin', { action: 'deploy' }, { requestState: state, inputResponses: accept })).error).toMatchObject(REFUSED);
  });

  it('says at start, once on stderr, that HTTP with several processes or instances needs a configured key and stdio nothing', async () => {
    const instance = await serve({});
    // before any request
    const said = await eventually(instance.stderr, text => /MCP_REQUEST_STATE_KEY is not set/.test(text));
    expect(said).toMatch(STARTUP_MESSAGE);
    const client = await modernClient(instance, 'token-alice');
    await client.callTool({ name: 'admin', arguments: { action: 'deploy' } });
    await client.close();
    expect(instance.stderr().match(/MCP_REQUEST_STATE_KEY is not set/g)).toHaveLength(1);

    const stdio = spawn(process.execPath, [tsxCli, 'stdio.ts'], { cwd: project, env: withoutStateSettings(), stdio: ['pipe', 'ignore', 'pipe'] });
    running.push(stdio);
    let stderr = '';
    stdio.stderr!.on('data', chunk => (stderr += chunk));
    expect(await eventually(() => stderr, text => /MCP_REQUEST_STATE_KEY is not set/.test(text))).toMatch(STARTUP_MESSAGE);
  });

  it('says nothing at start when a key is configured', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    const client = await modernClient(instance, 'token-alice');
    expect(await client.callTool({ name: 'admin', arguments: { action: 'deploy' } })).toMatchObject({ content: [{ text: 'deploy (accept) as admin: true' }] });
    await client.close();
    expect(instance.stderr()).not.toMatch(/MCP_REQUEST_STATE_KEY/);
  });

  it('refuses to start with a configured key shorter than 32 bytes, saying how to generate one', async () => {
    await expect(serve({ MCP_REQUEST_STATE_KEY: 'short' })).rejects.toThrow(/MCP_REQUEST_STATE_KEY must hold at least 32 bytes\. Generate one with/);
  });
});

describe('state bound to the user', () => {
  it('refuses user A\'s state replayed by user B of the same client application, and still serves A', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    const state = await firstRound(instance, 'token-alice', 'admin', { action: 'wipe' });
    expect((await callTool(instance, 'token-bob', 'admin', { action: 'wipe' }, { requestState: state, inputResponses: accept })).error).toMatchObject(REFUSED);
    expect(textOf(await callTool(instance, 'token-alice', 'admin', { action: 'wipe' }, { requestState: state, inputResponses: accept }))).toBe('wipe (accept) as admin: true');
    // Bob's own flow is his
    const own = await firstRound(instance, 'token-bob', 'admin', { action: 'wipe' });
    expect(textOf(await callTool(instance, 'token-bob', 'admin', { action: 'wipe' }, { requestState: own, inputResponses: accept }))).toBe('wipe (accept) as admin: false');
  });
});

describe('single use and the store', () => {
  it('with MCP_REQUEST_STATE_SINGLE_USE=1, a state completes a call once; a retry lacking its answer does not use it up', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_SINGLE_USE: '1' });
    const state = await firstRound(instance, 'token-alice', 'transfer', { amount: 5 });
    const again = await callTool(instance, 'token-alice', 'transfer', { amount: 5 }, { requestState: state, inputResponses: {} });
    expect(again.result).toMatchObject({ resultType: 'input_required', requestState: state });
    const first = textOf(await callTool(instance, 'token-alice', 'transfer', { amount: 5 }, { requestState: state, inputResponses: accept }));
    expect(first).toMatch(/^transfers: \d+$/);
    expect((await callTool(instance, 'token-alice', 'transfer', { amount: 5 }, { requestState: state, inputResponses: accept })).error).toMatchObject(REFUSED);
    // without the option, the same state may be replayed within its ten minutes (the README says so)
    const replayable = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    const other = await firstRound(replayable, 'token-alice', 'transfer', { amount: 5 });
    for (let i = 0; i < 2; i++) expect(textOf(await callTool(replayable, 'token-alice', 'transfer', { amount: 5 }, { requestState: other, inputResponses: accept }))).toMatch(/^transfers: /);
  });

  it('keeps a state over 16 KiB in the store, the client holding a short reference; another instance without that store refuses it', async () => {
    const [a, b] = await Promise.all([serve({ MCP_REQUEST_STATE_KEY: KEY }), serve({ MCP_REQUEST_STATE_KEY: KEY })]);
    const state = await firstRound(a, 'token-alice', 'big', { rows: 600 });
    expect(state.length).toBeLessThan(1024);
    expect(textOf(await callTool(a, 'token-alice', 'big', { rows: 600 }, { requestState: state, inputResponses: accept }))).toBe('accept: 600 rows, last row 599:');
    expect((await callTool(b, 'token-alice', 'big', { rows: 600 }, { requestState: state, inputResponses: accept })).error).toMatchObject(REFUSED);
  });
});

describe('encryption', () => {
  const payloadText = (state: string) => Buffer.from(state.split('.')[1]!, 'base64url').toString('utf8');

  it('signed only, the client can read a carried token; with MCP_REQUEST_STATE_ENCRYPT=1 it cannot, and the flow completes', async () => {
    const env = { MCP_REQUEST_STATE_KEY: KEY, FIXTURE_API_TOKEN: 'tok-visible-0123456789' };
    const signed = await serve(env);
    expect(payloadText(await firstRound(signed, 'token-alice', 'secret', { service: 'billing' }))).toContain('tok-visible-0123456789');
    const encrypted = await serve({ ...env, MCP_REQUEST_STATE_ENCRYPT: '1' });
    const state = await firstRound(encrypted, 'token-alice', 'secret', { service: 'billing' });
    expect(payloadText(state)).not.toContain('tok-visible');
    expect(payloadText(state)).toMatch(/^\{"p":\{"box":"[\w-]+"\}/);
    expect(textOf(await callTool(encrypted, 'token-alice', 'secret', { service: 'billing' }, { requestState: state, inputResponses: accept }))).toBe('billing accept with a token of 22 characters');
    // an instance with the same key opens it whatever its own setting, so the setting can change without breaking flows
    expect(textOf(await callTool(signed, 'token-alice', 'secret', { service: 'billing' }, { requestState: state, inputResponses: accept }))).toBe('billing accept with a token of 22 characters');
  });
});

describe('answers a request carries before they are asked', () => {
  // What a sampling request offering tools may answer (content blocks), which createMessage accepted only there.
  const planned = { plan: { role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 't1', name: 'map', input: {} }], stopReason: 'toolUse' } };
  /** The envelope of a client that can answer sampling requests offering tools. */
  const samplingTools = { _meta: { ...envelope(), 'io.modelcontextprotocol/clientCapabilities': { ...CLIENT_CAPABILITIES, sampling: { tools: {} } } } };

  it('a first call that already answers its round completes in that request, ignoring keys nothing asks', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    const extra = { unknown_extra_key: { action: 'accept', content: { foo: 'bar' } } };
    expect(textOf(await callTool(instance, 'token-alice', 'admin', { action: 'deploy' }, { inputResponses: { ...accept, ...extra } }))).toBe('deploy (accept) as admin: true');
  });

  it('goes on through each round the request answers, reading each answer as that round asked it, and asks the first it does not', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    expect(textOf(await callTool(instance, 'token-alice', 'route', { city: 'Oslo' }, { ...samplingTools, inputResponses: { ...accept, ...planned } }))).toBe('Oslo accept: tool_use');
    const second = await callTool(instance, 'token-alice', 'route', { city: 'Oslo' }, { ...samplingTools, inputResponses: accept });
    expect(second.result?.resultType, JSON.stringify(second)).toBe('input_required');
    expect(Object.keys(second.result!.inputRequests as object)).toEqual(['plan']);
    expect(textOf(await callTool(instance, 'token-alice', 'route', { city: 'Oslo' }, { ...samplingTools, requestState: second.result!.requestState, inputResponses: planned }))).toBe('Oslo accept: tool_use');
    // a retry of round one that answers round two as well
    const state = await firstRound(instance, 'token-alice', 'route', { city: 'Oslo' });
    expect(textOf(await callTool(instance, 'token-alice', 'route', { city: 'Oslo' }, { ...samplingTools, requestState: state, inputResponses: { ...accept, ...planned } }))).toBe('Oslo accept: tool_use');
  });

  it('asks the client a key a loop asks again: one answer serves one round', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    const reply = await callTool(instance, 'token-alice', 'survey', { questions: ['tea?', 'cake?'] }, { inputResponses: accept });
    expect(reply.result, JSON.stringify(reply)).toMatchObject({ resultType: 'input_required', inputRequests: { answer: { params: { message: 'cake?' } } } });
    const retried = await callTool(instance, 'token-alice', 'survey', { questions: ['tea?', 'cake?'] }, { requestState: reply.result!.requestState, inputResponses: accept });
    expect(textOf(retried)).toBe('tea?=accept cake?=accept');
  });

  it('still refuses state replayed by another user, whatever answers come with it', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    const state = await firstRound(instance, 'token-alice', 'route', { city: 'Oslo' });
    expect((await callTool(instance, 'token-bob', 'route', { city: 'Oslo' }, { requestState: state, inputResponses: { ...accept, ...planned } })).error).toMatchObject(REFUSED);
  });
});

// ---------------------------------------------------------------------------------------------
// Redis: a real redis-server on a free port in a temp dir, started and stopped here.

const redisBinary = spawnSync('redis-server', ['--version']).status === 0;
if (!redisBinary) {
  if (process.env.CI) throw new Error('redis-server is not installed: .ci/run installs it (apt-get install -y redis-server)');
  console.warn('request-state.test.ts: redis-server is not installed (apt-get install -y redis-server): the Redis store tests are skipped');
}

describe.skipIf(!redisBinary)('a Redis store shared by two instances', () => {
  let redisUrl: string;

  beforeAll(async () => {
    const port = await freeLoopbackPort();
    redisDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-redis-'));
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', redisDir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    redisServer = redis;
    let exited: string | undefined;
    redis.on('exit', code => (exited = `redis-server exited with ${code}`));
    await waitForPort(port, TIMEOUT, () => exited);
    redisUrl = `redis://127.0.0.1:${port}`;
  });

  for (const client of ['redis', 'ioredis']) {
    it(`(${client}) a state is used once across instances, and one kept by reference is found by the other`, async () => {
      const env = { MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_SINGLE_USE: '1', REDIS_URL: redisUrl, REDIS_CLIENT: client };
      const [a, b] = await Promise.all([serve(env, 'redis-entry.ts'), serve(env, 'redis-entry.ts')]);
      const state = await firstRound(a, 'token-alice', 'transfer', { amount: 1 });
      expect(textOf(await callTool(b, 'token-alice', 'transfer', { amount: 1 }, { requestState: state, inputResponses: accept }))).toMatch(/^transfers: 1$/);
      expect((await callTool(a, 'token-alice', 'transfer', { amount: 1 }, { requestState: state, inputResponses: accept })).error).toMatchObject(REFUSED);
      const big = await firstRound(a, 'token-alice', 'big', { rows: 600 });
      expect(big.length).toBeLessThan(1024);
      expect(textOf(await callTool(b, 'token-alice', 'big', { rows: 600 }, { requestState: big, inputResponses: accept }))).toBe('accept: 600 rows, last row 599:');
    });
  }
});
