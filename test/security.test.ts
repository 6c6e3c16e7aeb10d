/**
 * requestState and inputResponses are attacker-controlled on every retry. The bundled example,
 * migrated by the pipeline, is served over stdio and spoken to in raw 2026-07-28 JSON-RPC (no SDK
 * client, which would never send these): every forged, replayed or malformed retry must be refused
 * with a clear JSON-RPC error or an `isError` result, and the same server process must still answer
 * a normal call afterwards.
 *
 * Two refusal paths exist, and the test names say which one each case takes:
 * - the SDK's verify seam (the module's `verifyRequestState`, run before the handler): JSON-RPC
 *   error -32602 "Invalid or expired requestState" (bad MAC, expired, other key, other method, malformed, oversized);
 * - the module's checks inside the handler (`resumeCall`, `elicitResult`, ...): a ProtocolError
 *   InvalidParams, which McpServer turns into an `isError` tool result (tools) or a JSON-RPC -32602 (prompts).
 * A retry that lacks an answer the round asked for is no attack: it is asked the same round again.
 * Answers a first call already carries are checked as a retry's are, the call running from its start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';
import { RawModernClient, type RpcReply } from './support/rawMcp.js';

const root = path.resolve(import.meta.dirname, '..');
const legacy = path.join(root, 'examples', 'legacy-server', 'src', 'server.ts');
const work = path.join(root, '.tmp', 'security');
const migrated = path.join(work, 'server.ts');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const KEY = 'security-test-key-0123456789abcdef-0123456789';
const OTHER_KEY = 'another-deployment-key-fedcba9876543210-fedcba';
/** The module's limit on a sealed state (MAX_STATE_BYTES in the generated mcp-migrate-state-seal.ts). */
const MAX_STATE_BYTES = 16 * 1024;

const VERIFY_REFUSED = { code: -32602, message: 'Invalid or expired requestState' };

let client: RawModernClient;
let pid: number | undefined;

beforeAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const result = await migrateSources([{ path: migrated, text: fs.readFileSync(legacy, 'utf8') }], { cwd: work });
  for (const change of result.changes) fs.writeFileSync(change.path, change.after);
  expect(result.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
  expect(fs.readFileSync(path.join(work, 'mcp-migrate-state-seal.ts'), 'utf8')).toContain('const MAX_STATE_BYTES = 16 * 1024;');
  client = new RawModernClient(`${tsx} ${migrated}`, { MCP_REQUEST_STATE_KEY: KEY });
  const discovered = await client.connect();
  expect(discovered.supportedVersions).toContain('2026-07-28');
  pid = client.pid;
}, 900_000);

afterAll(async () => {
  await client?.close();
});

// ---------------------------------------------------------------------------------------------
// helpers

/** Round one of `greet`: the real input_required result and its sealed state. */
async function firstRound(tool: string, args: Record<string, unknown>): Promise<{ state: string; reply: RpcReply }> {
  const reply = await client.callTool(tool, args);
  expect(reply.error, JSON.stringify(reply)).toBeUndefined();
  expect(reply.result!.resultType).toBe('input_required');
  expect(typeof reply.result!.requestState).toBe('string');
  return { state: reply.result!.requestState as string, reply };
}

const moodAccept = { answer: { action: 'accept', content: { mood: 'calm' } } };

/** A normal two-round greet on the same process: proves the server survived what came before. */
async function expectStillServing(): Promise<void> {
  expect(client.alive, client.transport.stderr).toBe(true);
  expect(client.pid).toBe(pid);
  const { state } = await firstRound('greet', { name: 'Ada' });
  const done = await client.callTool('greet', { name: 'Ada' }, { requestState: state, inputResponses: moodAccept });
  expect(done.result, JSON.stringify(done)).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada. You feel calm.' }] });
  expect(done.result!.isError).toBeUndefined();
  expect(client.serverRequests).toEqual([]);
  expect(client.garbage).toEqual([]);
}

function expectVerifyRefusal(reply: RpcReply): void {
  expect(reply.result, JSON.stringify(reply)).toBeUndefined();
  expect(reply.error).toMatchObject(VERIFY_REFUSED);
}

function expectToolRefusal(reply: RpcReply, message: RegExp): void {
  expect(reply.error, JSON.stringify(reply)).toBeUndefined();
  expect(reply.result!.isError).toBe(true);
  const text = (reply.result!.content as { text: string }[]).map(c => c.text).join('\n');
  expect(text).toMatch(message);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The payload a sealed state carries (the codec signs, it does not encrypt). */
function payloadOf(state: string): { p: unknown; exp: number; b?: string } {
  const body = state.slice('v1.'.length, state.lastIndexOf('.'));
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
}

/** Seals `payload` as the module does (same bind: method, client, user, session), with any key and a ttl of our choosing. */
function forge(payload: unknown, key: string, ttlSeconds: number): Promise<string> {
  const codec = createRequestStateCodec({ key, ttlSeconds, bind: ctx => JSON.stringify([ctx.mcpReq.method, null, null, null]) });
  return codec.mint(payload, { mcpReq: { method: 'tools/call' } } as unknown as ServerContext);
}

/** One character of `state` at `index` replaced by another base64url character. */
function flip(state: string, index: number): string {
  const c = state[index]!;
  const replacement = c === 'A' ? 'B' : 'A';
  return state.slice(0, index) + replacement + state.slice(index + 1);
}

// ---------------------------------------------------------------------------------------------

describe('migrated example under forged retries (raw 2026-07-28 JSON-RPC over stdio)', () => {
  it('accepts an honest retry, and a state re-sealed with the same key and a live expiry (the forging helper is sound)', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    expect(payloadOf(state).p).toMatchObject({ resume: { step: 'awaiting-answer', greeting: 'Hello, Ada' } });
    const resealed = await forge(payloadOf(state).p, KEY, 900);
    expect(resealed).not.toBe(state);
    const done = await client.callTool('greet', { name: 'Ada' }, { requestState: resealed, inputResponses: moodAccept });
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. You feel calm.' }] });
    await expectStillServing();
  });

  it('refuses a tampered requestState (one character flipped in the body, in the MAC, in the prefix) with -32602 from verify', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    const dot = state.lastIndexOf('.');
    const variants = [flip(state, 'v1.'.length + 5), flip(state, Math.floor(('v1.'.length + dot) / 2)), flip(state, dot + 3), 'v2' + state.slice(2), state.slice(0, -1)];
    for (const tampered of variants) {
      expect(tampered).not.toBe(state);
      expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState: tampered, inputResponses: moodAccept }));
    }
    // the body itself rewritten (other locals), MAC kept: refused too
    const body = Buffer.from(JSON.stringify({ ...payloadOf(state), p: { ...(payloadOf(state).p as object), resume: { step: 'awaiting-answer', greeting: 'pwned' } } })).toString('base64url');
    expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState: `v1.${body}${state.slice(dot)}`, inputResponses: moodAccept }));
    await expectStillServing();
  });

  it('refuses an expired requestState (same key, exp in the past) with -32602 from verify', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    const expired = await forge(payloadOf(state).p, KEY, -5);
    expect(payloadOf(expired).exp).toBeLessThan(Math.floor(Date.now() / 1000));
    expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState: expired, inputResponses: moodAccept }));
    await expectStillServing();
  });

  it('refuses a foreign requestState (sealed with another key) with -32602 from verify', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    const foreign = await forge(payloadOf(state).p, OTHER_KEY, 600);
    expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState: foreign, inputResponses: moodAccept }));
    await expectStillServing();
  });

  it('refuses an oversized requestState (over the 16 KiB limit, and a 4 MiB string) with -32602 from verify', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    // properly sealed with the right key, but longer than anything the module mints
    const big = await forge({ ...(payloadOf(state).p as object), resume: { step: 'awaiting-answer', greeting: 'x'.repeat(MAX_STATE_BYTES) } }, KEY, 600);
    expect(big.length).toBeGreaterThan(MAX_STATE_BYTES);
    expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState: big, inputResponses: moodAccept }));
    const huge = `v1.${'A'.repeat(4 * 1024 * 1024)}.${'B'.repeat(43)}`;
    expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState: huge, inputResponses: moodAccept }));
    await expectStillServing();
  });

  it('refuses malformed requestState values (empty, no prefix, not a string) with -32602 from verify', async () => {
    for (const requestState of ['', 'garbage', 'v1.', 'v1..', 'v1.%%%.%%%', 42, { resume: { step: 'awaiting-answer' } }, ['v1.a.b'], true]) {
      expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState, inputResponses: moodAccept }));
    }
    await expectStillServing();
  });

  it('refuses state minted for greet replayed on plan-trip: isError result "issued for another call" from resumeCall', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    expectToolRefusal(
      await client.callTool('plan-trip', { city: 'Ada' }, { requestState: state, inputResponses: { answer: { action: 'accept', content: { days: 2 } } } }),
      /requestState was issued for another call than plan-trip with these arguments/
    );
    await expectStillServing();
  });

  it('refuses state replayed with other arguments: isError result "issued for another call" from resumeCall', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    for (const args of [{ name: 'Eve' }, { name: 'ada' }, { name: 'Ada ' }]) {
      expectToolRefusal(await client.callTool('greet', args, { requestState: state, inputResponses: moodAccept }), /requestState was issued for another call than greet with these arguments/);
    }
    // arguments the input schema rejects never reach the state check
    expectToolRefusal(await client.callTool('greet', {}, { requestState: state, inputResponses: moodAccept }), /Input validation error/);
    // an unknown extra argument is stripped by the zod schema: the handler sees the same call, so the state fits
    const same = await client.callTool('greet', { name: 'Ada', extra: 1 }, { requestState: state, inputResponses: moodAccept });
    expect(same.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. You feel calm.' }] });
    await expectStillServing();
  });

  it('refuses a tool state replayed on prompts/get (and back) with -32602 from verify (bound to the method)', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    const onPrompt = await client.request('prompts/get', { name: 'review', arguments: { code: 'x' }, requestState: state, inputResponses: { answer: { action: 'accept', content: { focus: 'x' } } } });
    expectVerifyRefusal(onPrompt);
    const prompt = await client.request('prompts/get', { name: 'review', arguments: { code: 'x' } });
    expect(prompt.result!.resultType).toBe('input_required');
    expectVerifyRefusal(await client.callTool('greet', { name: 'Ada' }, { requestState: prompt.result!.requestState, inputResponses: moodAccept }));
    // and a prompt state replayed with other arguments: JSON-RPC -32602 from resumeCall
    const other = await client.request('prompts/get', { name: 'review', arguments: { code: 'y' }, requestState: prompt.result!.requestState, inputResponses: { answer: { action: 'accept', content: { focus: 'x' } } } });
    expect(other.error).toMatchObject({ code: -32602, message: 'requestState was issued for another call than review with these arguments' });
    await expectStillServing();
  });

  it('asks the round again when the retry lacks its answer (another kind, action "bogus", a wrapped answer, none): the same requests and state', async () => {
    const { state, reply } = await firstRound('greet', { name: 'Ada' });
    const sampling = { role: 'assistant', model: 'm', content: { type: 'text', text: 'calm' } };
    for (const inputResponses of [
      { answer: sampling },
      { answer: { roots: [{ uri: 'file:///a' }] } },
      { answer: { action: 'bogus', content: { mood: 'calm' } } },
      { answer: { method: 'elicitation/create', result: { action: 'accept', content: { mood: 'calm' } } } },
      { other: { action: 'accept', content: { mood: 'calm' } } },
      { answer: null },
      'accept',
      undefined,
    ]) {
      const again = await client.callTool('greet', { name: 'Ada' }, { requestState: state, inputResponses: inputResponses as never });
      expect(again.error, JSON.stringify(again)).toBeUndefined();
      expect(again.result).toMatchObject({ resultType: 'input_required', inputRequests: reply.result!.inputRequests, requestState: state });
    }
    // and the answer, when it comes, is taken
    const done = await client.callTool('greet', { name: 'Ada' }, { requestState: state, inputResponses: moodAccept });
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. You feel calm.' }] });
    await expectStillServing();
  });

  it('checks answers a first call already carries as a retry\'s: one of another kind is asked for, a malformed or invalid one refused, an honest one completes the call', async () => {
    const asked = await client.callTool('greet', { name: 'Ada' }, { inputResponses: { answer: { roots: [{ uri: 'file:///a' }] } } });
    expect(asked.result, JSON.stringify(asked)).toMatchObject({ resultType: 'input_required', inputRequests: { answer: { method: 'elicitation/create' } } });
    expectToolRefusal(
      await client.callTool('greet', { name: 'Ada' }, { inputResponses: { answer: { action: 'accept', content: { mood: 5 } } } }),
      /^MCP error -32602: Elicitation response content does not match requested schema: data\/mood must be string$/
    );
    const listed = { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'x' }] };
    expectToolRefusal(await client.callTool('summarize', { text: 't' }, { inputResponses: { result: listed } }), /the sampling response for "result" is malformed/);
    const done = await client.callTool('greet', { name: 'Ada' }, { inputResponses: moodAccept });
    expect(done.result, JSON.stringify(done)).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. You feel calm.' }] });
    await expectStillServing();
  });

  it('refuses accepted content that violates the requested schema: isError result with SDK 1.x\'s message', async () => {
    const refusal = 'MCP error -32602: Elicitation response content does not match requested schema: ';
    const { state } = await firstRound('greet', { name: 'Ada' });
    for (const [content, problem] of [
      [{ mood: 5 }, 'data/mood must be string'],
      [{}, "data must have required property 'mood'"],
    ] as const) {
      expectToolRefusal(
        await client.callTool('greet', { name: 'Ada' }, { requestState: state, inputResponses: { answer: { action: 'accept', content } } }),
        new RegExp(`^${escapeRegExp(refusal + problem)}$`)
      );
    }
    // content that is not a record of strings, numbers, booleans and string lists was refused by SDK 1.x's result schema
    for (const content of [['calm'], 'calm', { mood: { nested: true } }]) {
      expectToolRefusal(
        await client.callTool('greet', { name: 'Ada' }, { requestState: state, inputResponses: { answer: { action: 'accept', content } } }),
        /^the elicitation response for "answer" is malformed$/
      );
    }
    const trip = await firstRound('plan-trip', { city: 'Lisbon' });
    expectToolRefusal(
      await client.callTool('plan-trip', { city: 'Lisbon' }, { requestState: trip.state, inputResponses: { answer: { action: 'accept', content: { days: 'three' } } } }),
      new RegExp(`^${escapeRegExp(`${refusal}data/days must be number`)}$`)
    );
    await expectStillServing();
  });

  it('refuses malformed sampling and roots answers: isError result "is malformed" from samplingResult / rootsResult', async () => {
    const summarize = await firstRound('summarize', { text: 't' });
    for (const result of [
      { role: 'assistant', model: 'm', content: null },
      { role: 'hacker', content: 5 },
      { role: 'assistant', content: { type: 'text', text: 'no model' } },
    ]) {
      expectToolRefusal(await client.callTool('summarize', { text: 't' }, { requestState: summarize.state, inputResponses: { result } }), /the sampling response for "result" is malformed/);
    }
    // a list of content blocks answers a request that offered tools only, as SDK 1.x's createMessage parsed it
    expectToolRefusal(
      await client.callTool('summarize', { text: 't' }, { requestState: summarize.state, inputResponses: { result: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'x' }] } } }),
      /the sampling response for "result" is malformed/
    );
    const count = await firstRound('count-roots', {});
    for (const roots of [[null], [{ uri: 5 }], [{ name: 'no uri' }], [{ uri: 'file:///a', name: { x: 1 } }]]) {
      expectToolRefusal(await client.callTool('count-roots', {}, { requestState: count.state, inputResponses: { roots: { roots } } }), /the roots response for "roots" is malformed/);
    }
    // the honest answers still go through
    const ok = await client.callTool('count-roots', {}, { requestState: count.state, inputResponses: { roots: { roots: [{ uri: 'file:///a', name: 'a' }] } } });
    expect(ok.result).toMatchObject({ resultType: 'complete', content: [{ text: '1 roots: a' }] });
    await expectStillServing();
  });

  it('a declined answer carrying content reaches the handler as a decline, as SDK 1.x returned it', async () => {
    const { state } = await firstRound('greet', { name: 'Ada' });
    const reply = await client.callTool('greet', { name: 'Ada' }, { requestState: state, inputResponses: { answer: { action: 'decline', content: { mood: 'smuggled' } } } });
    expect(reply.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada. No mood shared (decline).' }] });
    await expectStillServing();
  });
});
