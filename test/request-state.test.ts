/**
 * The requestState module as deployments use it: a legacy SDK 1.x server (test/request-state),
 * migrated by the pipeline into a project under the system's temp directory, served over
 * Streamable HTTP as real processes (one or more instances), and called by the real 2.x client and
 * by raw 2026-07-28 JSON-RPC where a client must send what no SDK client would (a state replayed by
 * another user, twice, or five times at once). Every write the fixture makes is a line in a log these
 * tests count. Covers the defaults (encrypted, used once, bound to the user), the key (none needed by
 * one process, a keyring rotated with flows in progress), the store (refused in memory behind a shared
 * key, capped, holding large states), what the client is told and what the log is, and a real Redis
 * (node-redis and ioredis, configured after an async connect) shared by two instances.
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
import { eventually } from './support/eventually.js';
import { envelope } from './support/rawMcp.js';

const root = path.resolve(import.meta.dirname, '..');
const sources = path.join(root, 'test', 'request-state');
const tsxCli = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const KEY = 'request-state-test-key-0123456789abcdef-0123';
const NEW_KEY = 'request-state-rotated-key-fedcba9876543210-0123';
/** No deadline of its own: a slow start is waited for, up to the test's own timeout. */
const NO_DEADLINE = 3_600_000;

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
  // What a deployment of several instances adds to its entry: a store they share, configured once its client has connected.
  fs.writeFileSync(
    path.join(project, 'redis-entry.ts'),
    [
      "import { configureRequestState, redisStore } from './mcp-migrate-state.js';",
      "await import('./http.js');",
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
      // Listening before the store is configured: the port is not a sign of readiness here.
      "console.error('store configured');",
      '',
    ].join('\n'),
  );
  // One instance whose memory store holds three entries.
  fs.writeFileSync(
    path.join(project, 'small-store-entry.ts'),
    "import { configureRequestState, memoryStore } from './mcp-migrate-state.js';\nconfigureRequestState({ store: memoryStore({ maxEntries: 3 }) });\nawait import('./http.js');\n",
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

/** Starts `entry` of the migrated project on a free port, with `env` added (no inherited setting). */
async function serve(env: Record<string, string>, entry = 'http.ts'): Promise<Instance> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, [tsxCli, entry], {
    cwd: project,
    env: { ...withoutStateSettings(), ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', chunk => (stderr += chunk));
  let exited: string | undefined;
  child.on('exit', code => (exited = `exited with ${code}: ${stderr}`));
  await waitForPort(port, NO_DEADLINE, () => exited);
  return { url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr };
}

/** A fresh log for the fixture's writes. */
function newLog(): { env: { FIXTURE_LOG: string }; lines: () => string[] } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-request-state-log-')), 'writes.log');
  fs.writeFileSync(file, '');
  return {
    env: { FIXTURE_LOG: file },
    lines: () =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(l => l !== ''),
  };
}

/** What a migrated server says at start without a key. */
const STARTUP_MESSAGE =
  /MCP_REQUEST_STATE_KEY is not set: requestState is sealed with a key of this process's own, which is enough under stdio and for one HTTP instance\. When several instances serve one server, give them all the same key\. Generate one with/;
/** What the client is told of a misconfigured server: nothing of its configuration. */
const NOT_CONFIGURED = 'requestState is not configured on this server';

interface Reply {
  result?: Record<string, unknown> & {
    requestState?: string;
    content?: { text: string }[];
    isError?: boolean;
    inputRequests?: Record<string, unknown>;
  };
  error?: { code: number; message: string };
}

/** One raw 2026-07-28 `tools/call` as `token`'s user, with the per-request `_meta` envelope (unless `retry` gives its own). */
async function callTool(
  instance: Instance,
  token: string,
  name: string,
  args: Record<string, unknown>,
  retry: Record<string, unknown> = {},
): Promise<Reply> {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: envelope(), ...retry } };
  const response = await fetch(instance.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter(l => l.startsWith('data:'))
        .map(l => l.slice(5))
        .pop()!
    : text;
  return JSON.parse(json) as Reply;
}

const ok = { action: 'accept' as const, content: { ok: true } };
const accept = { answer: ok };
const textOf = (reply: Reply) => reply.result?.content?.map(c => c.text).join('\n');

/** The first round of `name(args)` (or the round `retry` continues): its sealed state, and the keys it asks. */
async function round(
  instance: Instance,
  token: string,
  name: string,
  args: Record<string, unknown>,
  retry: Record<string, unknown> = {},
): Promise<string> {
  const reply = await callTool(instance, token, name, args, retry);
  expect(reply.result?.resultType, JSON.stringify(reply)).toBe('input_required');
  return reply.result!.requestState!;
}

/** remove's two rounds: the state of its final round, which the retry answering `really` completes. */
async function finalRoundOfRemove(instance: Instance, file: string): Promise<string> {
  const first = await round(instance, 'token-alice', 'remove', { file });
  return round(instance, 'token-alice', 'remove', { file }, { requestState: first, inputResponses: { sure: ok } });
}

const REFUSED = { code: -32602, message: 'Invalid or expired requestState' };

/** A refusal inside the handler: an isError result whose text matches. */
function expectToolRefusal(reply: Reply, message: RegExp): void {
  expect(reply.error, JSON.stringify(reply)).toBeUndefined();
  expect(reply.result?.isError, JSON.stringify(reply)).toBe(true);
  expect(textOf(reply)).toMatch(message);
}

/** The real 2.x client on the 2026-07-28 era as `token`'s user, accepting every elicitation. */
async function modernClient(instance: Instance, token: string): Promise<Client> {
  const client = new Client(
    { name: 'request-state-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } },
  );
  client.setRequestHandler('elicitation/create', async () => ok);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(instance.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** The payload a sealed state carries, as the client can read it. */
const payloadText = (state: string) => Buffer.from(state.split('.')[1]!, 'base64url').toString('utf8');

// ---------------------------------------------------------------------------------------------

describe('generation', () => {
  it('rewrites every request, journals the work done before a question, and nothing done after the last', () => {
    expect(migration.report.sites.length).toBeGreaterThan(10);
    expect(migration.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
    const tools = migration.changes.find(c => c.path.endsWith('tools.ts'))!.after;
    expect(tools).toContain('const table = await journaled(() => query(rows));');
    expect(tools).toContain('const session = await journaled(() => login(service));');
    expect(tools).toContain('journaled(() => write(`archived ${file}`));');
    // remove and buy write after their last question: once, on the round that completes
    expect(tools).toContain('    write(`removed ${file}`);');
    expect(tools).toContain('    write(`bought ${item} at ${price}`);');
    expect(migration.report.notes).toContainEqual(expect.stringMatching(/MCP_REQUEST_STATE_KEY .*a store they share/));
  });
});

describe('the key', () => {
  it("is not needed by one process: a real 2026-07-28 client completes over HTTP, and another instance refuses that process's state", async () => {
    const [a, b] = await Promise.all([serve({}), serve({})]);
    const client = await modernClient(a, 'token-alice');
    expect(await client.callTool({ name: 'admin', arguments: { action: 'deploy' } })).toMatchObject({
      content: [{ text: 'deploy (accept) as admin: true' }],
    });
    await client.close();
    const state = await round(a, 'token-alice', 'admin', { action: 'deploy' });
    expect(
      (await callTool(b, 'token-alice', 'admin', { action: 'deploy' }, { requestState: state, inputResponses: accept })).error,
    ).toMatchObject(REFUSED);
    expect(textOf(await callTool(a, 'token-alice', 'admin', { action: 'deploy' }, { requestState: state, inputResponses: accept }))).toBe(
      'deploy (accept) as admin: true',
    );
  });

  it('without one, says at start, once on stderr, what one process needs and what several do; under stdio too', async () => {
    const instance = await serve({});
    // before any request
    expect(await eventually(instance.stderr, text => /MCP_REQUEST_STATE_KEY is not set/.test(text))).toMatch(STARTUP_MESSAGE);
    const client = await modernClient(instance, 'token-alice');
    await client.callTool({ name: 'admin', arguments: { action: 'deploy' } });
    await client.close();
    expect(instance.stderr().match(/MCP_REQUEST_STATE_KEY is not set/g)).toHaveLength(1);

    const stdio = spawn(process.execPath, [tsxCli, 'stdio.ts'], {
      cwd: project,
      env: withoutStateSettings(),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    running.push(stdio);
    let stderr = '';
    stdio.stderr!.on('data', chunk => (stderr += chunk));
    expect(
      await eventually(
        () => stderr,
        text => /MCP_REQUEST_STATE_KEY is not set/.test(text),
      ),
    ).toMatch(STARTUP_MESSAGE);
  });

  it("shared over HTTP, refuses a store in one process's memory: the client is told only that requestState is not configured, the log once what to configure", async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY });
    for (let i = 0; i < 2; i++) {
      expectToolRefusal(await callTool(instance, 'token-alice', 'admin', { action: 'deploy' }), new RegExp(`^${NOT_CONFIGURED}$`));
    }
    const client = await modernClient(instance, 'token-alice');
    const result = await client.callTool({ name: 'admin', arguments: { action: 'deploy' } });
    expect(result).toMatchObject({ isError: true, content: [{ text: NOT_CONFIGURED }] });
    // what asks nothing still serves
    expect(await client.callTool({ name: 'set-price', arguments: { price: 5 } })).toMatchObject({ content: [{ text: 'price: 5' }] });
    await client.close();
    const log = await eventually(instance.stderr, text => /nonces are kept in this process's memory/.test(text));
    expect(log).toMatch(
      /MCP_REQUEST_STATE_KEY is set, so several instances may serve this server, but requestState nonces are kept in this process's memory.*configureRequestState\(\{ store: redisStore\(client\) \}\).*MCP_REQUEST_STATE_STORE=memory/,
    );
    expect(log.match(/nonces are kept in this process's memory/g)).toHaveLength(1);
    expect(log).not.toMatch(/MCP_REQUEST_STATE_KEY is not set/);
  });

  it('with MCP_REQUEST_STATE_STORE=memory (one instance), serves a real client and says nothing at start', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory' });
    const client = await modernClient(instance, 'token-alice');
    expect(await client.callTool({ name: 'admin', arguments: { action: 'deploy' } })).toMatchObject({
      content: [{ text: 'deploy (accept) as admin: true' }],
    });
    expect(await client.callTool({ name: 'remove', arguments: { file: 'a.txt' } })).toMatchObject({ content: [{ text: 'removed a.txt' }] });
    await client.close();
    expect(instance.stderr()).toBe('');
  });

  it('refuses to start with a key of the list shorter than 32 bytes, saying how to generate one', async () => {
    for (const key of ['short', `${KEY},short`]) {
      await expect(serve({ MCP_REQUEST_STATE_KEY: key })).rejects.toThrow(
        /MCP_REQUEST_STATE_KEY must hold keys of at least 32 bytes each\. Generate one with/,
      );
    }
  });
});

describe('a keyring, rotated with flows in progress', () => {
  it('in three steps (add the new key second, put it first, drop the old), every flow started on the way completes', async () => {
    const env = (keys: string) => ({ MCP_REQUEST_STATE_KEY: keys, MCP_REQUEST_STATE_STORE: 'memory' });
    const [old, added, first, dropped] = await Promise.all([
      serve(env(KEY)),
      serve(env(`${KEY},${NEW_KEY}`)),
      serve(env(`${NEW_KEY},${KEY}`)),
      serve(env(NEW_KEY)),
    ]);
    const route = (instance: Instance, retry: Record<string, unknown>) =>
      callTool(instance, 'token-alice', 'route', { city: 'Oslo' }, { _meta: samplingTools, ...retry });
    // Begun before the rotation, continued on an instance that seals with the new key, ended on one still listing the old one second.
    const begun = await round(old, 'token-alice', 'route', { city: 'Oslo' });
    const continued = await route(first, { requestState: begun, inputResponses: accept });
    expect(continued.result?.resultType, JSON.stringify(continued)).toBe('input_required');
    expect(textOf(await route(added, { requestState: continued.result!.requestState, inputResponses: planned }))).toBe(
      'Oslo accept: tool_use',
    );
    // An instance on the second step seals with the new key, which one still on the first step opens too.
    const sealedNew = await round(first, 'token-alice', 'admin', { action: 'deploy' });
    expect(
      textOf(await callTool(added, 'token-alice', 'admin', { action: 'deploy' }, { requestState: sealedNew, inputResponses: accept })),
    ).toBe('deploy (accept) as admin: true');
    // Why the first step comes first: an instance that lacks the new key refuses what it sealed.
    expect(
      (
        await callTool(
          old,
          'token-alice',
          'admin',
          { action: 'deploy' },
          { requestState: await round(first, 'token-alice', 'admin', { action: 'deploy' }), inputResponses: accept },
        )
      ).error,
    ).toMatchObject(REFUSED);
    // Once the old key is dropped, a state it sealed is refused; the new key's still open.
    expect(
      (
        await callTool(
          dropped,
          'token-alice',
          'admin',
          { action: 'deploy' },
          { requestState: await round(old, 'token-alice', 'admin', { action: 'deploy' }), inputResponses: accept },
        )
      ).error,
    ).toMatchObject(REFUSED);
    expect(
      textOf(
        await callTool(
          dropped,
          'token-alice',
          'admin',
          { action: 'deploy' },
          { requestState: await round(first, 'token-alice', 'admin', { action: 'deploy' }), inputResponses: accept },
        ),
      ),
    ).toBe('deploy (accept) as admin: true');
  });
});

describe('state bound to the user', () => {
  it("refuses user A's state replayed by user B of the same client application, and still serves A (a refusal by the binding uses nothing up)", async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory' });
    const state = await round(instance, 'token-alice', 'admin', { action: 'wipe' });
    expect(
      (await callTool(instance, 'token-bob', 'admin', { action: 'wipe' }, { requestState: state, inputResponses: accept })).error,
    ).toMatchObject(REFUSED);
    expect(
      textOf(await callTool(instance, 'token-alice', 'admin', { action: 'wipe' }, { requestState: state, inputResponses: accept })),
    ).toBe('wipe (accept) as admin: true');
    // Bob's own flow is his
    const own = await round(instance, 'token-bob', 'admin', { action: 'wipe' });
    expect(textOf(await callTool(instance, 'token-bob', 'admin', { action: 'wipe' }, { requestState: own, inputResponses: accept }))).toBe(
      'wipe (accept) as admin: false',
    );
    expect(instance.stderr()).toBe('');
  });

  it('finds the user in the common OIDC claims (preferred_username) without configuration', async () => {
    const log = newLog();
    const instance = await serve({
      MCP_REQUEST_STATE_KEY: KEY,
      MCP_REQUEST_STATE_STORE: 'memory',
      FIXTURE_USER_CLAIM: 'preferred_username',
      ...log.env,
    });
    const state = await finalRoundOfRemove(instance, 'alice.txt');
    expect(
      (await callTool(instance, 'token-bob', 'remove', { file: 'alice.txt' }, { requestState: state, inputResponses: { really: ok } }))
        .error,
    ).toMatchObject(REFUSED);
    expect(log.lines()).toEqual([]);
    expect(instance.stderr()).toBe('');
  });

  it('says once in the log when an authenticated request names no user in a claim it knows; MCP_REQUEST_STATE_USER_CLAIM names it, and binds again', async () => {
    const log = newLog();
    const unbound = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory', FIXTURE_USER_CLAIM: 'login', ...log.env });
    const first = await round(unbound, 'token-alice', 'admin', { action: 'deploy' });
    await round(unbound, 'token-bob', 'admin', { action: 'deploy' });
    const said = await eventually(unbound.stderr, text => /bound to the OAuth client but to no user/.test(text));
    expect(said).toMatch(
      /the token's authInfo\.extra has none of sub, oid, userId, user_id, uid, preferred_username, username, upn, email, name.*MCP_REQUEST_STATE_USER_CLAIM/,
    );
    expect(said.match(/to no user/g)).toHaveLength(1);
    // What that leaves open, which the log warned of: bound to the client application only.
    expect(
      textOf(await callTool(unbound, 'token-bob', 'admin', { action: 'deploy' }, { requestState: first, inputResponses: accept })),
    ).toBe('deploy (accept) as admin: false');

    const bound = await serve({
      MCP_REQUEST_STATE_KEY: KEY,
      MCP_REQUEST_STATE_STORE: 'memory',
      FIXTURE_USER_CLAIM: 'login',
      MCP_REQUEST_STATE_USER_CLAIM: 'login',
      ...log.env,
    });
    const state = await finalRoundOfRemove(bound, 'alice.txt');
    expect(
      (await callTool(bound, 'token-bob', 'remove', { file: 'alice.txt' }, { requestState: state, inputResponses: { really: ok } })).error,
    ).toMatchObject(REFUSED);
    expect(
      textOf(
        await callTool(bound, 'token-alice', 'remove', { file: 'alice.txt' }, { requestState: state, inputResponses: { really: ok } }),
      ),
    ).toBe('removed alice.txt');
    expect(log.lines()).toEqual(['removed alice.txt']);
    expect(bound.stderr()).toBe('');
  });
});

describe('single use, by default', () => {
  it('a final round replayed, five times at once, or an earlier round replayed after it: refused, and the write is done once', async () => {
    const log = newLog();
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory', ...log.env });
    const first = await round(instance, 'token-alice', 'remove', { file: 'a.txt' });
    const last = await round(instance, 'token-alice', 'remove', { file: 'a.txt' }, { requestState: first, inputResponses: { sure: ok } });
    const finish = (state: string) =>
      callTool(instance, 'token-alice', 'remove', { file: 'a.txt' }, { requestState: state, inputResponses: { sure: ok, really: ok } });
    expect(textOf(await finish(last))).toBe('removed a.txt');
    expect((await finish(last)).error).toMatchObject(REFUSED);
    expect((await finish(first)).error).toMatchObject(REFUSED);
    expect(log.lines()).toEqual(['removed a.txt']);
    // A final round's state sent five times at once: one completes.
    const state = await finalRoundOfRemove(instance, 'b.txt');
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        callTool(instance, 'token-alice', 'remove', { file: 'b.txt' }, { requestState: state, inputResponses: { really: ok } }),
      ),
    );
    expect(replies.filter(r => textOf(r) === 'removed b.txt')).toHaveLength(1);
    expect(replies.filter(r => r.error?.code === REFUSED.code && r.error.message === REFUSED.message)).toHaveLength(4);
    expect(log.lines()).toEqual(['removed a.txt', 'removed b.txt']);
  });

  it('a restart forgets the nonces kept in memory, so the restarted instance refuses every state issued before it started, used or not', async () => {
    const log = newLog();
    const env = { MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory', ...log.env };
    const before = await serve(env);
    const used = await finalRoundOfRemove(before, 'used');
    expect(
      textOf(await callTool(before, 'token-alice', 'remove', { file: 'used' }, { requestState: used, inputResponses: { really: ok } })),
    ).toBe('removed used');
    const pending = await finalRoundOfRemove(before, 'pending');
    const child = running.pop()!;
    await new Promise(resolve => child.once('exit', resolve).kill());
    const after = await serve(env);
    for (const [file, state] of [
      ['used', used],
      ['pending', pending],
    ]) {
      expect(
        (await callTool(after, 'token-alice', 'remove', { file }, { requestState: state, inputResponses: { really: ok } })).error,
        file,
      ).toMatchObject(REFUSED);
    }
    expect(log.lines()).toEqual(['removed used']);
    expect(
      textOf(
        await callTool(
          after,
          'token-alice',
          'remove',
          { file: 'pending' },
          { requestState: await finalRoundOfRemove(after, 'pending'), inputResponses: { really: ok } },
        ),
      ),
    ).toBe('removed pending');
  });

  it('a retry lacking the answer its round asked for is refused, and uses the state up', async () => {
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory' });
    const state = await round(instance, 'token-alice', 'transfer', { amount: 5 });
    expectToolRefusal(
      await callTool(instance, 'token-alice', 'transfer', { amount: 5 }, { requestState: state, inputResponses: {} }),
      /the retry carries no answer to "answer", which its round asked/,
    );
    expect(
      (await callTool(instance, 'token-alice', 'transfer', { amount: 5 }, { requestState: state, inputResponses: accept })).error,
    ).toMatchObject(REFUSED);
  });

  it('switched off (MCP_REQUEST_STATE_SINGLE_USE=0), the replayed final round writes again: what the default prevents', async () => {
    const log = newLog();
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_SINGLE_USE: '0', ...log.env });
    const state = await finalRoundOfRemove(instance, 'a.txt');
    for (let i = 0; i < 2; i++)
      expect(
        textOf(
          await callTool(instance, 'token-alice', 'remove', { file: 'a.txt' }, { requestState: state, inputResponses: { really: ok } }),
        ),
      ).toBe('removed a.txt');
    expect(log.lines()).toEqual(['removed a.txt', 'removed a.txt']);
    // No nonces to share: a shared key needs no shared store then.
    expect(instance.stderr()).toBe('');
  });
});

describe('the store', () => {
  it('keeps a state over 16 KiB (journaled rows), the client holding a short reference; another instance without that store refuses it', async () => {
    const env = { MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory' };
    const [a, b] = await Promise.all([serve(env), serve(env)]);
    const state = await round(a, 'token-alice', 'big', { rows: 600 });
    expect(state.length).toBeLessThan(1024);
    expect(textOf(await callTool(a, 'token-alice', 'big', { rows: 600 }, { requestState: state, inputResponses: accept }))).toBe(
      'accept: 600 rows, last row 599',
    );
    const other = await round(a, 'token-alice', 'big', { rows: 600 });
    expect((await callTool(b, 'token-alice', 'big', { rows: 600 }, { requestState: other, inputResponses: accept })).error).toMatchObject(
      REFUSED,
    );
  });

  it('capped, evicts its oldest entries, says so once, and refuses the states issued before them (their nonces may be gone)', async () => {
    const log = newLog();
    const instance = await serve({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory', ...log.env }, 'small-store-entry.ts');
    const files = ['1', '2', '3', '4'];
    const states = new Map<string, string>();
    const finish = (file: string) =>
      callTool(instance, 'token-alice', 'archive', { file }, { requestState: states.get(file), inputResponses: accept });
    // Three flows of one round each fill the store with their three nonces.
    for (const file of files.slice(0, 3)) {
      states.set(file, await round(instance, 'token-alice', 'archive', { file }));
      expect(textOf(await finish(file))).toBe(`archived ${file} (accept)`);
    }
    expect(instance.stderr()).toBe('');
    // A fourth, begun after them, evicts the first nonce.
    states.set('4', await round(instance, 'token-alice', 'archive', { file: '4' }));
    expect(textOf(await finish('4'))).toBe('archived 4 (accept)');
    // The first flow's state, its nonce gone, is refused all the same; the others as used.
    for (const file of files) expect((await finish(file)).error, file).toMatchObject(REFUSED);
    expect(log.lines()).toEqual(files.flatMap(f => [`archived ${f}`, `notified ${f}`]));
    const said = await eventually(instance.stderr, text => /requestState store full/.test(text));
    expect(said.match(/requestState store full \(3 entries or 67108864 bytes\): evicting its oldest entries/g)).toHaveLength(1);
  });
});

describe('encryption, by default', () => {
  it('the client cannot read what journaled work returned (a session token); with MCP_REQUEST_STATE_ENCRYPT=0 it can; an instance opens either', async () => {
    const env = { MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_STORE: 'memory', FIXTURE_API_TOKEN: 'tok-visible-0123456789' };
    const [encrypted, signed] = await Promise.all([serve(env), serve({ ...env, MCP_REQUEST_STATE_ENCRYPT: '0' })]);
    const state = await round(encrypted, 'token-alice', 'secret', { service: 'billing' });
    expect(payloadText(state)).toMatch(/^\{"p":\{"box":"[\w-]+"\},"exp":\d+,"b":"[\w-]+"\}$/);
    expect(payloadText(state)).not.toContain('tok-visible');
    expect(
      textOf(await callTool(encrypted, 'token-alice', 'secret', { service: 'billing' }, { requestState: state, inputResponses: accept })),
    ).toBe('billing accept with a token of 24 characters');
    const readable = await round(signed, 'token-alice', 'secret', { service: 'billing' });
    expect(payloadText(readable)).toContain('tok-visible-0123456789-1');
    // Each opens what the other sealed, so the setting can change without breaking flows.
    expect(
      textOf(
        await callTool(
          signed,
          'token-alice',
          'secret',
          { service: 'billing' },
          { requestState: await round(encrypted, 'token-alice', 'secret', { service: 'billing' }), inputResponses: accept },
        ),
      ),
    ).toBe('billing accept with a token of 24 characters');
    expect(
      textOf(
        await callTool(encrypted, 'token-alice', 'secret', { service: 'billing' }, { requestState: readable, inputResponses: accept }),
      ),
    ).toBe('billing accept with a token of 24 characters');
  });
});

// What a sampling request offering tools may answer (content blocks), which createMessage accepted only there.
const planned = {
  plan: { role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 't1', name: 'map', input: {} }], stopReason: 'toolUse' },
};
/** The envelope of a client that can answer sampling requests offering tools. */
const samplingTools = { ...envelope(), 'io.modelcontextprotocol/clientCapabilities': { ...CLIENT_CAPABILITIES, sampling: { tools: {} } } };

describe('answers a request carries before they are asked', () => {
  const withTools = { _meta: samplingTools };

  it('a first call that already answers its round completes in that request, ignoring keys nothing asks', async () => {
    const instance = await serve({});
    const extra = { unknown_extra_key: { action: 'accept', content: { foo: 'bar' } } };
    expect(
      textOf(await callTool(instance, 'token-alice', 'admin', { action: 'deploy' }, { inputResponses: { ...accept, ...extra } })),
    ).toBe('deploy (accept) as admin: true');
  });

  it('goes on through each round the request answers, reading each answer as that round asked it, and asks the first it does not', async () => {
    const instance = await serve({});
    expect(
      textOf(
        await callTool(instance, 'token-alice', 'route', { city: 'Oslo' }, { ...withTools, inputResponses: { ...accept, ...planned } }),
      ),
    ).toBe('Oslo accept: tool_use');
    const second = await callTool(instance, 'token-alice', 'route', { city: 'Oslo' }, { ...withTools, inputResponses: accept });
    expect(second.result?.resultType, JSON.stringify(second)).toBe('input_required');
    expect(Object.keys(second.result!.inputRequests!)).toEqual(['plan']);
    expect(
      textOf(
        await callTool(
          instance,
          'token-alice',
          'route',
          { city: 'Oslo' },
          { ...withTools, requestState: second.result!.requestState, inputResponses: planned },
        ),
      ),
    ).toBe('Oslo accept: tool_use');
    // a retry of round one that answers round two as well
    const state = await round(instance, 'token-alice', 'route', { city: 'Oslo' });
    expect(
      textOf(
        await callTool(
          instance,
          'token-alice',
          'route',
          { city: 'Oslo' },
          { ...withTools, requestState: state, inputResponses: { ...accept, ...planned } },
        ),
      ),
    ).toBe('Oslo accept: tool_use');
  });

  it('asks a question a loop asks again under its own key: one answer serves one question', async () => {
    const instance = await serve({});
    const reply = await callTool(instance, 'token-alice', 'survey', { questions: ['tea?', 'cake?'] }, { inputResponses: accept });
    expect(reply.result, JSON.stringify(reply)).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'answer-2': { params: { message: 'cake?' } } },
    });
    const retried = await callTool(
      instance,
      'token-alice',
      'survey',
      { questions: ['tea?', 'cake?'] },
      { requestState: reply.result!.requestState, inputResponses: { 'answer-2': ok } },
    );
    expect(textOf(retried)).toBe('tea?=accept cake?=accept');
  });

  it('still refuses state replayed by another user, whatever answers come with it', async () => {
    const instance = await serve({});
    const state = await round(instance, 'token-alice', 'route', { city: 'Oslo' });
    expect(
      (await callTool(instance, 'token-bob', 'route', { city: 'Oslo' }, { requestState: state, inputResponses: { ...accept, ...planned } }))
        .error,
    ).toMatchObject(REFUSED);
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
    const redis = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        redisDir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    redisServer = redis;
    let exited: string | undefined;
    redis.on('exit', code => (exited = `redis-server exited with ${code}`));
    await waitForPort(port, NO_DEADLINE, () => exited);
    redisUrl = `redis://127.0.0.1:${port}`;
  });

  /** An instance whose entry configures the Redis store after connecting, once it has. */
  async function redisInstance(env: Record<string, string>): Promise<Instance> {
    const instance = await serve(env, 'redis-entry.ts');
    await eventually(instance.stderr, text => text.includes('store configured'));
    return instance;
  }

  for (const client of ['redis', 'ioredis']) {
    it(`(${client}) a state is used once across instances, five replays at once across both write once, and one kept by reference is found by the other`, async () => {
      const log = newLog();
      const env = { MCP_REQUEST_STATE_KEY: KEY, REDIS_URL: redisUrl, REDIS_CLIENT: client, ...log.env };
      const [a, b] = await Promise.all([redisInstance(env), redisInstance(env)]);
      const state = await round(a, 'token-alice', 'remove', { file: 'x' });
      const last = await round(b, 'token-alice', 'remove', { file: 'x' }, { requestState: state, inputResponses: { sure: ok } });
      expect(
        textOf(await callTool(a, 'token-alice', 'remove', { file: 'x' }, { requestState: last, inputResponses: { really: ok } })),
      ).toBe('removed x');
      for (const instance of [a, b]) {
        expect(
          (await callTool(instance, 'token-alice', 'remove', { file: 'x' }, { requestState: last, inputResponses: { really: ok } })).error,
        ).toMatchObject(REFUSED);
        expect(
          (
            await callTool(
              instance,
              'token-alice',
              'remove',
              { file: 'x' },
              { requestState: state, inputResponses: { sure: ok, really: ok } },
            )
          ).error,
        ).toMatchObject(REFUSED);
      }
      const final = await finalRoundOfRemove(a, 'y');
      const replies = await Promise.all(
        [a, b, a, b, a].map(instance =>
          callTool(instance, 'token-alice', 'remove', { file: 'y' }, { requestState: final, inputResponses: { really: ok } }),
        ),
      );
      expect(replies.filter(r => textOf(r) === 'removed y')).toHaveLength(1);
      expect(log.lines()).toEqual(['removed x', 'removed y']);
      const big = await round(a, 'token-alice', 'big', { rows: 600 });
      expect(big.length).toBeLessThan(1024);
      expect(textOf(await callTool(b, 'token-alice', 'big', { rows: 600 }, { requestState: big, inputResponses: accept }))).toBe(
        'accept: 600 rows, last row 599',
      );
      for (const instance of [a, b]) expect(instance.stderr()).toBe('store configured\n');
    });
  }
});
