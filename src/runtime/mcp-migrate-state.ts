/**
 * requestState for the handlers mcp-migrate moved to MCP 2026-07-28 `input_required` rounds.
 *
 * Where a handler awaited a request to the client, its phases now run in `resumeCall(...).run`, and
 * the await became `call.suspend({ step, ...locals }, requests)`: the client answers, then retries the
 * call with the answers and the state, and the handler resumes at that step (in the same request,
 * where it already carries the answers). The step carries the locals the rest of the handler needs,
 * sealed by mcp-migrate-state-seal beside this file, which says what to configure (over HTTP, a key).
 *
 * Written once by mcp-migrate, which never overwrites it: edit it freely.
 */
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, ProtocolError, ProtocolErrorCode, specTypeSchemas } from '@modelcontextprotocol/server';
import type { ClientCapabilities, CreateMessageResult, ElicitResult, InputRequests, InputRequiredResult, JsonSchemaType, ListRootsResult, ServerContext, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/server/validators/ajv';
import { resumedState, seal, unanswered, type Verified } from './mcp-migrate-state-seal.js';
export { configureRequestState, memoryStore, redisStore, verifyRequestState, type RedisClient, type StateStore } from './mcp-migrate-state-seal.js';

/** Where a call resumes: the step it suspended at (named by what that round waits for), with the locals it carries on. */
export interface Step { step: string }

/** Where a call starts: no state came back with it. */
export interface Start { step: 'start' }

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
    const { call, state } = resumedState(ctx, name, args);
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
                return inputRequired({ inputRequests, requestState: await seal(ctx, call, resume, inputRequests) });
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
