/**
 * How mcp-migrate-state (beside this file) seals the requestState of its rounds: the SDK's
 * createRequestStateCodec (HMAC-SHA256, ten minutes) around the state encrypted with AES-GCM, bound to
 * the request method, the authenticated user and the call's name and arguments, accepted once, and
 * kept in a store when large.
 *
 * Environment:
 *   MCP_REQUEST_STATE_KEY          secrets of 32 bytes or more, comma-separated: the first seals, every
 *                                  one opens (rotate by putting the new key first, and drop the old one
 *                                  once its states have expired, ten minutes later). Needed over HTTP
 *                                  when several instances serve one server; without it a process seals
 *                                  with a key of its own, which only it can open.
 *   MCP_REQUEST_STATE_STORE        `memory` says one instance serves: its memory keeps the nonces.
 *                                  Several instances share a store: `configureRequestState({ store:
 *                                  redisStore(client) })` (both exported by mcp-migrate-state too).
 *   MCP_REQUEST_STATE_USER_CLAIM   the claim of the token's `authInfo.extra` that names the user,
 *                                  when it is none of the usual ones (USER_CLAIMS below).
 *   MCP_REQUEST_STATE_SINGLE_USE=0 a state may be used more than once (each is accepted once by default).
 *   MCP_REQUEST_STATE_ENCRYPT=0    the state is only signed, readable by the client (encrypted by default).
 *
 * Written once by mcp-migrate with mcp-migrate-state, never overwritten: edit them freely.
 */
import { createRequestStateCodec, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { InputRequests, ServerContext } from '@modelcontextprotocol/server';

const KEY_ENV = 'MCP_REQUEST_STATE_KEY';
const TTL_SECONDS = 600;
/** A sealed state longer than this stays in the store, the client holding a reference to it. */
const MAX_STATE_BYTES = 16 * 1024;
/** The claims of `authInfo.extra` that name the user, most specific first (OpenID Connect's and common ones). */
const USER_CLAIMS = ['sub', 'oid', 'userId', 'user_id', 'uid', 'preferred_username', 'username', 'upn', 'email', 'name'];

/** Where nonces and oversized states are kept, shared by every instance that serves a flow. */
export interface StateStore {
    /** Keeps `value` under `key` for `ttlSeconds` unless `key` is taken: true when kept. */
    add(key: string, value: string, ttlSeconds: number): Promise<boolean>;
    get(key: string): Promise<string | undefined>;
    /** Whether the store is this process's own memory (which other instances do not see). */
    readonly local?: boolean;
}

/** A store in this process: enough for one instance. Holds at most `maxEntries` entries and `maxBytes` of values, the oldest going first. */
export function memoryStore(options: { maxEntries?: number; maxBytes?: number } = {}): StateStore & { evicted: number } {
    const maxEntries = options.maxEntries ?? 10_000;
    const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    const entries = new Map<string, { value: string; expires: number }>();
    let bytes = 0;
    const drop = (key: string) => {
        bytes -= entries.get(key)?.value.length ?? 0;
        entries.delete(key);
    };
    const store = {
        local: true,
        /** How many live entries were dropped to keep within the bounds. */
        evicted: 0,
        async add(key: string, value: string, ttlSeconds: number) {
            const now = Date.now();
            // One ttl for every entry: insertion order is expiry order, so the expired ones come first.
            for (const [k, entry] of entries) if (entry.expires <= now) drop(k); else break;
            if (entries.has(key)) return false;
            while (entries.size > 0 && (entries.size >= maxEntries || bytes + value.length > maxBytes)) {
                drop(entries.keys().next().value as string);
                store.evicted++;
            }
            entries.set(key, { value, expires: now + ttlSeconds * 1000 });
            bytes += value.length;
            return true;
        },
        async get(key: string) {
            const entry = entries.get(key);
            return entry !== undefined && entry.expires > Date.now() ? entry.value : undefined;
        }
    };
    return store;
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

const disabled = (name: string) => /^(0|false|no|off)$/i.test(process.env[name] ?? '');
const settings = {
    store: memoryStore() as StateStore,
    singleUse: !disabled('MCP_REQUEST_STATE_SINGLE_USE'),
    encrypt: !disabled('MCP_REQUEST_STATE_ENCRYPT'),
    userClaims: process.env.MCP_REQUEST_STATE_USER_CLAIM ? [process.env.MCP_REQUEST_STATE_USER_CLAIM] : USER_CLAIMS
};

/** Call before serving to share a store between instances, or to set what the environment sets. */
export function configureRequestState(options: Partial<typeof settings>): void {
    Object.assign(settings, options);
}

const GENERATE = `Generate one with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"`;
const configured = (process.env[KEY_ENV] ?? '').split(',').map(k => k.trim()).filter(k => k !== '');
for (const key of configured) if (Buffer.byteLength(key) < 32) throw new Error(`${KEY_ENV} must hold keys of at least 32 bytes each. ${GENERATE}`);
const sharedKey = configured.length > 0;
/** The keys that open a state, the first of which seals: the configured ones, or one of this process's own. */
const keys: Uint8Array<ArrayBuffer>[] = sharedKey ? configured.map(k => new TextEncoder().encode(k)) : [crypto.getRandomValues(new Uint8Array(32))];
// Said once at start: which deployments need the key, before any round fails for want of it.
if (!sharedKey) {
    console.error(
        `${KEY_ENV} is not set: requestState is sealed with a key of this process's own, which is enough under stdio and for one HTTP instance. When several instances serve one server, give them all the same key. ${GENERATE}`
    );
}

let warnedLocalStore = false;
/**
 * Over HTTP with a shared key several instances may serve a flow, and a state accepted once by one of them
 * must be refused by the others: their nonces belong in a store they share. (Under stdio one process
 * serves the client.) What to configure goes to the log, once; the client sees a generic error.
 */
function requireSharedStore(ctx: ServerContext): void {
    if (!sharedKey || ctx.http === undefined || !settings.singleUse || !settings.store.local || process.env.MCP_REQUEST_STATE_STORE === 'memory') return;
    if (!warnedLocalStore) {
        warnedLocalStore = true;
        console.error(
            `${KEY_ENV} is set, so several instances may serve this server, but requestState nonces are kept in this process's memory: a state used on one instance could be used again on another. Share a store, configureRequestState({ store: redisStore(client) }) with a node-redis or ioredis client (both exported by mcp-migrate-state), or set MCP_REQUEST_STATE_STORE=memory when one instance serves.`
        );
    }
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'requestState is not configured on this server');
}

let warnedNoUser = false;
/** Who asks: the user the token names, with the OAuth client, and the session where there is one. */
function principal(ctx: ServerContext): string {
    const auth = ctx.http?.authInfo;
    const user = settings.userClaims.map(claim => auth?.extra?.[claim]).find(value => typeof value === 'string' || typeof value === 'number');
    if (auth !== undefined && user === undefined && !warnedNoUser) {
        warnedNoUser = true;
        console.error(
            `requestState is bound to the OAuth client but to no user: the token's authInfo.extra has none of ${settings.userClaims.join(', ')}. Name the claim that holds the user with MCP_REQUEST_STATE_USER_CLAIM (or configureRequestState({ userClaims: [...] })).`
        );
    }
    return JSON.stringify([ctx.mcpReq.method, auth?.clientId ?? null, user ?? null, ctx.sessionId ?? null]);
}

/** One entry of a call's journal: an answer, or what journaled work returned or threw. */
export type JournalEntry = { answer: unknown; question?: string } | { value: unknown; async?: boolean } | { thrown: unknown; async?: boolean };
export type Journal = Record<string, JournalEntry>;

/** What a round seals. */
export interface Sealed {
    /** Digest of the method, the name and the arguments of the call the state continues. */
    call: string;
    /** The answers of earlier rounds and the results of the work done before them. */
    journal: Journal;
    /** This round's requests, asked again when the retry lacks an answer. */
    asked: InputRequests;
    nonce: string;
}
/** What the codec seals: the state, the state encrypted, or where the store keeps either. */
type Envelope = Sealed | { box: string } | { ref: string };
/** A state `verifyRequestState` accepted. */
export type Verified = Sealed & { verified: true };

const codecs = keys.map(key => createRequestStateCodec<Envelope>({ key, ttlSeconds: TTL_SECONDS, bind: principal }));
const randomId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');

const cipherKeys = new Map<Uint8Array<ArrayBuffer>, ReturnType<typeof crypto.subtle.deriveKey>>();
function cipherKey(key: Uint8Array<ArrayBuffer>): ReturnType<typeof crypto.subtle.deriveKey> {
    const info = new TextEncoder().encode('mcp-migrate requestState encryption');
    let derived = cipherKeys.get(key);
    if (derived === undefined) {
        derived = crypto.subtle
            .importKey('raw', key, 'HKDF', false, ['deriveKey'])
            .then(base => crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(), info }, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']));
        cipherKeys.set(key, derived);
    }
    return derived;
}

async function encrypt(state: Sealed, key: Uint8Array<ArrayBuffer>): Promise<{ box: string }> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await cipherKey(key), new TextEncoder().encode(JSON.stringify(state)));
    return { box: Buffer.concat([iv, new Uint8Array(sealed)]).toString('base64url') };
}

async function decrypt(box: string, key: Uint8Array<ArrayBuffer>): Promise<Sealed> {
    const bytes = Buffer.from(box, 'base64url');
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) }, await cipherKey(key), bytes.subarray(12));
    return JSON.parse(new TextDecoder().decode(plain)) as Sealed;
}

/** The requestState of a round of `call`. */
export async function seal(ctx: ServerContext, state: Omit<Sealed, 'nonce'>): Promise<string> {
    requireSharedStore(ctx);
    const sealed: Sealed = { ...state, nonce: randomId() };
    const envelope = settings.encrypt ? await encrypt(sealed, keys[0]!) : sealed;
    const wire = await codecs[0]!.mint(envelope, ctx);
    if (wire.length <= MAX_STATE_BYTES) return wire;
    const ref = randomId();
    await settings.store.add(`state:${ref}`, JSON.stringify(envelope), TTL_SECONDS);
    return codecs[0]!.mint({ ref }, ctx);
}

/** The state the store keeps under `ref`, by this instance or one sharing its store. */
async function kept(ref: string): Promise<Envelope> {
    const value = await settings.store.get(`state:${ref}`);
    if (value === undefined) throw new Error('kept by another instance (share a store), or expired');
    return JSON.parse(value) as Envelope;
}

/** The envelope `wire` holds, opened by whichever key sealed it, with that key. */
async function opened(wire: string, ctx: ServerContext): Promise<{ envelope: Envelope; key: Uint8Array<ArrayBuffer> }> {
    let failure: unknown;
    for (const [i, codec] of codecs.entries()) {
        try {
            return { envelope: await codec.verify(wire, ctx), key: keys[i]! };
        } catch (error) {
            // A state another key sealed fails with 'mac'; one this key sealed fails for its own reason.
            if (failure === undefined || (error instanceof Error && error.message !== 'mac')) failure = error;
        }
    }
    throw failure;
}

/** Pass as `requestState: { verify: verifyRequestState }` in the server options: refused state never reaches a handler. */
export async function verifyRequestState(wire: string, ctx: ServerContext): Promise<Verified> {
    if (wire.length > MAX_STATE_BYTES) throw new Error('oversized');
    requireSharedStore(ctx);
    const { envelope: outer, key } = await opened(wire, ctx);
    // (a check the JavaScript flavours, which lose the codec's type, need to read the envelope)
    if (typeof outer !== 'object' || outer === null) throw new Error('malformed');
    const envelope = 'ref' in outer ? await kept(String(outer.ref)) : outer;
    const state = 'box' in envelope ? await decrypt(envelope.box, key) : (envelope as Sealed);
    if (typeof state.journal !== 'object' || typeof state.asked !== 'object') throw new Error('malformed');
    if (settings.singleUse && !(await settings.store.add(`nonce:${state.nonce}`, '', TTL_SECONDS))) throw new Error('used');
    return { ...state, verified: true };
}

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** The state this request continues the call `binding` from (none on a first round): refused when issued for another call. */
export async function openState(ctx: ServerContext, binding: string): Promise<Sealed | undefined> {
    const state = ctx.mcpReq.requestState<Verified | string>();
    if (state === undefined) return undefined;
    if (typeof state !== 'object' || state.verified !== true) throw invalid('requestState was not verified: pass requestState: { verify: verifyRequestState } in the server options');
    if (state.call !== binding) throw invalid('requestState was issued for another call, or for these arguments with other values: call it again');
    return state;
}
