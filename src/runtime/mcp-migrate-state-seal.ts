/**
 * How mcp-migrate-state (beside this file) seals the requestState of its rounds: the SDK's
 * createRequestStateCodec (HMAC-SHA256, ten minutes) around the state encrypted with AES-GCM, bound to
 * the request method, the authenticated user and the call's name and arguments, accepted once (its
 * nonce kept in a store), and kept in that store when large.
 *
 * Environment:
 *   MCP_REQUEST_STATE_KEY          secrets of 32 bytes or more, comma-separated: the first seals, every
 *                                  one opens. Rotate in three steps, each on every instance: add the new
 *                                  key second; put it first; drop the old one ten minutes later (its
 *                                  states have expired). Needed when several instances serve one server;
 *                                  without it a process seals with a key of its own, which only it opens.
 *   MCP_REQUEST_STATE_STORE=memory one instance serves: its memory may keep the nonces even with a key
 *                                  set. Otherwise, over HTTP with a key, a state is refused (the client
 *                                  told only that requestState is not configured, the log what to do)
 *                                  until the instances share a store: `configureRequestState({ store:
 *                                  redisStore(client) })`, which the entry may call after connecting.
 *   MCP_REQUEST_STATE_USER_CLAIM   the claims of the token's `authInfo.extra` that name the user,
 *                                  comma-separated, when none of the usual ones does (USER_CLAIMS below;
 *                                  a token with none of them is said once in the log).
 *   MCP_REQUEST_STATE_SINGLE_USE=0 a state may be used more than once (each is accepted once by default).
 *   MCP_REQUEST_STATE_ENCRYPT=0    the state is only signed, readable by the client (encrypted by default).
 *
 * The memory store holds at most 10,000 entries and 64 MiB, the oldest evicted first (counted in its
 * `evicted`); a state issued before the newest eviction, or before the store was made (a restart), is
 * refused, since its nonce may be gone.
 *
 * Written once by mcp-migrate with mcp-migrate-state, never overwritten: edit them freely.
 */
import { createRequestStateCodec, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { InputRequests, ServerContext } from '@modelcontextprotocol/server';

const KEY_ENV = 'MCP_REQUEST_STATE_KEY';
const TTL_SECONDS = 600;
/** A sealed state longer than this stays in the store, the client holding a reference to it. */
const MAX_STATE_BYTES = 16 * 1024;
/** The claims of `authInfo.extra` that name the user, most specific first (OpenID Connect's, Entra ID's and common ones). */
const USER_CLAIMS = ['sub', 'oid', 'userId', 'user_id', 'uid', 'preferred_username', 'username', 'upn', 'email', 'name'];

/** What only the server's operator should read: said once in the log, never to the client. */
const said = new Set<string>();
function logOnce(text: string): void {
    if (said.has(text)) return;
    said.add(text);
    console.error(text);
}

/** Where nonces and oversized states are kept, shared by every instance that serves a flow. */
export interface StateStore {
    /** Keeps `value` under `key` for `ttlSeconds` unless `key` is taken: true when kept. Must be atomic across instances. */
    add(key: string, value: string, ttlSeconds: number): Promise<boolean>;
    get(key: string): Promise<string | undefined>;
    /** Whether the store is this process's own memory (which other instances do not see). */
    readonly local?: boolean;
    /**
     * A store that may lack entries it was given: when (ms) the newest of them was added (or the store made,
     * for those added before). A state issued by then is refused, since its nonce may be missing.
     */
    readonly lostThrough?: number | undefined;
}

/** A store in this process: enough for one instance. Holds at most `maxEntries` entries and `maxBytes` of keys and values, the oldest going first. */
export function memoryStore(options: { maxEntries?: number; maxBytes?: number } = {}): StateStore & { evicted: number } {
    const maxEntries = options.maxEntries ?? 10_000;
    const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    const entries = new Map<string, { value: string; added: number; expires: number }>();
    let bytes = 0;
    const size = (key: string, value: string) => key.length + value.length;
    const drop = (key: string) => {
        bytes -= size(key, entries.get(key)?.value ?? '');
        entries.delete(key);
    };
    const store = {
        local: true,
        /** How many live entries were dropped to keep within the bounds. */
        evicted: 0,
        // Nonces recorded before this store was made (by this process before a restart) are not in it.
        lostThrough: Date.now(),
        // No await before the entry is set: two adds of one key cannot both succeed.
        async add(key: string, value: string, ttlSeconds: number) {
            const now = Date.now();
            // One ttl for every entry: insertion order is expiry order, so the expired ones come first.
            for (const [k, entry] of entries) if (entry.expires <= now) drop(k); else break;
            if (entries.has(key)) return false;
            while (entries.size > 0 && (entries.size >= maxEntries || bytes + size(key, value) > maxBytes)) evictOldest();
            entries.set(key, { value, added: now, expires: now + ttlSeconds * 1000 });
            bytes += size(key, value);
            return true;
        },
        async get(key: string) {
            const entry = entries.get(key);
            return entry !== undefined && entry.expires > Date.now() ? entry.value : undefined;
        }
    };
    function evictOldest(): void {
        const [key, entry] = entries.entries().next().value as [string, { added: number }];
        drop(key);
        store.evicted++;
        store.lostThrough = entry.added;
        logOnce(`requestState store full (${maxEntries} entries or ${maxBytes} bytes): evicting its oldest entries (counted in the store's evicted), so states issued before them are refused. Give memoryStore({ maxEntries, maxBytes }) more room, or share a Redis store.`);
    }
    return store;
}

/** A node-redis (4 or later) or ioredis client. */
export type RedisClient = { call(command: string, ...args: string[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> };

/** Nonces and oversized states in Redis, shared by every instance (SET NX is atomic). Run Redis with `maxmemory-policy noeviction`: an evicted nonce lets its state be used again. */
export function redisStore(client: RedisClient, prefix = 'mcp-migrate-state:'): StateStore {
    const run = (...args: [string, ...string[]]) => ('call' in client ? client.call(...args) : client.sendCommand(args));
    return {
        add: async (key, value, ttlSeconds) => (await run('SET', prefix + key, value, 'NX', 'EX', String(ttlSeconds))) === 'OK',
        get: async key => ((await run('GET', prefix + key)) as string | null) ?? undefined
    };
}

const disabled = (name: string) => /^(0|false|no|off)$/i.test(process.env[name] ?? '');
const listed = (text: string | undefined) => (text ?? '').split(',').map(item => item.trim()).filter(item => item !== '');
interface SealSettings {
    store: StateStore;
    singleUse: boolean;
    encrypt: boolean;
    userClaims: string[];
}

/** Versioned, as the state module's RUNNING is: a copy with other settings would not read this one's. */
const SEALING = Symbol.for('mcp-migrate-state.sealing.v1');
/**
 * What every copy of this module in a process shares: a workspace's packages each get a copy, and a round one
 * package's copy seals (its handler's helper asked) is opened by the copy the server was given. So the settings,
 * with the store of nonces, and the process's own key are kept on globalThis, made by the first copy loaded.
 */
const sealing = ((globalThis as { [SEALING]?: { settings: SealSettings; ownKey: Uint8Array<ArrayBuffer>; told: boolean } })[SEALING] ??= {
    settings: {
        store: memoryStore() as StateStore,
        singleUse: !disabled('MCP_REQUEST_STATE_SINGLE_USE'),
        encrypt: !disabled('MCP_REQUEST_STATE_ENCRYPT'),
        userClaims: listed(process.env['MCP_REQUEST_STATE_USER_CLAIM']).length > 0 ? listed(process.env['MCP_REQUEST_STATE_USER_CLAIM']) : USER_CLAIMS
    },
    ownKey: crypto.getRandomValues(new Uint8Array(32)),
    told: false
});
const settings = sealing.settings;

/** Call before serving (or once the store's client has connected) to share a store, or to set in code what the environment sets. */
export function configureRequestState(options: Partial<typeof settings>): void {
    Object.assign(settings, options);
}

const GENERATE = `Generate one with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"`;
const configured = listed(process.env[KEY_ENV]);
for (const key of configured) if (Buffer.byteLength(key) < 32) throw new Error(`${KEY_ENV} must hold keys of at least 32 bytes each. ${GENERATE}`);
const sharedKey = configured.length > 0;
/** The keys that open a state, the first of which seals: the configured ones, or one of this process's own. */
const keys: Uint8Array<ArrayBuffer>[] = sharedKey ? configured.map(k => new TextEncoder().encode(k)) : [sealing.ownKey];
// Said once at start (by the first copy): which deployments need the key, before any round fails for want of it.
if (!sharedKey && !sealing.told) {
    sealing.told = true;
    console.error(
        `${KEY_ENV} is not set: requestState is sealed with a key of this process's own, which is enough under stdio and for one HTTP instance. When several instances serve one server, give them all the same key. ${GENERATE}`
    );
}

/** What the client is told of a server whose requestState is misconfigured; the log gets what to do. */
function misconfigured(logged: string): ProtocolError {
    logOnce(logged);
    return new ProtocolError(ProtocolErrorCode.InternalError, 'requestState is not configured on this server');
}

/**
 * Over HTTP with a shared key several instances may serve a flow, and a state accepted once by one of them
 * must be refused by the others: their nonces belong in a store they share. (Under stdio one process
 * serves the client; without a shared key only the process that sealed a state opens it.) Checked on
 * each request rather than at start, since the entry may configure the store after an await.
 */
function requireSharedStore(ctx: ServerContext): void {
    if (!sharedKey || ctx.http === undefined || !settings.singleUse || !settings.store.local || process.env['MCP_REQUEST_STATE_STORE'] === 'memory') return;
    throw misconfigured(
        `${KEY_ENV} is set, so several instances may serve this server, but requestState nonces are kept in this process's memory: a state used on one instance could be used again on another, so every state is refused. Share a store, configureRequestState({ store: redisStore(client) }) with a node-redis or ioredis client (both exported by mcp-migrate-state), or set MCP_REQUEST_STATE_STORE=memory when one instance serves.`
    );
}

/** Who asks: the user the token names, with the OAuth client, and the session where there is one. */
function principal(ctx: ServerContext): string {
    const auth = ctx.http?.authInfo;
    const user = settings.userClaims.map(claim => auth?.extra?.[claim]).find(value => typeof value === 'string' || typeof value === 'number');
    if (auth !== undefined && user === undefined) {
        logOnce(
            `requestState is bound to the OAuth client but to no user: the token's authInfo.extra has none of ${settings.userClaims.join(', ')}, so one user of a client application could continue another's call. Name the claim that holds the user with MCP_REQUEST_STATE_USER_CLAIM (or configureRequestState({ userClaims: [...] })).`
        );
    }
    return JSON.stringify([ctx.mcpReq.method, auth?.clientId ?? null, user ?? null, ctx.sessionId ?? null]);
}

/** One entry of a call's journal: an answer (with the digest of the question it answers), or what journaled work returned or threw. */
export type JournalEntry = { answer: unknown; question?: string } | { value: unknown; async?: boolean } | { thrown: unknown; async?: boolean };
export type Journal = Record<string, JournalEntry>;

/** What a round seals. */
export interface Sealed {
    /** Digest of the method, the name and the arguments of the call the state continues. */
    call: string;
    /** The answers of earlier rounds and the results of the work done before them. */
    journal: Journal;
    /** This round's requests, which the retry must answer. */
    asked: InputRequests;
    /** Accepted once: kept in the store when it is. */
    nonce: string;
    /** When (ms) it was sealed: a store that evicted a later nonce may have lost this one's. */
    issued: number;
}
/** What the codec seals: the state, the state encrypted, or where the store keeps either. */
type Envelope = Sealed | { box: string } | { ref: string };
/** A state `verifyRequestState` accepted. */
export type Verified = Sealed & { verified: true };

const codecs = keys.map(key => createRequestStateCodec<Envelope>({ key, ttlSeconds: TTL_SECONDS, bind: principal }));
const randomId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');

const cipherKeys = new Map<Uint8Array<ArrayBuffer>, ReturnType<typeof crypto.subtle.deriveKey>>();
/** The AES-GCM key derived from a MAC key by HKDF (a key of its own, not the MAC's bytes). */
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
export async function seal(ctx: ServerContext, state: Omit<Sealed, 'nonce' | 'issued'>): Promise<string> {
    requireSharedStore(ctx);
    const sealed: Sealed = { ...state, nonce: randomId(), issued: Date.now() };
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
    if (value === undefined) throw new Error('kept by another instance (share a store), evicted, or expired');
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

/**
 * Pass as `requestState: { verify: verifyRequestState }` in the server options: a refused state never
 * reaches a handler (the SDK answers -32602 and hands the reason thrown here to the server's onerror).
 */
export async function verifyRequestState(wire: string, ctx: ServerContext): Promise<Verified> {
    if (wire.length > MAX_STATE_BYTES) throw new Error('oversized');
    requireSharedStore(ctx);
    const { envelope: outer, key } = await opened(wire, ctx);
    // (a check the JavaScript flavours, which lose the codec's type, need to read the envelope)
    if (typeof outer !== 'object' || outer === null) throw new Error('malformed');
    const envelope = 'ref' in outer ? await kept(String(outer.ref)) : outer;
    const state = 'box' in envelope ? await decrypt(envelope.box, key) : (envelope as Sealed);
    if (typeof state.journal !== 'object' || typeof state.asked !== 'object' || typeof state.nonce !== 'string' || typeof state.issued !== 'number') throw new Error('malformed');
    if (settings.singleUse) await useOnce(state);
    return { ...state, verified: true };
}

/** Records the state's nonce, refusing a state used before, or one whose nonce the store may have evicted. */
async function useOnce(state: Sealed): Promise<void> {
    if (state.issued <= (settings.store.lostThrough ?? -Infinity)) throw new Error('issued before the store lost nonces (evicted, or recorded before it was made)');
    if (!(await settings.store.add(`nonce:${state.nonce}`, '', TTL_SECONDS))) throw new Error('used');
}

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** The state this request continues the call `binding` from (none on a first round): refused when issued for another call. */
export async function openState(ctx: ServerContext, binding: string): Promise<Sealed | undefined> {
    const state = ctx.mcpReq.requestState<Verified | string>();
    if (state === undefined) return undefined;
    if (typeof state !== 'object' || state.verified !== true) throw misconfigured('requestState reached a handler unverified: pass requestState: { verify: verifyRequestState } in the server options (new McpServer(info, { requestState: { verify: verifyRequestState } })).');
    if (state.call !== binding) throw invalid('requestState was issued for another call, or for these arguments with other values: call it again');
    return state;
}
