/**
 * requestState for the handlers mcp-migrate moved to MCP 2026-07-28 `input_required` rounds.
 *
 * Where a handler awaited a request to the client, its phases now run in `resumeCall(...).run`, and
 * the await became `call.suspend({ step, ...locals }, requests)`: the client answers, then retries the
 * call with the answers and the state, and the handler resumes at that step (in the same request,
 * where it already carries the answers). The step carries the locals the rest of the handler needs,
 * sealed by the SDK's createRequestStateCodec (HMAC-SHA256, ten minutes) and bound to the request
 * method, the authenticated user, and the call's name and arguments.
 *
 * Environment:
 *   MCP_REQUEST_STATE_KEY         a secret of 32 bytes or more. Needed over HTTP, where another
 *                                 instance may get the retry; under stdio, a key per process is used.
 *   MCP_REQUEST_STATE_SINGLE_USE  1: each state is accepted once (its nonce is kept in the store)
 *   MCP_REQUEST_STATE_ENCRYPT     1: the state is encrypted (AES-GCM), not only signed
 * Several instances share one store: `configureRequestState({ store: redisStore(client) })`.
 *
 * Written once by mcp-migrate, which never overwrites it: edit it freely.
 */
import { createHash } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, createRequestStateCodec, inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, specTypeSchemas } from '@modelcontextprotocol/server';
import type { ClientCapabilities, CreateMessageResult, ElicitResult, InputRequests, InputRequiredResult, JsonSchemaType, ListRootsResult, ServerContext, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/server/validators/ajv';

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

interface Sealed {
    /** Hash of the method, the name and the arguments of the call the state continues. */
    call: string;
    /** Where the call resumes: the step it suspended at, with the locals it carries. */
    resume: Step;
    /** This round's requests, asked again when the retry lacks an answer. */
    asked: InputRequests;
    nonce: string;
}
/** What the codec seals: the state, the state encrypted, or where the store keeps either. */
type Envelope = Sealed | { box: string } | { ref: string };
type Verified = Sealed & { wire: string };

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

async function seal(ctx: ServerContext, state: Sealed): Promise<string> {
    requireSharedKey(ctx);
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
function unanswered(asked: InputRequests, ctx: ServerContext): boolean {
    return Object.entries(asked).some(([key, request]) => inputResponse(ctx.mcpReq.inputResponses, key).kind !== ANSWER_KIND[request.method]);
}

/** Canonical JSON (sorted keys), so equal arguments always hash alike. */
function canonical(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

const callHash = (ctx: ServerContext, name: string, args: unknown) => createHash('sha256').update(canonical([ctx.mcpReq.method, name, args ?? null])).digest('base64url');

/** Where a call resumes: the step it suspended at (named by what that round waits for), with the locals it carries on. */
export interface Step {
    step: string;
}

/** Where a call starts: no state came back with it. */
export interface Start {
    step: 'start';
}

/** The steps of a handler that does not declare its own (JavaScript): whatever locals they carry. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UntypedStep = Step & Record<string, any>;

/** A round this request already answers: `run` goes on into its step instead of returning it. */
export class Answered<S extends Step = Step> {
    // (a field, not a parameter property: the module stays erasable TypeScript, runnable by Node's type stripping)
    readonly next: S;
    constructor(next: S) {
        this.next = next;
    }
}

/** One call of a handler, bound once: its phases run through `run`, and each round ends in `suspend`. */
export interface BoundCall<S extends Step> {
    /** Runs `phases` from where this request resumes, on into each round the request already answers. */
    run<R>(phases: (resumed: S | Start) => Promise<R | Answered<S> | InputRequiredResult>): Promise<R | InputRequiredResult>;
    /** Ends a phase: the round asking `inputRequests`, the step it resumes at sealed, unless this request already answers it. */
    suspend(resume: S, inputRequests: InputRequests): Promise<Answered<S> | InputRequiredResult>;
    /** What to throw for a step this version of the handler does not have (state minted by another build). */
    unknownStep(resumed: Step): ProtocolError;
}

/** Per request, the round whose answers the current phase reads, when `run` went on into it in the same request. */
const answering = new WeakMap<ServerContext, InputRequests>();

/** The call `name(args)`, resumed from its state (`{ step: 'start' }` on a first call), `S` the union of its handler's steps. Refuses state issued for another call. */
export function resumeCall<S extends Step = UntypedStep>(ctx: ServerContext, name: string, args: unknown): BoundCall<S> {
    const state = ctx.mcpReq.requestState<Verified | string>();
    if (state !== undefined && typeof state !== 'object') throw invalid('requestState was not verified: pass requestState: { verify: verifyRequestState } in the server options');
    const call = callHash(ctx, name, args);
    if (state !== undefined && state.call !== call) throw invalid(`requestState was issued for another call than ${name} with these arguments`);
    // (a state sealed by an earlier version of this module, which numbered its phases)
    if (state !== undefined && typeof state.resume?.step !== 'string') throw invalid(`requestState names no step of ${name}: call it again`);
    // The keys whose answers a phase of this request has read: a round asking one again goes to the client.
    const consumed = new Set(Object.keys(state?.asked ?? {}));
    return {
        async run(phases) {
            // A retry that lacks an answer its round asked for is asked the round again.
            if (state !== undefined && unanswered(state.asked, ctx)) return inputRequired({ inputRequests: state.asked, requestState: state.wire });
            // (sealed by this module, from a step of this call's handler)
            let resumed: S | Start = state === undefined ? { step: 'start' } : (state.resume as S);
            for (;;) {
                const result = await phases(resumed);
                if (!(result instanceof Answered)) return result;
                resumed = result.next;
            }
        },
        async suspend(resume, inputRequests) {
            const keys = Object.keys(inputRequests);
            if (unanswered(inputRequests, ctx) || keys.some(key => consumed.has(key))) {
                const sealed: Sealed = { call, resume, asked: inputRequests, nonce: randomId() };
                return inputRequired({ inputRequests, requestState: await seal(ctx, sealed) });
            }
            for (const key of keys) consumed.add(key);
            answering.set(ctx, inputRequests);
            // The step's locals as a retry would bring them back from the sealed state.
            return new Answered(JSON.parse(JSON.stringify(resume)) as S);
        },
        unknownStep(resumed) {
            return invalid(`requestState names step ${JSON.stringify(resumed.step)}, which ${name} does not have: call it again`);
        }
    };
}

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** What SDK 1.x threw when the client had not declared the capability a request needs. */
const UNSUPPORTED = {
    sampling: 'Client does not support sampling (required for sampling/createMessage)',
    elicitation: 'Client does not support elicitation (required for elicitation/create)',
    roots: 'Client does not support listing roots (required for roots/list)'
} as const;

/** The capabilities a 2026-07-28 request declares; none on a 2025-era request. */
const declaredCapabilities = (ctx: ServerContext) => (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;

/** Throws as the legacy await did when the client cannot answer, so that a surrounding catch sees it. */
export function requireClientSupport(ctx: ServerContext, kinds: (keyof typeof UNSUPPORTED)[]): void {
    const declared = declaredCapabilities(ctx);
    if (declared === undefined) return; // a 2025-era request: the SDK's shim asks the client itself
    for (const kind of kinds) if (declared[kind] === undefined) throw new Error(UNSUPPORTED[kind]);
}

/** The client's capabilities for this request: sent with it (2026-07-28), else declared at initialize. */
export function clientCapabilities(ctx: ServerContext, server: { getClientCapabilities(): ClientCapabilities | undefined }): ClientCapabilities | undefined {
    return declaredCapabilities(ctx) ?? server.getClientCapabilities();
}

/** The answer under `key`, parsed as SDK 1.x parsed the response to its request. */
function answer<T>(ctx: ServerContext, key: string, schema: StandardSchemaV1<unknown, T>, kind: string): T {
    const response = ctx.mcpReq.inputResponses?.[key];
    if (response === undefined) throw invalid(`the retried request carries no ${kind} response for "${key}"`);
    const parsed = schema['~standard'].validate(response);
    if (parsed instanceof Promise || parsed.issues !== undefined) throw invalid(`the ${kind} response for "${key}" is malformed`);
    return parsed.value;
}

/** SDK 1.x's McpError put "MCP error <code>: " before its message; ProtocolError does not, so the text carries it. */
const legacyError = (code: ProtocolErrorCode, message: string) => new ProtocolError(code, `MCP error ${code}: ${message}`);
let validator: AjvJsonSchemaValidator | undefined;

/** The answer to an elicitation as `elicitInput` returned it, accepted content checked as SDK 1.x checked it. */
export function elicitResult(ctx: ServerContext, key: string, requestedSchema?: object): ElicitResult {
    const result = answer(ctx, key, specTypeSchemas.ElicitResult, 'elicitation');
    if (result.action !== 'accept' || result.content === undefined || requestedSchema === undefined) return result;
    let check;
    try {
        // SDK 1.x's validator: draft-07 ajv reporting every error, with the formats of ajv-formats.
        validator ??= new AjvJsonSchemaValidator(addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true })));
        check = validator.getValidator(requestedSchema as JsonSchemaType)(result.content);
    } catch (error) {
        throw legacyError(ProtocolErrorCode.InternalError, `Error validating elicitation response: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!check.valid) throw legacyError(ProtocolErrorCode.InvalidParams, `Elicitation response content does not match requested schema: ${check.errorMessage}`);
    return result;
}

/** The answer to a sampling request as `createMessage` returned it (content blocks only where it offered tools). */
export function samplingResult(ctx: ServerContext, key: string): CreateMessageResult {
    const params = (answering.get(ctx) ?? ctx.mcpReq.requestState<Verified>()?.asked)?.[key]?.params;
    const schema = params !== undefined && 'tools' in params ? specTypeSchemas.CreateMessageResultWithTools : specTypeSchemas.CreateMessageResult;
    return answer(ctx, key, schema, 'sampling') as CreateMessageResult;
}

/** The answer to a roots request as `listRoots` returned it. */
export function rootsResult(ctx: ServerContext, key: string): ListRootsResult {
    return answer(ctx, key, specTypeSchemas.ListRootsResult, 'roots');
}
