/**
 * requestState and inputResponses are attacker-controlled on every retry. Two servers, migrated by the
 * pipeline, are served over stdio and spoken to in raw 2026-07-28 JSON-RPC (no SDK client, which would
 * never send these): the bundled example (examples/legacy-server), and the request-state fixture
 * (test/request-state), whose tools write lines to a log: `remove` asks twice and then writes,
 * `archive` writes (journaled) before its question and after it, `buy` asks at a price another tool
 * sets. Every forged, replayed, misdirected or malformed retry must be refused with a clear JSON-RPC
 * error or an `isError` result, the log must hold exactly what the honest flows wrote, and the same
 * server process must still answer a normal call afterwards.
 *
 * Two refusal paths exist, and the test names say which one each case takes:
 * - the SDK's verify seam (the module's `verifyRequestState`, run before the handler): JSON-RPC
 *   error -32602 "Invalid or expired requestState" (bad MAC, expired, other key, other method,
 *   malformed, oversized, used before);
 * - the replay inside the handler: a ProtocolError or the SDK's malformed-answer error, which McpServer
 *   turns into an `isError` tool result (tools) or a JSON-RPC error (prompts): a state issued for another
 *   call, an answer missing from the retry of the round that asked it, of another kind, malformed,
 *   outside the requested schema, or to a question that has changed since.
 * Each state is used once (the default), so each attack that reaches verification gets a fresh state.
 * The figures of docs/deployment.md are these tests' own (the last test checks them; UPDATE_DOCS=1
 * rewrites them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';
import { eventually } from './support/eventually.js';
import { RawModernClient, type RpcReply } from './support/rawMcp.js';

const root = path.resolve(import.meta.dirname, '..');
const work = path.join(root, '.tmp', 'security');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const KEY = 'security-test-key-0123456789abcdef-0123456789';
const OTHER_KEY = 'another-deployment-key-fedcba9876543210-fedcba';
/** The module's limit on a sealed state (MAX_STATE_BYTES in the generated mcp-migrate-state-seal.ts). */
const MAX_STATE_BYTES = 16 * 1024;
const LOG = path.join(work, 'fixture', 'writes.log');
const DEPLOYMENT = path.join(root, 'docs', 'deployment.md');

const VERIFY_REFUSED = { code: -32602, message: 'Invalid or expired requestState' };

let example: RawModernClient;
let fixture: RawModernClient;
const pids = new Map<RawModernClient, number | undefined>();

/** Migrates `files` into `dir` and serves `entry` over stdio with the key (and `env`). */
async function migratedServer(dir: string, files: string[], entry: string, env: Record<string, string> = {}): Promise<RawModernClient> {
  fs.mkdirSync(dir, { recursive: true });
  const result = await migrateSources(
    files.map(f => ({ path: path.join(dir, path.basename(f)), text: fs.readFileSync(f, 'utf8') })),
    { cwd: dir },
  );
  for (const change of result.changes) fs.writeFileSync(change.path, change.after);
  expect(result.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
  const client = new RawModernClient(`${tsx} ${path.join(dir, entry)}`, { MCP_REQUEST_STATE_KEY: KEY, ...env });
  const discovered = await client.connect();
  expect(discovered.supportedVersions).toContain('2026-07-28');
  pids.set(client, client.pid);
  return client;
}

beforeAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  example = await migratedServer(
    path.join(work, 'example'),
    [path.join(root, 'examples', 'legacy-server', 'src', 'server.ts')],
    'server.ts',
  );
  expect(fs.readFileSync(path.join(work, 'example', 'mcp-migrate-state-seal.ts'), 'utf8')).toContain('const MAX_STATE_BYTES = 16 * 1024;');
  const sources = path.join(root, 'test', 'request-state');
  fs.mkdirSync(path.dirname(LOG), { recursive: true });
  fs.writeFileSync(LOG, '');
  fixture = await migratedServer(
    path.join(work, 'fixture'),
    fs.readdirSync(sources).map(f => path.join(sources, f)),
    'stdio.ts',
    { FIXTURE_LOG: LOG },
  );
}, 900_000);

afterAll(async () => {
  await example?.close();
  await fixture?.close();
});

// ---------------------------------------------------------------------------------------------
// the figures: what each class of attack sent, how many were refused, and what the log gained

const ROWS = {
  state: 'State tampered with, expired, sealed with another key, oversized or malformed',
  misdirected: 'State sent for another tool, other arguments or another method',
  answer: 'Answer missing, of another kind, or malformed',
  schema: 'Answer content outside the requested schema',
  changed: 'Answer to a question changed since it was asked',
  replayed: 'Final round sent again after it completed',
  concurrent: 'Final round sent five times at once (the four beyond the first)',
  earlier: 'Earlier round sent again after a later one',
} as const;
type Row = keyof typeof ROWS;
const tally = new Map<Row, { requests: number; refused: number; writes: number }>(
  Object.keys(ROWS).map(row => [row as Row, { requests: 0, refused: 0, writes: 0 }]),
);
/** What the honest flows wrote, in order: the log must hold exactly this. */
const honest: string[] = [];
const attackTests = new Set<string>();
const finished = new Set<string>();

const isRefusal = (reply: RpcReply) => reply.error !== undefined || reply.result?.isError === true;

/** An attack of `row`: counted, and its reply handed back for the test's own checks. */
function attack(row: Row, reply: RpcReply): RpcReply {
  const t = tally.get(row)!;
  t.requests++;
  if (isRefusal(reply)) t.refused++;
  return reply;
}

const logLines = () =>
  fs
    .readFileSync(LOG, 'utf8')
    .split('\n')
    .filter(l => l !== '');

/** The log holds what the honest flows wrote; what it holds beyond that is counted against `row`. */
function expectLogHonest(row: Row): void {
  const lines = logLines();
  tally.get(row)!.writes += Math.max(0, lines.length - honest.length);
  expect(lines).toEqual(honest);
}

/** A test whose attacks count towards the figures. */
function attackIt(name: string, run: () => Promise<void>): void {
  attackTests.add(name);
  it(name, async () => {
    await run();
    finished.add(name);
  });
}

// ---------------------------------------------------------------------------------------------
// sealing as the module seals: the codec's HMAC around an AES-GCM box (key derived by HKDF) of the journal

interface Sealed {
  call: string;
  journal: Record<string, unknown>;
  asked: Record<string, unknown>;
  nonce: string;
  issued: number;
}

function cipherKey(key: string): Promise<CryptoKey> {
  return crypto.subtle
    .importKey('raw', new TextEncoder().encode(key), 'HKDF', false, ['deriveKey'])
    .then(base =>
      crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(), info: new TextEncoder().encode('mcp-migrate requestState encryption') },
        base,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      ),
    );
}

/** The payload a sealed state carries, as the client can read it. */
function payloadOf(state: string): { p: { box?: string }; exp: number; b?: string } {
  return JSON.parse(Buffer.from(state.slice('v1.'.length, state.lastIndexOf('.')), 'base64url').toString('utf8'));
}

/** What a state the module sealed with `key` holds. */
async function opened(state: string, key = KEY): Promise<Sealed> {
  const bytes = Buffer.from(payloadOf(state).p.box!, 'base64url');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) }, await cipherKey(key), bytes.subarray(12));
  return JSON.parse(Buffer.from(plain).toString('utf8'));
}

async function boxOf(sealed: Sealed, key: string): Promise<{ box: string }> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const box = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await cipherKey(key), new TextEncoder().encode(JSON.stringify(sealed)));
  return { box: Buffer.concat([iv, new Uint8Array(box)]).toString('base64url') };
}

/** Seals `sealed` as the module does (encrypted, the same bind: method, client, user, session), with any key and a ttl of our choosing. */
async function forge(sealed: Sealed, key: string, ttlSeconds: number): Promise<string> {
  const codec = createRequestStateCodec({ key, ttlSeconds, bind: ctx => JSON.stringify([ctx.mcpReq.method, null, null, null]) });
  return codec.mint(await boxOf(sealed, key), { mcpReq: { method: 'tools/call' } } as unknown as ServerContext);
}

const freshNonce = (sealed: Sealed): Sealed => ({ ...sealed, nonce: crypto.randomUUID() });

/** One character of `state` at `index` replaced by another base64url character. */
function flip(state: string, index: number): string {
  const c = state[index]!;
  return state.slice(0, index) + (c === 'A' ? 'B' : 'A') + state.slice(index + 1);
}

// ---------------------------------------------------------------------------------------------
// helpers

/** The input_required round `tool(args)` (or the retry `retry`) returns: its sealed state. */
async function round(
  client: RawModernClient,
  tool: string,
  args: Record<string, unknown>,
  retry?: Parameters<RawModernClient['callTool']>[2],
): Promise<{ state: string; reply: RpcReply }> {
  const reply = await client.callTool(tool, args, retry);
  expect(reply.error, JSON.stringify(reply)).toBeUndefined();
  expect(reply.result!.resultType, JSON.stringify(reply)).toBe('input_required');
  expect(typeof reply.result!.requestState).toBe('string');
  return { state: reply.result!.requestState as string, reply };
}

const moodAccept = { answer: { action: 'accept', content: { mood: 'calm' } } };
const ok = { action: 'accept', content: { ok: true } };
const greet = () => round(example, 'greet', { name: 'Ada' });
const retryGreet = (requestState: unknown, inputResponses: unknown, args: Record<string, unknown> = { name: 'Ada' }) =>
  example.callTool('greet', args, { requestState, inputResponses: inputResponses as Record<string, unknown> });

/** remove's final round: the state the retry answering `really` completes. */
async function finalRoundOfRemove(file: string): Promise<string> {
  const first = await round(fixture, 'remove', { file });
  return (await round(fixture, 'remove', { file }, { requestState: first.state, inputResponses: { sure: ok } })).state;
}
const finishRemove = (file: string, requestState: unknown, inputResponses: unknown = { really: ok }) =>
  fixture.callTool('remove', { file }, { requestState, inputResponses: inputResponses as Record<string, unknown> });

/** A normal flow on each server's same process: proves it survived what came before. */
async function expectStillServing(): Promise<void> {
  for (const client of [example, fixture]) {
    expect(client.alive, client.transport.stderr).toBe(true);
    expect(client.pid).toBe(pids.get(client));
    expect(client.serverRequests).toEqual([]);
    expect(client.garbage).toEqual([]);
  }
  const { state } = await greet();
  const done = await retryGreet(state, moodAccept);
  expect(done.result, JSON.stringify(done)).toMatchObject({
    resultType: 'complete',
    content: [{ type: 'text', text: 'Hello, Ada. You feel calm.' }],
  });
  expect(done.result!.isError).toBeUndefined();
  const file = `still-${honest.length}`;
  expect((await finishRemove(file, await finalRoundOfRemove(file))).result).toMatchObject({ content: [{ text: `removed ${file}` }] });
  honest.push(`removed ${file}`);
  expect(logLines()).toEqual(honest);
}

function expectVerifyRefusal(reply: RpcReply): void {
  expect(reply.result, JSON.stringify(reply)).toBeUndefined();
  expect(reply.error).toMatchObject(VERIFY_REFUSED);
}

function expectToolRefusal(reply: RpcReply, message: RegExp): void {
  expect(reply.error, JSON.stringify(reply)).toBeUndefined();
  expect(reply.result!.isError, JSON.stringify(reply)).toBe(true);
  const text = (reply.result!.content as { text: string }[]).map(c => c.text).join('\n');
  expect(text).toMatch(message);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OTHER_CALL = /^requestState was issued for another call, or for these arguments with other values: call it again$/;
const MALFORMED_ELICITATION = /^Invalid elicitation result: the client's answer is malformed$/;
const NO_ANSWER = /^the retry carries no answer to "answer", which its round asked: answer it, or call again$/;

// ---------------------------------------------------------------------------------------------

describe('forged and tampered states (raw 2026-07-28 JSON-RPC over stdio)', () => {
  it('the module seals what the forging helper reads: an encrypted journal of the call, its asked round, a nonce and when it was issued; re-sealed with the key, it is accepted once', async () => {
    const { state, reply } = await greet();
    expect(Object.keys(payloadOf(state).p)).toEqual(['box']);
    expect(payloadOf(state).exp).toBeGreaterThan(Date.now() / 1000);
    const sealed = await opened(state);
    expect(sealed).toMatchObject({
      call: expect.any(String),
      journal: {},
      asked: reply.result!.inputRequests as object,
      nonce: expect.any(String),
      issued: expect.any(Number),
    });
    expect(Buffer.from(payloadOf(state).p.box!, 'base64url').toString('latin1')).not.toContain('How are you feeling');
    const resealed = await forge(freshNonce(sealed), KEY, 900);
    const done = await retryGreet(resealed, moodAccept);
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. You feel calm.' }] });
    expectVerifyRefusal(await retryGreet(resealed, moodAccept));
    await expectStillServing();
  });

  attackIt(
    'refuses a tampered requestState (one character flipped in the body, in the MAC, in the prefix; the box rewritten, the MAC kept) with -32602 from verify',
    async () => {
      const { state } = await greet();
      const dot = state.lastIndexOf('.');
      const variants = [
        flip(state, 'v1.'.length + 5),
        flip(state, Math.floor(('v1.'.length + dot) / 2)),
        flip(state, dot + 3),
        'v2' + state.slice(2),
        state.slice(0, -1),
      ];
      // A journal that answers the question already, encrypted with the right key but under the old MAC.
      const answered = { ...(await opened(state)), journal: { answer: { answer: { action: 'accept', content: { mood: 'pwned' } } } } };
      const body = Buffer.from(JSON.stringify({ ...payloadOf(state), p: await boxOf(answered, KEY) })).toString('base64url');
      variants.push(`v1.${body}${state.slice(dot)}`);
      for (const tampered of variants) {
        expect(tampered).not.toBe(state);
        expectVerifyRefusal(attack('state', await retryGreet(tampered, moodAccept)));
      }
      // and against the destructive tool's final round: nothing written
      const final = await finalRoundOfRemove('tampered');
      for (const tampered of [flip(final, 'v1.'.length + 5), flip(final, final.lastIndexOf('.') + 3)])
        expectVerifyRefusal(attack('state', await finishRemove('tampered', tampered)));
      expectLogHonest('state');
      await expectStillServing();
    },
  );

  attackIt(
    'refuses an expired requestState (same key, exp in the past) and one sealed with another key, with -32602 from verify',
    async () => {
      const { state } = await greet();
      const expired = await forge(freshNonce(await opened(state)), KEY, -5);
      expect(payloadOf(expired).exp).toBeLessThan(Math.floor(Date.now() / 1000));
      expectVerifyRefusal(attack('state', await retryGreet(expired, moodAccept)));
      expectVerifyRefusal(attack('state', await retryGreet(await forge(freshNonce(await opened(state)), OTHER_KEY, 600), moodAccept)));
      const final = await opened(await finalRoundOfRemove('expired'));
      expectVerifyRefusal(attack('state', await finishRemove('expired', await forge(freshNonce(final), KEY, -5))));
      expectVerifyRefusal(attack('state', await finishRemove('expired', await forge(freshNonce(final), OTHER_KEY, 600))));
      expectLogHonest('state');
      await expectStillServing();
    },
  );

  attackIt('refuses an oversized requestState (over the 16 KiB limit, and a 4 MiB string) with -32602 from verify', async () => {
    const { state } = await greet();
    // properly sealed with the right key, but longer than anything the module mints
    const padded = { ...freshNonce(await opened(state)), journal: { padding: { value: 'x'.repeat(MAX_STATE_BYTES) } } };
    const big = await forge(padded, KEY, 600);
    expect(big.length).toBeGreaterThan(MAX_STATE_BYTES);
    expectVerifyRefusal(attack('state', await retryGreet(big, moodAccept)));
    const huge = `v1.${'A'.repeat(4 * 1024 * 1024)}.${'B'.repeat(43)}`;
    expectVerifyRefusal(attack('state', await retryGreet(huge, moodAccept)));
    await expectStillServing();
  });

  attackIt('refuses malformed requestState values (empty, no prefix, not a string) with -32602 from verify', async () => {
    for (const requestState of ['', 'garbage', 'v1.', 'v1..', 'v1.%%%.%%%', 42, { journal: {} }, ['v1.a.b'], true]) {
      expectVerifyRefusal(attack('state', await retryGreet(requestState, moodAccept)));
      expectVerifyRefusal(attack('state', await finishRemove('malformed', requestState)));
    }
    expectLogHonest('state');
    await expectStillServing();
  });
});

describe('states sent where they were not issued', () => {
  attackIt('refuses greet\'s state on plan-trip, and remove\'s on buy or archive: isError "issued for another call"', async () => {
    expectToolRefusal(
      attack(
        'misdirected',
        await example.callTool(
          'plan-trip',
          { city: 'Ada' },
          { requestState: (await greet()).state, inputResponses: { answer: { action: 'accept', content: { days: 2 } } } },
        ),
      ),
      OTHER_CALL,
    );
    expectToolRefusal(
      attack(
        'misdirected',
        await fixture.callTool(
          'buy',
          { item: 'misdirected' },
          { requestState: await finalRoundOfRemove('misdirected'), inputResponses: { answer: ok, really: ok } },
        ),
      ),
      OTHER_CALL,
    );
    expectToolRefusal(
      attack(
        'misdirected',
        await fixture.callTool(
          'archive',
          { file: 'misdirected' },
          { requestState: await finalRoundOfRemove('misdirected'), inputResponses: { answer: ok, really: ok } },
        ),
      ),
      OTHER_CALL,
    );
    expectLogHonest('misdirected');
    await expectStillServing();
  });

  attackIt('refuses a state sent with other arguments: isError "issued for another call"', async () => {
    for (const args of [{ name: 'Eve' }, { name: 'ada' }, { name: 'Ada ' }]) {
      expectToolRefusal(attack('misdirected', await retryGreet((await greet()).state, moodAccept, args)), OTHER_CALL);
    }
    expectToolRefusal(attack('misdirected', await finishRemove('other.txt', await finalRoundOfRemove('mine.txt'))), OTHER_CALL);
    // arguments the input schema rejects never reach the state check
    expectToolRefusal(await retryGreet((await greet()).state, moodAccept, {}), /Input validation error/);
    // an unknown extra argument is stripped by the zod schema: the handler sees the same call, so the state fits
    const same = await retryGreet((await greet()).state, moodAccept, { name: 'Ada', extra: 1 });
    expect(same.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. You feel calm.' }] });
    expectLogHonest('misdirected');
    await expectStillServing();
  });

  attackIt(
    'refuses a tool state on prompts/get (and back) with -32602 from verify (bound to the method); a prompt state with other arguments with -32602 from the handler',
    async () => {
      const { state } = await greet();
      expectVerifyRefusal(
        attack(
          'misdirected',
          await example.request('prompts/get', {
            name: 'review',
            arguments: { code: 'x' },
            requestState: state,
            inputResponses: { answer: { action: 'accept', content: { focus: 'x' } } },
          }),
        ),
      );
      const prompt = () => example.request('prompts/get', { name: 'review', arguments: { code: 'x' } });
      const first = await prompt();
      expect(first.result!.resultType).toBe('input_required');
      expectVerifyRefusal(attack('misdirected', await retryGreet(first.result!.requestState, moodAccept)));
      const other = await example.request('prompts/get', {
        name: 'review',
        arguments: { code: 'y' },
        requestState: (await prompt()).result!.requestState,
        inputResponses: { answer: { action: 'accept', content: { focus: 'x' } } },
      });
      expect(attack('misdirected', other).error).toMatchObject({
        code: -32602,
        message: 'requestState was issued for another call, or for these arguments with other values: call it again',
      });
      // the method's binding refused before the nonce was recorded: the tool state still completes its own call
      expect((await retryGreet(state, moodAccept)).result).toMatchObject({ content: [{ text: 'Hello, Ada. You feel calm.' }] });
      await expectStillServing();
    },
  );
});

describe('answers that are not answers to the question asked', () => {
  attackIt(
    'refuses a retry whose answer is missing, of another kind, or malformed (a sampling or roots result, action "yolo", a string, null, a wrapped answer, another key, none): isError, never asked again',
    async () => {
      const sampling = { role: 'assistant', model: 'm', content: { type: 'text', text: 'calm' } };
      const variants: [unknown, RegExp][] = [
        [{ answer: sampling }, MALFORMED_ELICITATION],
        [{ answer: { roots: [{ uri: 'file:///a' }] } }, MALFORMED_ELICITATION],
        [{ answer: { action: 'yolo', content: { mood: 'calm' } } }, MALFORMED_ELICITATION],
        // what is not an object, or wraps its answer, the SDK drops from inputResponses before the handler sees them
        [{ answer: 'accept' }, NO_ANSWER],
        [{ answer: null }, NO_ANSWER],
        [{ answer: { method: 'elicitation/create', result: { action: 'accept', content: { mood: 'calm' } } } }, NO_ANSWER],
        [{ other: { action: 'accept', content: { mood: 'calm' } } }, NO_ANSWER],
        [{}, NO_ANSWER],
      ];
      for (const [inputResponses, message] of variants) {
        expect(
          attack('answer', await retryGreet((await greet()).state, inputResponses)).result?.content,
          JSON.stringify(inputResponses),
        ).toEqual([{ type: 'text', text: expect.stringMatching(message) }]);
      }
      // the same against remove's final round: nothing written
      for (const [inputResponses] of variants) {
        const really = JSON.parse(JSON.stringify(inputResponses ?? {}).replaceAll('"answer"', '"really"'));
        expectToolRefusal(
          attack('answer', await finishRemove('kinds', await finalRoundOfRemove('kinds'), really)),
          /^(Invalid elicitation result: the client's answer is malformed|the retry carries no answer to "really", which its round asked.*)$/,
        );
      }
      // inputResponses that are not an object: refused by the SDK's request schema, or as no answer
      for (const inputResponses of ['accept', ['accept'], 42]) {
        const reply = attack('answer', await finishRemove('kinds', await finalRoundOfRemove('kinds'), inputResponses));
        expect(isRefusal(reply), JSON.stringify(reply)).toBe(true);
      }
      expectLogHonest('answer');
      await expectStillServing();
    },
  );

  attackIt(
    "checks answers a first call already carries as a retry's: another kind or malformed refused, an honest one completes the call",
    async () => {
      expectToolRefusal(
        attack(
          'answer',
          await example.callTool('greet', { name: 'Ada' }, { inputResponses: { answer: { roots: [{ uri: 'file:///a' }] } } }),
        ),
        MALFORMED_ELICITATION,
      );
      expectToolRefusal(
        attack(
          'schema',
          await example.callTool('greet', { name: 'Ada' }, { inputResponses: { answer: { action: 'accept', content: { mood: 5 } } } }),
        ),
        /^MCP error -32602: Elicitation response content does not match requested schema: data\/mood must be string$/,
      );
      const listed = { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'x' }] };
      expectToolRefusal(
        attack('answer', await example.callTool('summarize', { text: 't' }, { inputResponses: { result: listed } })),
        /^Invalid sampling result: the client's answer is malformed$/,
      );
      expectToolRefusal(
        attack('answer', await fixture.callTool('remove', { file: 'early' }, { inputResponses: { sure: ok, really: { action: 'yolo' } } })),
        MALFORMED_ELICITATION,
      );
      const done = await example.callTool('greet', { name: 'Ada' }, { inputResponses: moodAccept });
      expect(done.result, JSON.stringify(done)).toMatchObject({
        resultType: 'complete',
        content: [{ text: 'Hello, Ada. You feel calm.' }],
      });
      expect((await fixture.callTool('remove', { file: 'early' }, { inputResponses: { sure: ok, really: ok } })).result).toMatchObject({
        content: [{ text: 'removed early' }],
      });
      honest.push('removed early');
      expectLogHonest('answer');
      await expectStillServing();
    },
  );

  attackIt(
    "refuses accepted content that violates the requested schema, or answers another question's: isError result with SDK 1.x's message",
    async () => {
      const refusal = 'MCP error -32602: Elicitation response content does not match requested schema: ';
      for (const [content, problem] of [
        [{ mood: 5 }, 'data/mood must be string'],
        [{}, "data must have required property 'mood'"],
        [{ days: 3 }, "data must have required property 'mood'"],
      ] as const) {
        expectToolRefusal(
          attack('schema', await retryGreet((await greet()).state, { answer: { action: 'accept', content } })),
          new RegExp(`^${escapeRegExp(refusal + problem)}$`),
        );
      }
      // content that is not a record of strings, numbers, booleans and string lists was refused by SDK 1.x's result schema
      for (const content of [['calm'], 'calm', { mood: { nested: true } }]) {
        expectToolRefusal(
          attack('schema', await retryGreet((await greet()).state, { answer: { action: 'accept', content } })),
          MALFORMED_ELICITATION,
        );
      }
      // plan-trip's answer given greet's content
      const trip = await round(example, 'plan-trip', { city: 'Lisbon' });
      expectToolRefusal(
        attack(
          'schema',
          await example.callTool(
            'plan-trip',
            { city: 'Lisbon' },
            { requestState: trip.state, inputResponses: { answer: { action: 'accept', content: { mood: 'calm' } } } },
          ),
        ),
        new RegExp(`^${escapeRegExp(`${refusal}data must have required property 'days'`)}$`),
      );
      expectToolRefusal(
        attack(
          'schema',
          await finishRemove('schema', await finalRoundOfRemove('schema'), { really: { action: 'accept', content: { ok: 'yes' } } }),
        ),
        new RegExp(`^${escapeRegExp(`${refusal}data/ok must be boolean`)}$`),
      );
      expectLogHonest('schema');
      await expectStillServing();
    },
  );

  attackIt('refuses malformed sampling and roots answers: isError result "Invalid ... result"', async () => {
    for (const result of [
      { role: 'assistant', model: 'm', content: null },
      { role: 'hacker', content: 5 },
      { role: 'assistant', content: { type: 'text', text: 'no model' } },
      // a list of content blocks answers a request that offered tools only, as SDK 1.x's createMessage parsed it
      { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'x' }] },
    ]) {
      const summarize = await round(example, 'summarize', { text: 't' });
      expectToolRefusal(
        attack('answer', await example.callTool('summarize', { text: 't' }, { requestState: summarize.state, inputResponses: { result } })),
        /^Invalid sampling result: the client's answer is malformed$/,
      );
    }
    for (const roots of [[null], [{ uri: 5 }], [{ name: 'no uri' }], [{ uri: 'file:///a', name: { x: 1 } }]]) {
      const count = await round(example, 'count-roots', {});
      expectToolRefusal(
        attack('answer', await example.callTool('count-roots', {}, { requestState: count.state, inputResponses: { roots: { roots } } })),
        /^Invalid roots result: the client's answer is malformed$/,
      );
    }
    // the honest answers still go through
    const count = await round(example, 'count-roots', {});
    const ok = await example.callTool(
      'count-roots',
      {},
      { requestState: count.state, inputResponses: { roots: { roots: [{ uri: 'file:///a', name: 'a' }] } } },
    );
    expect(ok.result).toMatchObject({ resultType: 'complete', content: [{ text: '1 roots: a' }] });
    await expectStillServing();
  });

  attackIt(
    'refuses an answer to a question that changed since it was asked (buy at 5, the price set to 500, "yes" sent): nothing bought',
    async () => {
      const setPrice = (price: number) => fixture.callTool('set-price', { price });
      const { state, reply } = await round(fixture, 'buy', { item: 'lamp' });
      expect(reply.result!.inputRequests).toMatchObject({ answer: { params: { message: 'Buy lamp at 5?' } } });
      expect((await setPrice(500)).result).toMatchObject({ content: [{ text: 'price: 500' }] });
      expectToolRefusal(
        attack('changed', await fixture.callTool('buy', { item: 'lamp' }, { requestState: state, inputResponses: { answer: ok } })),
        /^the retry answers answer, which the call no longer asks as it asked them: call it again$/,
      );
      const warned = /journal what makes it with journaled\(\.\.\.\)/;
      expect(
        await eventually(
          () => fixture.transport.stderr,
          text => warned.test(text),
        ),
      ).toMatch(warned);
      // asked again, at the new price, it is bought at the price the user saw
      const again = await round(fixture, 'buy', { item: 'lamp' });
      expect(again.reply.result!.inputRequests).toMatchObject({ answer: { params: { message: 'Buy lamp at 500?' } } });
      expect(
        (await fixture.callTool('buy', { item: 'lamp' }, { requestState: again.state, inputResponses: { answer: ok } })).result,
      ).toMatchObject({ content: [{ text: 'bought lamp at 500' }] });
      honest.push('bought lamp at 500');
      await setPrice(5);
      // a loop's next question answered under the key of the one before it: its own key is missing
      const survey = await round(fixture, 'survey', { questions: ['tea?', 'cake?'] }, { inputResponses: { answer: ok } });
      expectToolRefusal(
        attack(
          'answer',
          await fixture.callTool(
            'survey',
            { questions: ['tea?', 'cake?'] },
            { requestState: survey.state, inputResponses: { answer: { action: 'decline' } } },
          ),
        ),
        /^the retry carries no answer to "answer-2"/,
      );
      // an answer sent again for a question an earlier round answered is not taken: the journal's is
      const next = await round(fixture, 'survey', { questions: ['tea?', 'cake?'] }, { inputResponses: { answer: ok } });
      const done = await fixture.callTool(
        'survey',
        { questions: ['tea?', 'cake?'] },
        { requestState: next.state, inputResponses: { answer: { action: 'decline' }, 'answer-2': ok } },
      );
      expect(done.result).toMatchObject({ content: [{ text: 'tea?=accept cake?=accept' }] });
      expectLogHonest('changed');
      await expectStillServing();
    },
  );

  it('a declined answer carrying content reaches the handler as a decline, as SDK 1.x returned it', async () => {
    const reply = await retryGreet((await greet()).state, { answer: { action: 'decline', content: { mood: 'smuggled' } } });
    expect(reply.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. No mood shared (decline).' }] });
    await expectStillServing();
  });
});

describe('replays: single use, by default', () => {
  attackIt('a final round sent again after it completed is refused: removed once', async () => {
    const first = await round(fixture, 'remove', { file: 'once' });
    const final = (await round(fixture, 'remove', { file: 'once' }, { requestState: first.state, inputResponses: { sure: ok } })).state;
    expect((await finishRemove('once', final)).result).toMatchObject({ content: [{ text: 'removed once' }] });
    honest.push('removed once');
    for (let i = 0; i < 3; i++) expectVerifyRefusal(attack('replayed', await finishRemove('once', final)));
    // and the earlier round, sent after the later one (its answers, or all of them)
    expectVerifyRefusal(attack('earlier', await finishRemove('once', first.state, { sure: ok })));
    expectVerifyRefusal(attack('earlier', await finishRemove('once', first.state, { sure: ok, really: ok })));
    // greet's final round, too
    const { state } = await greet();
    expect((await retryGreet(state, moodAccept)).result).toMatchObject({ resultType: 'complete' });
    expectVerifyRefusal(attack('replayed', await retryGreet(state, moodAccept)));
    expectLogHonest('replayed');
    await expectStillServing();
  });

  attackIt(
    'a final round sent five times at once completes once: removed once; archive, whose write before its question is journaled, writes it once',
    async () => {
      const final = await finalRoundOfRemove('race');
      const replies = await Promise.all(Array.from({ length: 5 }, () => finishRemove('race', final)));
      const completed = replies.filter(r => !isRefusal(r));
      expect(completed).toHaveLength(1);
      expect(completed[0]!.result).toMatchObject({ content: [{ text: 'removed race' }] });
      honest.push('removed race');
      for (const reply of replies.filter(isRefusal)) expectVerifyRefusal(attack('concurrent', reply));
      expectLogHonest('concurrent');
      // archive's write before its question is journaled: done once on the first round, never again
      const archive = await round(fixture, 'archive', { file: 'race' });
      honest.push('archived race');
      const archived = await Promise.all(
        Array.from({ length: 5 }, () =>
          fixture.callTool('archive', { file: 'race' }, { requestState: archive.state, inputResponses: { answer: ok } }),
        ),
      );
      expect(archived.filter(r => !isRefusal(r)).map(r => r.result!.content)).toEqual([[{ type: 'text', text: 'archived race (accept)' }]]);
      honest.push('notified race');
      for (const reply of archived.filter(isRefusal)) expectVerifyRefusal(attack('concurrent', reply));
      expectLogHonest('concurrent');
      await expectStillServing();
    },
  );

  attackIt(
    'an earlier round sent again after a later one is refused, mid-flow too: the flow goes on from its latest round only',
    async () => {
      const first = await round(fixture, 'remove', { file: 'midway' });
      const final = (await round(fixture, 'remove', { file: 'midway' }, { requestState: first.state, inputResponses: { sure: ok } })).state;
      expectVerifyRefusal(attack('earlier', await finishRemove('midway', first.state, { sure: ok })));
      expectVerifyRefusal(attack('earlier', await finishRemove('midway', first.state, { sure: ok, really: ok })));
      expect((await finishRemove('midway', final)).result).toMatchObject({ content: [{ text: 'removed midway' }] });
      honest.push('removed midway');
      expectLogHonest('earlier');
      await expectStillServing();
    },
  );
});

// ---------------------------------------------------------------------------------------------

const FIGURES_START = '<!-- attack figures: test/security.test.ts -->';
const FIGURES_END = '<!-- end of attack figures -->';

/** The table of docs/deployment.md, from the tally. */
function figuresTable(): string {
  const lines = ["| attack | requests | refused | writes beyond the honest flows' |", '| --- | ---: | ---: | ---: |'];
  const total = { requests: 0, refused: 0, writes: 0 };
  for (const [row, label] of Object.entries(ROWS) as [Row, string][]) {
    const t = tally.get(row)!;
    lines.push(`| ${label} | ${t.requests} | ${t.refused} | ${t.writes} |`);
    total.requests += t.requests;
    total.refused += t.refused;
    total.writes += t.writes;
  }
  lines.push(`| **all** | **${total.requests}** | **${total.refused}** | **${total.writes}** |`);
  return lines.join('\n');
}

describe('the figures', () => {
  it("in docs/deployment.md are these tests' (UPDATE_DOCS=1 writes them)", ctx => {
    // Only a run of every attack test has the figures.
    if (finished.size < attackTests.size) ctx.skip();
    expect(logLines()).toEqual(honest);
    const doc = fs.readFileSync(DEPLOYMENT, 'utf8');
    const start = doc.indexOf(FIGURES_START);
    const end = doc.indexOf(FIGURES_END);
    expect(start, `docs/deployment.md lacks ${FIGURES_START}`).toBeGreaterThan(-1);
    const table = figuresTable();
    if (process.env.UPDATE_DOCS) {
      fs.writeFileSync(DEPLOYMENT, `${doc.slice(0, start + FIGURES_START.length)}\n${table}\n${doc.slice(end)}`);
      return;
    }
    expect(
      doc.slice(start + FIGURES_START.length, end).trim(),
      'the figures changed: run UPDATE_DOCS=1 npx vitest run test/security.test.ts',
    ).toBe(table);
  });
});
