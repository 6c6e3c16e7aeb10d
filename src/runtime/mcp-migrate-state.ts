/**
 * Resumption by replay for the handlers mcp-migrate moved to MCP 2026-07-28 `input_required` rounds.
 *
 * A handler keeps its code. Its registration goes through `resumable(server)`, each request it made to
 * the client through `ask(...)`, and the work it does before a question that must not be done twice
 * through `journaled(...)`:
 *
 *   resumable(server).registerTool('plan', config, async ({ city }) => {
 *     const trip = await journaled(() => api.createTrip(city));         // done once, its result replayed
 *     const answer = await ask(server.server).elicitInput({ ... });    // answered, or the round ends here
 *     ...
 *   });
 *
 * On a 2025-era request nothing changes: `ask` sends the request to the client as before and
 * `journaled` runs its work. On a 2026-07-28 request the handler runs from the top on each round. An
 * ask answered in an earlier round returns its answer from the journal, one answered by this retry
 * returns the client's answer (checked as SDK 1.x checked it; one missing from the retry of the round
 * that asked it, of another kind, or to a question since changed is refused, never asked again), and
 * one not answered yet waits: once the handler has gone quiet, every such ask is sent in one
 * `input_required` result, with the journal sealed in its requestState (by mcp-migrate-state-seal beside
 * this file, which says what to configure: encrypted, bound to the user and the call, used once). The
 * asks still waiting then throw `Suspended`, so that what the round holds (a lock, a connection) is let
 * go; the handler's own catch and finally blocks around a question start with `rethrowIfSuspended()`,
 * so they neither take the suspension for an error nor run before the call really ends. Nothing the
 * handler journals or asks after that is done in that round. `clientCapabilities(server.server)` reads
 * the capabilities a 2026-07-28 request declares, where the handler read those declared at initialize.
 *
 * Written once by mcp-migrate, which never overwrites it: edit it freely.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, PROTOCOL_VERSION_META_KEY, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, specTypeSchemas } from '@modelcontextprotocol/server';
import type { ClientCapabilities, InputRequest, InputRequests, JsonSchemaType, ServerContext } from '@modelcontextprotocol/server';
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/server/validators/ajv';
import { openState, seal, type Journal, type JournalEntry } from './mcp-migrate-state-seal.js';
export { configureRequestState, memoryStore, redisStore, verifyRequestState, type RedisClient, type StateStore } from './mcp-migrate-state-seal.js';

/** The registrations whose handlers can answer `input_required`, and where each takes the name its state is bound to. */
const REGISTRATIONS: Record<string, string> = { registerTool: 'tools/call', registerPrompt: 'prompts/get', registerResource: 'resources/read' };
const RESUMABLE_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => unknown;

/**
 * `server` with its handler registrations made resumable: `registerTool`, `registerPrompt`,
 * `registerResource` and `setRequestHandler` for tools/call, prompts/get and resources/read wrap the
 * handler they are given. Everything else is the server's own.
 */
export function resumable<T>(server: T): T {
    if (server === null || typeof server !== 'object') return server;
    return new Proxy(server, {
        get(target, property) {
            const value: unknown = Reflect.get(target, property, target);
            if (typeof value !== 'function') return value;
            const registration = typeof property === 'string' ? REGISTRATIONS[property] : undefined;
            if (registration !== undefined) return (name: string, ...rest: unknown[]) => value.call(target, name, ...withHandler(rest, registration, name));
            if (property === 'setRequestHandler') {
                return (method: unknown, ...rest: unknown[]) => value.call(target, method, ...(typeof method === 'string' && RESUMABLE_METHODS.has(method) ? withHandler(rest, method) : rest));
            }
            return value.bind(target);
        }
    });
}

/** The arguments with their handler (the last function among them) made resumable. */
function withHandler(args: unknown[], method: string, name?: string): unknown[] {
    const at = args.length - 1;
    const handler = args[at];
    if (typeof handler !== 'function') return args;
    return [...args.slice(0, at), resumed(handler as Handler, method, name)];
}

/** The handler run by replay on 2026-07-28 requests, as it is on 2025-era ones. */
function resumed(handler: Handler, method: string, name: string | undefined): Handler {
    return async function (this: unknown, ...args: unknown[]) {
        const ctx = args[args.length - 1] as ServerContext | undefined;
        if (!isModernRequest(ctx)) return handler.apply(this, args);
        const call = await Replay.open(ctx, bindingOf(method, name, args.slice(0, -1)));
        return call.run(() => handler.apply(this, args));
    };
}

/** A request of the 2026-07-28 era: its `_meta` envelope names the protocol revision. */
function isModernRequest(ctx: ServerContext | undefined): ctx is ServerContext {
    return envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/** The reserved `_meta` keys of a 2026-07-28 request. */
const envelopeOf = (ctx: ServerContext | undefined) => ctx?.mcpReq?.envelope as Record<string, unknown> | undefined;

/** The capabilities a 2026-07-28 request declares. */
const declaredCapabilities = (ctx: ServerContext) => envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;

/** What the state is bound to besides the user: the method, the name, and the arguments the handler is given. */
function bindingOf(method: string, name: string | undefined, params: unknown[]): string {
    // setRequestHandler's handler is given the request: its name and arguments, not what travels beside them.
    const request = name === undefined ? (params[0] as { params?: Record<string, unknown> } | undefined)?.params : undefined;
    const { _meta, inputResponses, requestState, ...bound } = request ?? {};
    void _meta, void inputResponses, void requestState;
    return digest(canonical([method, name ?? null, request === undefined ? params : bound]));
}

/** Canonical JSON (sorted keys, undefined left out), so equal values always digest alike. */
function canonical(value: unknown): string {
    if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonical((value as { toJSON(): unknown }).toJSON());
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** Versioned: a copy with another Replay would not understand this one's. */
const RUNNING = Symbol.for('mcp-migrate-state.running.v1');

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The round a handler runs in, and (set while journaled work runs, where a question could never be answered,
 * since the work is not run again) the work's key. Kept on globalThis: a workspace's packages each get a copy
 * of this module, and a helper of one package asks in the round its caller's copy opened.
 */
const shared = globalThis as { [RUNNING]?: { current: AsyncLocalStorage<Replay>; working: AsyncLocalStorage<string> } };
const { current, working } = (shared[RUNNING] ??= { current: new AsyncLocalStorage<Replay>(), working: new AsyncLocalStorage<string>() });

/**
 * What an ask that waits for the client's answer throws once its round has gone to the client, and
 * anything journaled or asked after that: the handler's code winds down, and its result is not used.
 */
export class Suspended extends Error {
    constructor() {
        super('the call is suspended until the client answers (an input_required round); nothing more is done in this round');
        this.name = 'Suspended';
    }
}

/** A promise rejected with Suspended, which ends nothing when nothing awaits it. */
function suspension(): Promise<never> {
    const rejected = Promise.reject(new Suspended());
    rejected.catch(() => {});
    return rejected;
}

/** In a catch or finally block around a question: rethrows while the call is suspended, so the block neither takes that for an error nor runs before the call ends. */
export function rethrowIfSuspended(): void {
    if (current.getStore()?.suspended) throw new Suspended();
}

/** One round of a call replayed on a 2026-07-28 request. */
class Replay {
    private readonly journal: Journal;
    /** The requests of the round this request answers (from its state). */
    private readonly asked: InputRequests;
    /** This round's unanswered requests. */
    private readonly pending: InputRequests = {};
    /** What the asks waiting for them throw once the round has gone to the client. */
    private readonly waiting: ((reason: Suspended) => void)[] = [];
    /** How many times each question and each journaled work has come up in this run, by what it is. */
    private readonly seen = new Map<string, number>();
    private inFlight = 0;
    private activity = 0;
    private settling = false;
    /** The round has gone to the client: the handler winds down. */
    suspended = false;
    private endRound: () => void = () => {};
    private readonly ctx: ServerContext;
    private readonly binding: string;

    private constructor(ctx: ServerContext, binding: string, journal: Journal, asked: InputRequests) {
        this.ctx = ctx;
        this.binding = binding;
        this.journal = journal;
        this.asked = asked;
    }

    /** The call this request continues (its state checked to be this call's), or a first round. */
    static async open(ctx: ServerContext, binding: string): Promise<Replay> {
        const state = await openState(ctx, binding);
        return new Replay(ctx, binding, state?.journal ?? {}, state?.asked ?? {});
    }

    /** Runs the handler until it returns, or until it waits only on questions not answered yet. */
    async run(handler: () => unknown): Promise<unknown> {
        const roundEnded = new Promise<void>(resolve => (this.endRound = resolve));
        const done = current.run(this, handler);
        const finished = Promise.resolve(done).then(value => ({ value }));
        // Once the round has ended, what the handler then throws (Suspended) is not its result.
        finished.catch(() => {});
        const outcome = await Promise.race([finished, roundEnded.then(() => undefined)]);
        if (outcome !== undefined) return outcome.value;
        try {
            const unused = Object.keys(this.asked).filter(key => this.ctx.mcpReq.inputResponses?.[key] !== undefined && !(key in this.journal) && !(key in this.pending));
            if (unused.length > 0) throw drifted(unused);
            return inputRequired({ inputRequests: this.pending, requestState: await seal(this.ctx, { call: this.binding, journal: this.journal, asked: this.pending }) });
        } finally {
            // The state is sealed: the handler winds down, letting go of what it holds.
            for (const reject of this.waiting.splice(0)) reject(new Suspended());
        }
    }

    /**
     * The answer to `request`, asked under `name` (the name the handler binds its answer to, else the kind of
     * request; `-2`, `-3` for the times after the first): from the journal, from this request's answers
     * (checked as the request's own), or, not answered yet, the end of the round.
     */
    ask<R>(request: InputRequest, read: (response: unknown) => R, name: string | undefined): Promise<R> {
        this.activity++;
        const work = working.getStore();
        if (work !== undefined) return Promise.reject(new Error(`mcp-migrate: ${request.method} asked inside journaled work (${work}), which a later round replays without running it: move the question out of journaled(...)`));
        const key = this.keyFor(name ?? KIND_NAMES[request.method] ?? 'input');
        const question = digest(canonical(request));
        const entry = this.journal[key];
        if (entry !== undefined && 'answer' in entry) {
            // The answer to this question, not to another the handler asked under the same name on an earlier round.
            if (entry.question !== question) return Promise.reject(drifted([key]));
            return Promise.resolve(entry.answer as R);
        }
        if (this.suspended) return suspension();
        const answer = this.answerOf(key, request);
        if (answer.given) {
            const value = read(answer.response);
            this.journal[key] = { answer: value, question };
            return Promise.resolve(value);
        }
        requireCapability(this.ctx, request);
        this.pending[key] = request;
        this.settleThenEnd();
        const answered = new Promise<R>((_, reject) => this.waiting.push(reject));
        // An ask the handler does not await must not end the process when it is let go.
        answered.catch(() => {});
        return answered;
    }

    /**
     * This request's answer under `key`, when it gives one: to the question the state's round asked under
     * that key (another is an error: what the question is made from changed), of the request's kind. The
     * round the state continues must be answered; a first call may carry answers before they are asked.
     * An answer missing, or not of the kind asked, is refused: asking again would let a client probe.
     */
    private answerOf(key: string, request: InputRequest): { given: true; response: unknown } | { given: false } {
        const responses = this.ctx.mcpReq.inputResponses;
        const asked = this.asked[key];
        if (asked !== undefined && canonical(asked) !== canonical(request)) throw drifted([key]);
        const given: unknown = (responses as Record<string, unknown> | undefined)?.[key];
        if (given === undefined) {
            if (asked !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `the retry carries no answer to "${key}", which its round asked: answer it, or call again`);
            return { given: false };
        }
        if (inputResponse(responses, key).kind !== ANSWER_KINDS[request.method]) throw malformed(KIND_NAMES[request.method] ?? 'input');
        return { given: true, response: given };
    }

    /** `work` done once in the call: run on the round that first reaches it, its result replayed after. */
    journaled<T>(work: () => T): T {
        this.activity++;
        const key = this.keyOf('work', work.toString());
        const entry = this.journal[key];
        if (entry !== undefined) return replayed(entry, key) as T;
        if (this.suspended) throw new Suspended();
        let value: T;
        try {
            value = working.run(key, work);
        } catch (error) {
            this.journal[key] = { thrown: encodeError(error) };
            throw error;
        }
        if (!isThenable(value)) {
            this.journal[key] = { value: encodeValue(value, key) };
            return value;
        }
        this.inFlight++;
        Promise.resolve(value)
            .then(
                async settled => (this.journal[key] = { async: true, value: await encodeAsync(settled, key) }),
                error => (this.journal[key] = { async: true, thrown: encodeError(error) })
            )
            .finally(() => {
                this.inFlight--;
                if (Object.keys(this.pending).length > 0) this.settleThenEnd();
            });
        return value;
    }

    /** The capabilities this request declares. */
    capabilities(): ClientCapabilities | undefined {
        return declaredCapabilities(this.ctx);
    }

    /** The key of the n-th journaled work of this text in the call. */
    private keyOf(kind: string, what: string): string {
        const base = `${kind}-${digest(what).slice(0, 12)}`;
        const n = this.seen.get(base) ?? 0;
        this.seen.set(base, n + 1);
        return `${base}-${n}`;
    }

    /** The key of the n-th question asked under `name` in the call: `name`, then `name-2`, `name-3`. */
    private keyFor(name: string): string {
        const n = this.seen.get(`ask:${name}`) ?? 0;
        this.seen.set(`ask:${name}`, n + 1);
        return n === 0 ? name : `${name}-${n + 1}`;
    }

    /**
     * Ends the round once the handler has gone quiet: no journaled work in flight, and nothing asked or
     * journaled for a whole turn of the event loop, so that questions asked together go out together.
     */
    private settleThenEnd(): void {
        if (this.settling || this.suspended) return;
        this.settling = true;
        const before = this.activity;
        setImmediate(() => {
            this.settling = false;
            if (this.inFlight > 0) return; // the work's settling calls this again
            if (this.activity !== before) return this.settleThenEnd();
            this.suspended = true;
            this.endRound();
        });
    }
}

/** A retry answering questions this run no longer asks as they were: something the questions are made from changed between rounds. */
function drifted(keys: string[]): ProtocolError {
    // What to change is the server's to read, not the client's.
    logOnce(`a retry answered ${keys.join(', ')}, which the call no longer asks as it asked them: a value its questions are made from changed between rounds (journal what makes it with journaled(...) if it should not).`);
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `the retry answers ${keys.join(', ')}, which the call no longer asks as it asked them: call it again`);
}

/** What the SDK's request throws for an answer that is not a result of its kind. */
const malformed = (what: string) => new SdkError(SdkErrorCode.InvalidResult, `Invalid ${what} result: the client's answer is malformed`);

const logged = new Set<string>();
function logOnce(text: string): void {
    if (logged.has(text)) return;
    logged.add(text);
    console.error(`mcp-migrate-state: ${text}`);
}

/** The key a question is asked under when the handler binds its answer to no name. */
const KIND_NAMES: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };
/** What `inputResponse` says an answer to each request is. */
const ANSWER_KINDS: Record<string, string> = { 'elicitation/create': 'elicit', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

const isThenable = (value: unknown): value is PromiseLike<unknown> & { then: Promise<unknown>['then'] } =>
    value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';

/**
 * `target` (an SDK server, the handler's context or its `mcpReq`, or a request function taken from one)
 * with its requests to the client answered by replay on a 2026-07-28 request; anywhere else they are
 * sent as before. An elicitation asked of a server is checked as SDK 1.x checked it, on both eras.
 */
export function ask<T>(target: T, key?: string): T {
    if (typeof target === 'function') {
        return new Proxy(target, {
            apply: (fn, thisArg, args: unknown[]) => (current.getStore() === undefined ? Reflect.apply(fn, thisArg, args) : (sendRequest(args, key) ?? Reflect.apply(fn, thisArg, args)))
        });
    }
    if (target === null || typeof target !== 'object') return target;
    return new Proxy(target, {
        get(object, property) {
            const value: unknown = Reflect.get(object, property, object);
            const asking = typeof property === 'string' ? ASKING[property] : undefined;
            if (typeof value !== 'function') return asking === undefined ? value : (...args: unknown[]) => asking(args, object, key);
            if (asking === undefined) return value.bind(object);
            return (...args: unknown[]) => asking(args, object, key) ?? value.apply(object, args);
        }
    });
}

/**
 * The request methods `ask` answers, each from the arguments it is called with and the object it is called
 * on: by replay on a 2026-07-28 request; undefined where the object's own method sends it as before.
 */
const ASKING: Record<string, (args: unknown[], target: object, key: string | undefined) => Promise<unknown> | undefined> = {
    elicitInput: ([params, options], target, key) => (current.getStore() !== undefined ? elicit(params as ElicitParams, asServer(target) !== undefined, key) : legacyElicitation(target, params as ElicitParams, options)),
    createMessage: ([params], _target, key) => (current.getStore() !== undefined ? sample(params as SamplingParams, key) : undefined),
    requestSampling: ([params], _target, key) => (current.getStore() !== undefined ? sample(params as SamplingParams, key) : undefined),
    listRoots: (_args, _target, key) => (current.getStore() !== undefined ? roots(key) : undefined),
    // SDK 1.x's `extra.sendRequest`, on SDK 2.x's context (which sends it through `mcpReq.send`).
    sendRequest: (args, target, key) => (current.getStore() !== undefined ? sendRequest(args, key) : sendThroughContext(target, args)),
    request: (args, _target, key) => (current.getStore() !== undefined ? sendRequest(args, key) : undefined),
    send: (args, _target, key) => (current.getStore() !== undefined ? sendRequest(args, key) : undefined)
};

/** `ctx.sendRequest(...)` where `ctx` is SDK 2.x's context, which has none: sent through `ctx.mcpReq.send(...)`. */
function sendThroughContext(target: object, args: unknown[]): Promise<unknown> | undefined {
    const mcpReq = (target as { mcpReq?: { send?: (...a: unknown[]) => Promise<unknown> } }).mcpReq;
    return typeof (target as { sendRequest?: unknown }).sendRequest !== 'function' && typeof mcpReq?.send === 'function' ? mcpReq.send(...args) : undefined;
}

type ElicitParams = Parameters<typeof inputRequired.elicit>[0] & { mode?: 'form' } | (Parameters<typeof inputRequired.elicitUrl>[0] & { mode: 'url' });
type SamplingParams = Parameters<typeof inputRequired.createMessage>[0];

const replay = (): Replay => current.getStore()!;

/** A server (the low-level Server): what SDK 1.x's `elicitInput` was called on, and what a 2025-era elicitation is sent through. */
interface Requester {
    getClientCapabilities(): ClientCapabilities | undefined;
    request(request: { method: string; params?: object }, options?: unknown): Promise<unknown>;
}

function asServer(target: object): Requester | undefined {
    const t = target as Partial<Requester>;
    return typeof t.getClientCapabilities === 'function' && typeof t.request === 'function' ? (t as Requester) : undefined;
}

/**
 * A 2025-era elicitation asked of a server, as SDK 1.x's `elicitInput` asked it: its capability check, the
 * request, and the accepted content checked against the schema as 1.x checked it (with its messages).
 * Asked of anything else (`ctx.mcpReq.elicitInput`, written for SDK 2.x), the object's own method sends it.
 */
function legacyElicitation(target: object, params: ElicitParams, options: unknown): Promise<unknown> | undefined {
    const server = asServer(target);
    if (server === undefined) return undefined;
    const declared = server.getClientCapabilities()?.elicitation;
    if (params.mode === 'url') {
        if (!declared?.url) return Promise.reject(new Error('Client does not support url elicitation.'));
        return server.request({ method: 'elicitation/create', params }, options);
    }
    // (a bare `elicitation: {}`, from before elicitation had modes, is form support)
    if (!declared || (declared.url && !declared.form)) return Promise.reject(new Error('Client does not support form elicitation.'));
    const form = { ...params, mode: 'form' as const };
    return server.request({ method: 'elicitation/create', params: form }, options).then(result => checkedContent(result as ElicitShape, form.requestedSchema, true));
}

/** `asServer`: asked of a server, the answer is checked and refused with SDK 1.x's messages; else with SDK 2.x's. */
function elicit(params: ElicitParams, asServer: boolean, key: string | undefined): Promise<unknown> {
    if (params.mode === 'url') return replay().ask(inputRequired.elicitUrl(params), response => parsed(specTypeSchemas.ElicitResult, response, 'elicitation'), key);
    const { mode, ...form } = params;
    void mode;
    return replay().ask(inputRequired.elicit(form), response => checkedContent(parsed(specTypeSchemas.ElicitResult, response, 'elicitation') as ElicitShape, form.requestedSchema, asServer), key);
}

function sample(params: SamplingParams, key: string | undefined): Promise<unknown> {
    // Content blocks (an array) where the request offered tools, as createMessage returned them.
    const schema = params.tools || params.toolChoice ? specTypeSchemas.CreateMessageResultWithTools : specTypeSchemas.CreateMessageResult;
    return replay().ask(inputRequired.createMessage(params), response => parsed(schema, response, 'sampling'), key);
}

function roots(key: string | undefined): Promise<unknown> {
    return replay().ask(inputRequired.listRoots(), response => parsed(specTypeSchemas.ListRootsResult, response, 'roots'), key);
}

interface StandardSchema {
    '~standard': { validate(value: unknown): { value?: unknown; issues?: readonly unknown[] | undefined } | Promise<unknown> };
}

/**
 * `sendRequest({ method, params }, schema?)`: one of the three requests, its answer parsed by the schema given
 * (its content not checked, as a request sent this way never had it checked); undefined for another method.
 */
function sendRequest([request, schema]: unknown[], key: string | undefined): Promise<unknown> | undefined {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const own = schema !== null && typeof schema === 'object' && '~standard' in schema ? (schema as StandardSchema) : undefined;
    const read = (standard: StandardSchema, what: string) => (response: unknown) => parsed(own ?? standard, response, what);
    switch (method) {
        case 'elicitation/create': {
            const p = params as ElicitParams;
            if (p.mode === 'url') return replay().ask(inputRequired.elicitUrl(p), read(specTypeSchemas.ElicitResult, 'elicitation'), key);
            const { mode, ...form } = p;
            void mode;
            return replay().ask(inputRequired.elicit(form), read(specTypeSchemas.ElicitResult, 'elicitation'), key);
        }
        case 'sampling/createMessage':
            return replay().ask(inputRequired.createMessage(params as SamplingParams), read(specTypeSchemas.CreateMessageResult, 'sampling'), key);
        case 'roots/list':
            return replay().ask(inputRequired.listRoots(), read(specTypeSchemas.ListRootsResult, 'roots'), key);
        default:
            return undefined;
    }
}

/** The work `work` does once per call: on a 2026-07-28 request its result (or what it threw) is replayed on later rounds. */
export function journaled<T>(work: () => T): T {
    const call = current.getStore();
    return call === undefined ? work() : call.journaled(work);
}

/** The client's capabilities for this request: sent with it (2026-07-28), else declared at initialize. */
export function clientCapabilities(server: { getClientCapabilities(): ClientCapabilities | undefined }): ClientCapabilities | undefined {
    return current.getStore()?.capabilities() ?? server.getClientCapabilities();
}

/** Throws what the SDK's request would throw for a capability the client did not declare with this request. */
function requireCapability(ctx: ServerContext, request: InputRequest): void {
    const declared = declaredCapabilities(ctx);
    const unsupported = (message: string) => new SdkError(SdkErrorCode.CapabilityNotSupported, message);
    switch (request.method) {
        case 'elicitation/create':
            if (request.params.mode === 'url') {
                if (!declared?.elicitation?.url) throw unsupported('Client does not support url elicitation.');
            } else if (!declared?.elicitation || (declared.elicitation.url && !declared.elicitation.form)) {
                throw unsupported('Client does not support form elicitation.');
            }
            return;
        case 'sampling/createMessage':
            if (!declared?.sampling) throw unsupported('Client does not support sampling (required for sampling/createMessage)');
            if ((request.params.tools || request.params.toolChoice) && !declared.sampling.tools) throw unsupported('Client does not support sampling tools capability.');
            return;
        case 'roots/list':
            if (!declared?.roots) throw unsupported('Client does not support listing roots (required for roots/list)');
    }
}

/** `response` as `schema` parses it, or the error the SDK's request would have thrown for a malformed answer. */
function parsed(schema: StandardSchema, response: unknown, what: string): unknown {
    const result = schema['~standard'].validate(response);
    if (result instanceof Promise || result.issues !== undefined) throw malformed(what);
    return result.value;
}

let validator: AjvJsonSchemaValidator | undefined;

interface ElicitShape {
    action: string;
    content?: Record<string, unknown>;
}

/**
 * An elicitation's answer, its accepted content checked against the schema asked with: as SDK 1.x's
 * `elicitInput` checked it (ajv with ajv-formats, every error reported), its errors' messages as 1.x's
 * McpError wrote them (`MCP error -32602: ...`) where `legacyMessages`, else as SDK 2.x's.
 */
function checkedContent(result: ElicitShape, requestedSchema: object | undefined, legacyMessages: boolean): ElicitShape {
    if (result.action !== 'accept' || result.content === undefined || requestedSchema === undefined) return result;
    const error = (code: ProtocolErrorCode, message: string) => new ProtocolError(code, legacyMessages ? `MCP error ${code}: ${message}` : message);
    let check;
    try {
        validator ??= new AjvJsonSchemaValidator(addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true })));
        check = validator.getValidator(requestedSchema as JsonSchemaType)(result.content);
    } catch (cause) {
        throw error(ProtocolErrorCode.InternalError, `Error validating elicitation response: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    if (!check.valid) throw error(ProtocolErrorCode.InvalidParams, `Elicitation response content does not match requested schema: ${check.errorMessage}`);
    return result;
}

// ---- What journaled work leaves in the journal: JSON, with the values JSON alone would change tagged. ----

type Encoded = unknown;

/** A value the journal cannot carry: replaying the work that made it fails loudly rather than doing it again. */
interface Unreplayable {
    $unreplayable: string;
}

function encodeValue(value: unknown, key: string): Encoded {
    try {
        return encode(value, new Set());
    } catch (error) {
        return { $unreplayable: `${key}: ${error instanceof Error ? error.message : String(error)}` } satisfies Unreplayable;
    }
}

/** A settled value, a fetch Response's body read (from a clone, so the handler's own reads are untouched). */
async function encodeAsync(value: unknown, key: string): Promise<Encoded> {
    if (typeof Response !== 'undefined' && value instanceof Response) {
        const body = Buffer.from(await value.clone().arrayBuffer()).toString('base64');
        return { $response: { status: value.status, statusText: value.statusText, headers: headerList(value.headers), url: value.url, body } };
    }
    return encodeValue(value, key);
}

/** A response's headers as pairs (read with forEach: iterating Headers needs the DOM's iterable typings). */
function headerList(headers: Headers): [string, string][] {
    const list: [string, string][] = [];
    headers.forEach((value, name) => list.push([name, value]));
    return list;
}

function encode(value: unknown, path: Set<object>): Encoded {
    if (value === undefined) return { $undefined: true };
    if (typeof value === 'number' && !Number.isFinite(value)) return { $number: String(value) };
    if (typeof value === 'bigint') return { $bigint: value.toString() };
    if (value === null || typeof value !== 'object') {
        if (typeof value === 'function' || typeof value === 'symbol') throw new Error(`a ${typeof value} cannot be journaled`);
        return value;
    }
    if (path.has(value)) throw new Error('a value that contains itself cannot be journaled');
    path.add(value);
    try {
        if (Array.isArray(value)) return value.map(item => encode(item, path));
        if (value instanceof Date) return { $date: value.toISOString() };
        if (value instanceof Map) return { $map: [...value].map(([k, v]) => [encode(k, path), encode(v, path)]) };
        if (value instanceof Set) return { $set: [...value].map(v => encode(v, path)) };
        if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
        if (value instanceof Error) return { $error: encodeError(value) };
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) throw new Error(`an instance of ${(value as object).constructor?.name ?? 'a class'} cannot be journaled`);
        const out: Record<string, Encoded> = {};
        for (const [k, v] of Object.entries(value)) out[k.startsWith('$') ? `$${k}` : k] = encode(v, path);
        return out;
    } finally {
        path.delete(value);
    }
}

function decode(value: Encoded): unknown {
    if (Array.isArray(value)) return value.map(decode);
    if (value === null || typeof value !== 'object') return value;
    const tagged = value as Record<string, unknown>;
    if ('$undefined' in tagged) return undefined;
    if ('$number' in tagged) return Number(tagged['$number']);
    if ('$bigint' in tagged) return BigInt(tagged['$bigint'] as string);
    if ('$date' in tagged) return new Date(tagged['$date'] as string);
    if ('$map' in tagged) return new Map((tagged['$map'] as [Encoded, Encoded][]).map(([k, v]) => [decode(k), decode(v)]));
    if ('$set' in tagged) return new Set((tagged['$set'] as Encoded[]).map(decode));
    if ('$bytes' in tagged) return new Uint8Array(Buffer.from(tagged['$bytes'] as string, 'base64'));
    if ('$error' in tagged) return decodeError(tagged['$error'] as EncodedError);
    if ('$response' in tagged) return decodeResponse(tagged['$response'] as EncodedResponse);
    if ('$unreplayable' in tagged) throw new Error(`mcp-migrate: journaled work ${String(tagged['$unreplayable'])}; its result cannot be replayed on this round. Return plain data from the work journaled (or make the value again where it is used)`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(tagged)) out[k.startsWith('$$') ? k.slice(1) : k] = decode(v);
    return out;
}

interface EncodedError {
    name: string;
    message: string;
    code?: unknown;
    data?: unknown;
}

function encodeError(error: unknown): EncodedError {
    if (!(error instanceof Error)) return { name: 'Error', message: String(error), data: safely(error) };
    const { code, data } = error as { code?: unknown; data?: unknown };
    return { name: error.name, message: error.message, code: safely(code), data: safely(data) };
}

function safely(value: unknown): unknown {
    try {
        return value === undefined ? undefined : encode(value, new Set());
    } catch {
        return undefined;
    }
}

/** An error as the work threw it: its class where it is the SDK's, else an Error of the same name, message and code. */
function decodeError(encoded: EncodedError): Error {
    const data = decode(encoded.data);
    if (encoded.name === 'ProtocolError' && typeof encoded.code === 'number') return new ProtocolError(encoded.code, encoded.message, data);
    const error = new Error(encoded.message) as Error & { code?: unknown; data?: unknown };
    error.name = encoded.name;
    if (encoded.code !== undefined) error.code = decode(encoded.code);
    if (data !== undefined) error.data = data;
    return error;
}

interface EncodedResponse {
    status: number;
    statusText: string;
    headers: [string, string][];
    url: string;
    body: string;
}

function decodeResponse(encoded: EncodedResponse): Response {
    const nullBody = [101, 204, 205, 304].includes(encoded.status);
    const response = new Response(nullBody ? null : Buffer.from(encoded.body, 'base64'), { status: encoded.status, statusText: encoded.statusText, headers: encoded.headers });
    Object.defineProperty(response, 'url', { value: encoded.url });
    return response;
}

/** What journaled work left, as the work returned (or threw) it the first time. */
function replayed(entry: JournalEntry, key: string): unknown {
    if ('answer' in entry) throw new Error(`mcp-migrate: ${key} is an answer, not journaled work`);
    if ('thrown' in entry) {
        const error = decodeError(entry.thrown as EncodedError);
        if (entry.async) return Promise.reject(error);
        throw error;
    }
    return entry.async ? Promise.resolve().then(() => decode(entry.value)) : decode(entry.value);
}
