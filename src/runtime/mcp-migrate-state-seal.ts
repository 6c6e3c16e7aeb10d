/**
 * How mcp-migrate-state (beside this file) seals the requestState of its rounds: the SDK's
 * createRequestStateCodec (HMAC-SHA256, ten minutes), bound to the request method, the authenticated
 * user and the call's name and arguments; optionally encrypted, single-use, and kept in a store when large.
 *
 * Environment:
 *   MCP_REQUEST_STATE_KEY         a secret of 32 bytes or more. Needed over HTTP, where another
 *                                 instance may get the retry; under stdio, a key per process is used.
 *   MCP_REQUEST_STATE_SINGLE_USE  1: each state is accepted once (its nonce is kept in the store)
 *   MCP_REQUEST_STATE_ENCRYPT     1: the state is encrypted (AES-GCM), not only signed
 * Several instances share one store: `configureRequestState({ store: redisStore(client) })` (both
 * exported by mcp-migrate-state too).
 *
 * Written once by mcp-migrate with mcp-migrate-state, never overwritten: edit them freely.
 */
import { createHash } from 'node:crypto';
import { createRequestStateCodec, inputResponse, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { InputRequests, ServerContext } from '@modelcontextprotocol/server';

const KEY_ENV = 'MCP_REQUEST_STATE_KEY';
const TTL_SECONDS = 600;
/** A sealed state longer than this stays in the store, the client holding a reference to it. */
const MAX_STATE_BYTES = 16 * 1024;
/** The claims of `authInfo.extra` that name the user, most specific first. */
const USER_CLAIMS = ['sub', 'userId', 'user_id', 'username', 'email'];

/** Where nonces and oversized states are kept, shared by every instance that serves a flow. */
export interface StateStore {
    /** Keeps `value` under `key` for `ttlSeconds` unless `key` is taken: true when kept. */
    add(key: string, value: string, ttlSeconds: number): Promise<boolean>;
    get(key: string): Promise<string | undefined>;
}

/** A store in this process: enough for one instance. */
export function memoryStore(): StateStore {
    const entries = new Map<string, { value: string; expires: number }>();
    const live = (key: string) => {
        const entry = entries.get(key);
        return entry !== undefined && entry.expires > Date.now() ? entry : undefined;
    };
    return {
        async add(key, value, ttlSeconds) {
            // One ttl for every entry: insertion order is expiry order, so the expired ones come first.
            for (const [k, entry] of entries) if (entry.expires <= Date.now()) entries.delete(k); else break;
            if (live(key) !== undefined) return false;
            entries.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
            return true;
        },
        get: async key => live(key)?.value
    };
}

/** A node-redis (4 or later) or ioredis client. */
export type RedisClient = { call(command: string, ...args: string[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> };

export function redisStore(client: RedisClient, prefix = 'mcp-migrate-state:'): StateStore {
    const run = (...args: [string, ...string[]]) => ('call' in client ? client.call(...args) : client.sendCommand(args));
    return {
        add: async (key, value, ttlSeconds) => (await run('SET', prefix + key, value, 'NX', 'EX', String(ttlSeconds))) === 'OK',
        get: async key => ((await run('GET', prefix + key)) as string | null) ?? undefined
    };
}

const enabled = (name: string) => /^(1|true|yes)$/i.test(process.env[name] ?? '');
const settings = { store: memoryStore(), singleUse: enabled('MCP_REQUEST_STATE_SINGLE_USE'), encrypt: enabled('MCP_REQUEST_STATE_ENCRYPT') };

/** Call before serving to share a store between instances, or to set what the environment sets. */
export function configureRequestState(options: Partial<typeof settings>): void {
    Object.assign(settings, options);
}

const GENERATE = `Generate one with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"`;
const configuredKey = process.env[KEY_ENV];
if (configuredKey !== undefined && Buffer.byteLength(configuredKey) < 32) throw new Error(`${KEY_ENV} must hold at least 32 bytes. ${GENERATE}`);
const keyBytes = configuredKey === undefined ? crypto.getRandomValues(new Uint8Array(32)) : new TextEncoder().encode(configuredKey);
const NO_SHARED_KEY = `${KEY_ENV} is not set: over HTTP another instance may get the retry of an input_required round, so every instance must seal its state with the same key. ${GENERATE}`;
// Said once at start: which deployments need the key, before any round fails for want of it.
if (configuredKey === undefined) {
    console.error(`${KEY_ENV} is not set. Under stdio nothing needs configuring: every round of a flow returns to this process, which seals requestState with a key of its own. Over HTTP (Streamable HTTP, createMcpHandler), where several processes or instances may serve one flow, a configured key is required: each input_required round fails until every instance has the same one. ${GENERATE}`);
}

/** Under stdio the retry comes back to this process and its own key does; over HTTP a configured one must. */
function requireSharedKey(ctx: ServerContext): void {
    if (configuredKey === undefined && ctx.http !== undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, NO_SHARED_KEY);
}

/** Who asks: the user the token names, with the OAuth client, and the session where there is one. */
function principal(ctx: ServerContext): string {
    const auth = ctx.http?.authInfo;
    const user = USER_CLAIMS.map(claim => auth?.extra?.[claim]).find(value => typeof value === 'string' || typeof value === 'number');
    return JSON.stringify([ctx.mcpReq.method, auth?.clientId ?? null, user ?? null, ctx.sessionId ?? null]);
}

/** What a round seals. */
export interface Sealed {
    /** Hash of the method, the name and the arguments of the call the state continues. */
    call: string;
    /** Where the call resumes: the step it suspended at, with the locals it carries. */
    resume: { step: string };
    /** This round's requests, asked again when the retry lacks an answer. */
    asked: InputRequests;
    nonce: string;
}
/** What the codec seals: the state, the state encrypted, or where the store keeps either. */
type Envelope = Sealed | { box: string } | { ref: string };
/** A state `verifyRequestState` accepted, with the text it came as. */
export type Verified = Sealed & { wire: string };

const codec = createRequestStateCodec<Envelope>({ key: keyBytes, ttlSeconds: TTL_SECONDS, bind: principal });
const randomId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');

let aesKey: ReturnType<typeof crypto.subtle.deriveKey> | undefined;
function cipherKey(): ReturnType<typeof crypto.subtle.deriveKey> {
    const info = new TextEncoder().encode('mcp-migrate requestState encryption');
    return (aesKey ??= crypto.subtle
        .importKey('raw', keyBytes, 'HKDF', false, ['deriveKey'])
        .then(base => crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(), info }, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])));
}

async function encrypt(state: Sealed): Promise<{ box: string }> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await cipherKey(), new TextEncoder().encode(JSON.stringify(state)));
    return { box: Buffer.concat([iv, new Uint8Array(sealed)]).toString('base64url') };
}

async function decrypt(box: string): Promise<Sealed> {
    const bytes = Buffer.from(box, 'base64url');
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) }, await cipherKey(), bytes.subarray(12));
    return JSON.parse(new TextDecoder().decode(plain)) as Sealed;
}

/** The requestState of a round of `call` asking `asked`, resuming at `resume`. */
export async function seal(ctx: ServerContext, call: string, resume: { step: string }, asked: InputRequests): Promise<string> {
    requireSharedKey(ctx);
    const state: Sealed = { call, resume, asked, nonce: randomId() };
    const envelope = settings.encrypt ? await encrypt(state) : state;
    const wire = await codec.mint(envelope, ctx);
    if (wire.length <= MAX_STATE_BYTES) return wire;
    const ref = randomId();
    await settings.store.add(`state:${ref}`, JSON.stringify(envelope), TTL_SECONDS);
    return codec.mint({ ref }, ctx);
}

/** The state the store keeps under `ref`, by this instance or one sharing its store. */
async function kept(ref: string): Promise<Envelope> {
    const value = await settings.store.get(`state:${ref}`);
    if (value === undefined) throw new Error('kept by another instance (share a store), or expired');
    return JSON.parse(value) as Envelope;
}

/** Pass as `requestState: { verify: verifyRequestState }` in the server options: refused state never reaches a handler. */
export async function verifyRequestState(wire: string, ctx: ServerContext): Promise<Verified> {
    if (wire.length > MAX_STATE_BYTES) throw new Error('oversized');
    requireSharedKey(ctx);
    const opened = await codec.verify(wire, ctx);
    // (a check the JavaScript flavours, which lose the codec's type, need to read the envelope)
    if (typeof opened !== 'object' || opened === null) throw new Error('malformed');
    const envelope = 'ref' in opened ? await kept(String(opened.ref)) : opened;
    const state = 'box' in envelope ? await decrypt(envelope.box) : (envelope as Sealed);
    if (settings.singleUse && !unanswered(state.asked, ctx) && !(await settings.store.add(`nonce:${state.nonce}`, '', TTL_SECONDS))) throw new Error('used');
    return { ...state, wire };
}

const ANSWER_KIND: Record<string, string> = { 'elicitation/create': 'elicit', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };
/** Whether this request lacks an answer to one of `asked`. */
export function unanswered(asked: InputRequests, ctx: ServerContext): boolean {
    return Object.entries(asked).some(([key, request]) => inputResponse(ctx.mcpReq.inputResponses, key).kind !== ANSWER_KIND[request.method]);
}

/** Canonical JSON (sorted keys), so equal arguments always hash alike. */
function canonical(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** What a state is bound to besides the user: the method, the name and the arguments of its call. */
const callHash = (ctx: ServerContext, name: string, args: unknown) => createHash('sha256').update(canonical([ctx.mcpReq.method, name, args ?? null])).digest('base64url');

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** The state this request resumes the call `name(args)` from (none on a first call): refused when issued for another call. */
export function resumedState(ctx: ServerContext, name: string, args: unknown): { call: string; state: Verified | undefined } {
    const state = ctx.mcpReq.requestState<Verified | string>();
    if (state !== undefined && typeof state !== 'object') throw invalid('requestState was not verified: pass requestState: { verify: verifyRequestState } in the server options');
    const call = callHash(ctx, name, args);
    if (state !== undefined && state.call !== call) throw invalid(`requestState was issued for another call than ${name} with these arguments`);
    // (a state sealed by an earlier version of this module, which numbered its phases)
    if (state !== undefined && typeof state.resume?.step !== 'string') throw invalid(`requestState names no step of ${name}: call it again`);
    return { call, state };
}
