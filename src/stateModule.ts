/**
 * The requestState module the tool writes once per project (never over an existing file): the
 * runtime side of every rewritten handler. Handlers import `suspendCall`, `resumeCall` and the
 * answer readers from it; the server construction imports `verifyRequestState`.
 */
import { ts } from 'ts-morph';

export const STATE_MODULE_BASENAME = 'mcp-migrate-state';
export const STATE_KEY_ENV = 'MCP_REQUEST_STATE_KEY';

/** Names the module exports, in one place so the rewrite and the module cannot drift apart. */
export const stateExports = {
  verify: 'verifyRequestState',
  suspend: 'suspendCall',
  resume: 'resumeCall',
  elicit: 'elicitResult',
  sampling: 'samplingResult',
  roots: 'rootsResult',
  unknownPhase: 'unknownPhase',
  requireSupport: 'requireClientSupport'
} as const;

const TS_SOURCE = `/**
 * Resumption state for handlers migrated by mcp-migrate to MCP 2026-07-28 input_required rounds.
 *
 * A migrated handler returns \`inputRequired({ inputRequests, requestState })\` where it used to
 * await a server-initiated request; the client answers and retries the call, echoing
 * \`requestState\`. Everything the handler needs after the old await travels in that state:
 * HMAC-SHA256 sealed (the SDK's createRequestStateCodec), expiring after ten minutes, bound to
 * the request method and the caller, and to the tool/prompt/resource name and a hash of its
 * arguments. State that fails any check is refused before or as the handler starts.
 *
 * Generated once by mcp-migrate; it never overwrites this file, so edit it freely.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, createRequestStateCodec, inputResponse, isSpecType, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CreateMessageResult, ElicitResult, ListRootsResult, ServerContext } from '@modelcontextprotocol/server';

const KEY_ENV = '${STATE_KEY_ENV}';
const TTL_SECONDS = 600;
/** A sealed state larger than this is refused when minted (carry less, or keep it in a store) and when echoed. */
const MAX_STATE_BYTES = 16 * 1024;

function loadKey(): string {
    const key = process.env[KEY_ENV];
    if (key === undefined || Buffer.byteLength(key, 'utf8') < 32) {
        throw new Error(
            \`\${KEY_ENV} must hold a secret of at least 32 bytes: it seals the requestState of input_required rounds. \` +
                \`Generate one with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"\`
        );
    }
    return key;
}

interface SealedCall {
    /** Hash of the method, the tool/prompt/resource name and its arguments. */
    call: string;
    /** The phase to resume at (1 = after the first suspension). */
    phase: number;
    /** The handler's locals that are live across the suspension. */
    locals: Record<string, unknown>;
}

const codec = createRequestStateCodec<SealedCall>({
    key: loadKey(),
    ttlSeconds: TTL_SECONDS,
    bind: ctx => \`\${ctx.mcpReq.method}\\0\${ctx.http?.authInfo?.clientId ?? ''}\`
});

/**
 * Pass as \`requestState: { verify: verifyRequestState }\` in the server options. A state longer
 * than any this module mints is refused before its MAC is computed.
 */
export function verifyRequestState(state: string, ctx: ServerContext): Promise<SealedCall> {
    if (state.length > MAX_STATE_BYTES) return Promise.reject(new Error('oversized'));
    return codec.verify(state, ctx);
}

/** Canonical JSON (sorted keys) so equal arguments always hash alike. */
function canonical(value: unknown): string {
    if (Array.isArray(value)) return \`[\${value.map(canonical).join(',')}]\`;
    if (value !== null && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return \`{\${entries.map(([k, v]) => \`\${JSON.stringify(k)}:\${canonical(v)}\`).join(',')}}\`;
    }
    return JSON.stringify(value) ?? 'null';
}

function callHash(ctx: ServerContext, name: string, args: unknown): string {
    return createHash('sha256').update(canonical([ctx.mcpReq.method, name, args ?? null])).digest('base64url');
}

/** Seals the state for the next round of the call \`name(args)\`. */
export async function suspendCall(
    ctx: ServerContext,
    name: string,
    args: unknown,
    phase: number,
    locals: Record<string, unknown>
): Promise<string> {
    const state = await codec.mint({ call: callHash(ctx, name, args), phase, locals }, ctx);
    if (state.length > MAX_STATE_BYTES) {
        throw new ProtocolError(
            ProtocolErrorCode.InternalError,
            \`requestState for \${name} is \${state.length} bytes, over the \${MAX_STATE_BYTES}-byte limit\`
        );
    }
    return state;
}

/** What SDK 1.x threw when the client had not declared the capability a request needs. */
const UNSUPPORTED = {
    sampling: 'Client does not support sampling (required for sampling/createMessage)',
    elicitation: 'Client does not support elicitation (required for elicitation/create)',
    roots: 'Client does not support listing roots (required for roots/list)'
} as const;

/**
 * Throws as the legacy await did when a 2026-07-28 client has declared it cannot answer a
 * request of this kind, so that a surrounding try/catch still sees the failure. (The SDK would
 * otherwise refuse the whole call with -32021 once the handler returned.)
 */
export function requireClientSupport(ctx: ServerContext, kinds: (keyof typeof UNSUPPORTED)[]): void {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined;
    if (declared === undefined) return; // a 2025-era request: the SDK's shim asks the client itself
    for (const kind of kinds) if (declared[kind] === undefined) throw new Error(UNSUPPORTED[kind]);
}

export interface ResumedCall {
    phase: number;
    // The locals' types are restored by annotations at the resumption site.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    locals: Record<string, any>;
}

/**
 * The verified state of this round: phase 0 with no locals on a first call. Refuses state minted
 * for another tool, prompt or resource, or for other arguments.
 */
export function resumeCall(ctx: ServerContext, name: string, args: unknown): ResumedCall {
    const state: unknown = ctx.mcpReq.requestState();
    if (state === undefined) return { phase: 0, locals: {} };
    if (typeof state === 'string' || state === null || typeof state !== 'object') {
        throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            'requestState was not verified: pass requestState: { verify: verifyRequestState } in the server options'
        );
    }
    const sealed = state as Partial<SealedCall>;
    const expected = Buffer.from(callHash(ctx, name, args));
    const actual = Buffer.from(typeof sealed.call === 'string' ? sealed.call : '');
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, \`requestState was issued for another call than \${name} with these arguments\`);
    }
    if (!Number.isInteger(sealed.phase) || (sealed.phase as number) < 1 || sealed.locals === null || typeof sealed.locals !== 'object' || Array.isArray(sealed.locals)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState is malformed');
    }
    return { phase: sealed.phase as number, locals: sealed.locals };
}

/** A sealed phase this version of the handler does not know (state minted by an older build). */
export function unknownPhase(name: string, resumed: ResumedCall): ProtocolError {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, \`requestState names phase \${resumed.phase}, which \${name} does not have: call it again\`);
}

function missing(key: string, kind: string): ProtocolError {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, \`the retried request carries no \${kind} response for "\${key}"\`);
}

function malformed(key: string, kind: string): ProtocolError {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, \`the \${kind} response for "\${key}" is malformed\`);
}

type JsonSchemaProperty = {
    type?: string;
    enum?: unknown[];
    minimum?: number;
    maximum?: number;
    minLength?: number;
    maxLength?: number;
    items?: { enum?: unknown[]; [key: string]: unknown };
    [key: string]: unknown;
};
export type RequestedSchema = { type?: string; properties?: Record<string, JsonSchemaProperty>; required?: string[]; [key: string]: unknown };

/** Checks accepted content against the flat schema the request asked for, as the legacy SDK did. */
function contentProblem(content: Record<string, unknown>, schema: RequestedSchema): string | undefined {
    const properties = schema.properties ?? {};
    for (const name of schema.required ?? []) {
        if (content[name] === undefined) return \`"\${name}" is required\`;
    }
    for (const [name, value] of Object.entries(content)) {
        const property = properties[name];
        if (property === undefined || value === undefined) continue;
        const type = property.type;
        if (type === 'string' && typeof value !== 'string') return \`"\${name}" must be a string\`;
        if ((type === 'number' || type === 'integer') && typeof value !== 'number') return \`"\${name}" must be a number\`;
        if (type === 'integer' && !Number.isInteger(value)) return \`"\${name}" must be an integer\`;
        if (type === 'boolean' && typeof value !== 'boolean') return \`"\${name}" must be a boolean\`;
        if (type === 'array' && !Array.isArray(value)) return \`"\${name}" must be an array\`;
        if (property.enum !== undefined && !property.enum.includes(value)) return \`"\${name}" must be one of \${JSON.stringify(property.enum)}\`;
        if (typeof value === 'number' && property.minimum !== undefined && value < property.minimum) return \`"\${name}" is below \${property.minimum}\`;
        if (typeof value === 'number' && property.maximum !== undefined && value > property.maximum) return \`"\${name}" is above \${property.maximum}\`;
        if (typeof value === 'string' && property.minLength !== undefined && value.length < property.minLength) return \`"\${name}" is too short\`;
        if (typeof value === 'string' && property.maxLength !== undefined && value.length > property.maxLength) return \`"\${name}" is too long\`;
        if (Array.isArray(value) && property.items?.enum !== undefined && value.some(v => !property.items!.enum!.includes(v))) {
            return \`"\${name}" has a value outside \${JSON.stringify(property.items.enum)}\`;
        }
    }
    return undefined;
}

/** The answer to an elicitation, as \`elicitInput\` returned it: accept (validated), decline or cancel. */
export function elicitResult(ctx: ServerContext, key: string, requestedSchema?: RequestedSchema): ElicitResult {
    const view = inputResponse(ctx.mcpReq.inputResponses, key);
    if (view.kind !== 'elicit') throw missing(key, 'elicitation');
    if (view.action !== 'accept') return { action: view.action };
    const content = (view.content ?? {}) as Record<string, unknown>;
    const problem = requestedSchema === undefined ? undefined : contentProblem(content, requestedSchema);
    if (problem !== undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, \`elicitation response "\${key}" does not match the requested schema: \${problem}\`);
    }
    return { action: 'accept', content: content as ElicitResult['content'] };
}

/** The answer to a sampling request, as \`createMessage\` returned it. */
export function samplingResult(ctx: ServerContext, key: string): CreateMessageResult {
    const view = inputResponse(ctx.mcpReq.inputResponses, key);
    if (view.kind !== 'sampling') throw missing(key, 'sampling');
    // The legacy SDK validated the client's answer against the schema; so does this.
    if (!isSpecType.CreateMessageResult(view.result) && !isSpecType.CreateMessageResultWithTools(view.result)) throw malformed(key, 'sampling');
    return inSchemaOrder(view.result, ['_meta', 'model', 'stopReason', 'role', 'content']) as CreateMessageResult;
}

/**
 * The legacy SDK parsed every answer with its schema, which lists the known keys in schema order;
 * code that serialises the answer (JSON.stringify) sees the same text when the keys come alike.
 */
function inSchemaOrder<T extends object>(value: T, keys: string[]): T {
    const source = value as Record<string, unknown>;
    const ordered: Record<string, unknown> = {};
    for (const key of keys) if (source[key] !== undefined) ordered[key] = source[key];
    for (const [key, v] of Object.entries(source)) if (!(key in ordered)) ordered[key] = v;
    return ordered as T;
}

/** The answer to a roots request, as \`listRoots\` returned it. */
export function rootsResult(ctx: ServerContext, key: string): ListRootsResult {
    const view = inputResponse(ctx.mcpReq.inputResponses, key);
    if (view.kind !== 'roots') throw missing(key, 'roots');
    const result = { roots: view.roots };
    if (!isSpecType.ListRootsResult(result)) throw malformed(key, 'roots');
    return { roots: result.roots.map(root => inSchemaOrder(root, ['uri', 'name', '_meta'])) };
}
`;

export type ModuleFlavour = 'ts' | 'esm' | 'cjs';

/** The module text in the project's flavour: TypeScript, or JavaScript (ESM or CommonJS) without types. */
export function stateModuleText(flavour: ModuleFlavour): string {
  if (flavour === 'ts') return TS_SOURCE;
  const out = ts.transpileModule(TS_SOURCE, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: flavour === 'cjs' ? ts.ModuleKind.CommonJS : ts.ModuleKind.ES2022,
      removeComments: false
    }
  });
  return out.outputText;
}

export function stateModuleExtension(flavour: ModuleFlavour): string {
  return flavour === 'ts' ? '.ts' : flavour === 'cjs' ? '.cjs' : '.js';
}
