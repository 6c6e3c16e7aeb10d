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
  requireSupport: 'requireClientSupport',
  capabilities: 'clientCapabilities'
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
import type { ClientCapabilities, CreateMessageResult, ElicitResult, ListRootsResult, ServerContext } from '@modelcontextprotocol/server';

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

/**
 * The client's capabilities for this request, where the handler read \`server.getClientCapabilities()\`:
 * a 2026-07-28 client declares them with each request (and has none at initialize, which it never
 * sends, so under serveStdio the accessor answers undefined for it); a 2025-era client declared them
 * at initialize, which the accessor still answers.
 */
export function clientCapabilities(
    ctx: ServerContext,
    server: { getClientCapabilities(): ClientCapabilities | undefined }
): ClientCapabilities | undefined {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
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

/** The JSON Schema keywords an elicitation's requested schema can carry that SDK 1.x's validator checked. */
export type RequestedSchema = {
    type?: string | string[];
    properties?: Record<string, RequestedSchema>;
    required?: string[];
    items?: RequestedSchema;
    enum?: unknown[];
    const?: unknown;
    oneOf?: RequestedSchema[];
    anyOf?: RequestedSchema[];
    minimum?: number;
    maximum?: number;
    minLength?: number;
    maxLength?: number;
    pattern?: string;
    format?: string;
    minItems?: number;
    maxItems?: number;
    [key: string]: unknown;
};

// SDK 1.x's elicitInput checked accepted content with ajv (allErrors, ajv-formats in "full" mode)
// and threw its errorsText. The check below repeats ajv's for the keywords above, in ajv's order
// and wording, so that a handler which shows error.message shows the same text on both eras.

// ajv-formats' "full" email, uri, date and date-time.
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const URI = /^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
const DATE = /^(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)$/;
const TIME = /^(\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d+)?)(z|([+-])(\\d\\d)(?::?(\\d\\d))?)?$/i;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(value: string): boolean {
    const m = DATE.exec(value);
    if (!m) return false;
    const [year, month, day] = [+m[1]!, +m[2]!, +m[3]!];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month]!);
}

/** A time with a time zone; 23:59:60 UTC (a leap second) included. */
function isTime(value: string): boolean {
    const m = TIME.exec(value);
    if (!m || m[4] === undefined) return false;
    const [hour, minute, second] = [+m[1]!, +m[2]!, +m[3]!];
    const sign = m[5] === '-' ? -1 : 1;
    const [zoneHour, zoneMinute] = [+(m[6] ?? 0), +(m[7] ?? 0)];
    if (zoneHour > 23 || zoneMinute > 59) return false;
    if (hour <= 23 && minute <= 59 && second < 60) return true;
    const utcMinute = minute - zoneMinute * sign;
    const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
    return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

function formatMatches(format: string, value: string): boolean {
    switch (format) {
        case 'email':
            return EMAIL.test(value);
        case 'uri':
            return /\\/|:/.test(value) && URI.test(value);
        case 'date':
            return isDate(value);
        case 'date-time': {
            const parts = value.split(/t|\\s/i);
            return parts.length === 2 && isDate(parts[0]!) && isTime(parts[1]!);
        }
        default:
            return true; // formats an elicitation cannot name are not checked
    }
}

function hasType(value: unknown, type: string): boolean {
    switch (type) {
        case 'integer':
            return Number.isInteger(value);
        case 'array':
            return Array.isArray(value);
        case 'object':
            return value !== null && typeof value === 'object' && !Array.isArray(value);
        case 'null':
            return value === null;
        default:
            return typeof value === type;
    }
}

/** ajv counts a string's length in code points, not UTF-16 units. */
function codePoints(value: string): number {
    return Array.from(value).length;
}

/** Deep equality of JSON values, as ajv's enum and const compare. */
function equal(a: unknown, b: unknown): boolean {
    return a === b || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && canonical(a) === canonical(b));
}

/** A keyword that applies to values of one type: the message when it fails, or nothing. */
type TypedKeyword = (value: any, limit: any, path: string, errors: string[]) => string | undefined;

/** ajv checks these after enum/const/anyOf/oneOf, group by group in this order, each only on values of its type. */
const TYPED_KEYWORDS: [string, Record<string, TypedKeyword>][] = [
    ['number', {
        maximum: (value, limit) => (value > limit ? \`must be <= \${limit}\` : undefined),
        minimum: (value, limit) => (value < limit ? \`must be >= \${limit}\` : undefined)
    }],
    ['string', {
        maxLength: (value, limit) => (codePoints(value) > limit ? \`must NOT have more than \${limit} characters\` : undefined),
        minLength: (value, limit) => (codePoints(value) < limit ? \`must NOT have fewer than \${limit} characters\` : undefined),
        pattern: (value, pattern) => (new RegExp(pattern, 'u').test(value) ? undefined : \`must match pattern "\${pattern}"\`),
        format: (value, format) => (formatMatches(format, value) ? undefined : \`must match format "\${format}"\`)
    }],
    ['array', {
        maxItems: (value, limit) => (value.length > limit ? \`must NOT have more than \${limit} items\` : undefined),
        minItems: (value, limit) => (value.length < limit ? \`must NOT have fewer than \${limit} items\` : undefined),
        items: (value: unknown[], items, path, errors) => {
            value.forEach((item, i) => schemaErrors(item, items, \`\${path}/\${i}\`, errors));
            return undefined;
        }
    }],
    ['object', {
        required: (value, names: string[], path, errors) => {
            for (const name of names) if (value[name] === undefined) errors.push(\`\${path} must have required property '\${name}'\`);
            return undefined;
        },
        properties: (value, properties: Record<string, RequestedSchema>, path, errors) => {
            for (const [name, property] of Object.entries(properties)) {
                const pointer = name.replace(/~/g, '~0').replace(/\\//g, '~1');
                if (value[name] !== undefined) schemaErrors(value[name], property, \`\${path}/\${pointer}\`, errors);
            }
            return undefined;
        }
    }]
];

/** Appends ajv's errors for \`value\` against \`schema\`, each as errorsText shows it: "data/name must ...". */
function schemaErrors(value: unknown, schema: RequestedSchema, path: string, errors: string[]): void {
    const report = (message: string) => errors.push(\`\${path} \${message}\`);
    const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
    const groups = TYPED_KEYWORDS.filter(([, keywords]) => Object.keys(keywords).some(keyword => schema[keyword] !== undefined));
    // A wrong type is reported first, unless the one type has keywords of its own: then in its group.
    const typeInGroup = types.length === 1 && groups.some(([type]) => type === types[0]);
    if (types.length > 0 && !typeInGroup && !types.some(type => hasType(value, type))) report(\`must be \${types.join(',')}\`);
    if (schema.const !== undefined && !equal(value, schema.const)) report('must be equal to constant');
    if (schema.enum !== undefined && !schema.enum.some(option => equal(value, option))) report('must be equal to one of the allowed values');
    if (schema.anyOf !== undefined) {
        const failed: string[] = [];
        const passes = schema.anyOf.some(branch => {
            const before = failed.length;
            schemaErrors(value, branch, path, failed);
            return failed.length === before;
        });
        if (!passes) errors.push(...failed, \`\${path} must match a schema in anyOf\`);
    }
    if (schema.oneOf !== undefined) {
        // ajv stops at the second branch that passes
        const failed: string[] = [];
        let passing = 0;
        for (const branch of schema.oneOf) {
            const before = failed.length;
            schemaErrors(value, branch, path, failed);
            if (failed.length === before && ++passing === 2) break;
        }
        if (passing !== 1) errors.push(...failed, \`\${path} must match exactly one schema in oneOf\`);
    }
    for (const [type, keywords] of groups) {
        if (!hasType(value, type)) {
            if (typeInGroup && types[0] === type) report(\`must be \${type}\`);
            continue;
        }
        for (const [keyword, check] of Object.entries(keywords)) {
            if (schema[keyword] === undefined) continue;
            const message = check(value, schema[keyword], path, errors);
            if (message !== undefined) report(message);
        }
    }
}

/** SDK 1.x's McpError put "MCP error <code>: " before its message; ProtocolError does not, so the text carries it. */
function legacyError(code: ProtocolErrorCode, message: string): ProtocolError {
    return new ProtocolError(code, \`MCP error \${code}: \${message}\`);
}

/** The answer to an elicitation, as \`elicitInput\` returned it: accept (validated), decline or cancel. */
export function elicitResult(ctx: ServerContext, key: string, requestedSchema?: RequestedSchema): ElicitResult {
    const view = inputResponse(ctx.mcpReq.inputResponses, key);
    if (view.kind !== 'elicit') throw missing(key, 'elicitation');
    if (view.action !== 'accept') return { action: view.action };
    const content = (view.content ?? {}) as Record<string, unknown>;
    if (requestedSchema !== undefined) {
        const errors: string[] = [];
        try {
            schemaErrors(content, requestedSchema, 'data', errors);
        } catch (error) {
            // an invalid pattern
            throw legacyError(ProtocolErrorCode.InternalError, \`Error validating elicitation response: \${error instanceof Error ? error.message : String(error)}\`);
        }
        if (errors.length > 0) {
            throw legacyError(ProtocolErrorCode.InvalidParams, \`Elicitation response content does not match requested schema: \${errors.join(', ')}\`);
        }
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
