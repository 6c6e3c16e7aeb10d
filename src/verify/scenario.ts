/**
 * Scenarios: which calls verify makes, and how the fake client answers the input the server asks for.
 */
import { isRecord } from '../values.js';

/** The three methods during which a server may ask the client for input. */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

export const CALL_METHODS: readonly CallMethod[] = ['tools/call', 'prompts/get', 'resources/read'];

/** The client's answers for one call, per kind of input request. See {@link Scenario}. */
export interface ScenarioAnswers {
  /** `ElicitResult`s: `{ action: 'accept', content: {...} }`, `{ action: 'decline' }`, `{ action: 'cancel' }`. */
  elicitation?: Record<string, unknown>[];
  /** `CreateMessageResult`s: `{ role: 'assistant', model, content: { type: 'text', text } }`. */
  sampling?: Record<string, unknown>[];
  /** `ListRootsResult`s: `{ roots: [{ uri, name? }] }`. */
  roots?: Record<string, unknown>[];
}

export interface ScenarioCall {
  /** A label for the call, shown in the verify table. Defaults to `<method> <name or uri>`. */
  name: string;
  method: CallMethod;
  /** The request params as sent: `{ name, arguments }` for tools and prompts, `{ uri }` for resources. */
  params: Record<string, unknown>;
  answers?: ScenarioAnswers;
}

/**
 * A verify scenario: a list of calls, made in order over one connection per run.
 *
 * ```json
 * {
 *   "calls": [
 *     {
 *       "name": "greet decline",
 *       "method": "tools/call",
 *       "params": { "name": "greet", "arguments": { "name": "Ada" } },
 *       "answers": {
 *         "elicitation": [{ "action": "decline" }],
 *         "sampling": [{ "role": "assistant", "model": "m", "content": { "type": "text", "text": "..." } }],
 *         "roots": [{ "roots": [{ "uri": "file:///a", "name": "a" }] }]
 *       }
 *     }
 *   ]
 * }
 * ```
 *
 * - `method` is `tools/call`, `prompts/get` or `resources/read`; `name` is optional in the file (defaults to
 *   `<method> <params.name or params.uri>`).
 * - `answers` holds one list per kind of input request (`elicitation` → `elicitation/create`,
 *   `sampling` → `sampling/createMessage`, `roots` → `roots/list`). Within one call each list is consumed in
 *   order; when the server asks more often than the list is long, the last answer repeats.
 * - A missing (or empty) list answers with a deterministic default: elicitation accepts with content built
 *   from every property of the requested schema (strings `"test"`, numbers and integers `1`, booleans `true`,
 *   enums their first value, multi-select enums a one-element array; URL-mode elicitation accepts with no
 *   content); sampling answers {@link DEFAULT_SAMPLING_ANSWER}; roots answers {@link DEFAULT_ROOTS_ANSWER}.
 * - Answers are the same on every era: the modern client gives them back inside `inputResponses`, the
 *   legacy client as the responses to the server's own requests.
 */
export interface Scenario {
  calls: ScenarioCall[];
}

export const DEFAULT_SAMPLING_ANSWER = {
  role: 'assistant',
  model: 'mcp-migrate-verify',
  content: { type: 'text', text: 'sampled text' },
  stopReason: 'endTurn',
} as const;

export const DEFAULT_ROOTS_ANSWER = { roots: [{ uri: 'file:///workspace', name: 'workspace' }] } as const;

export type AnswerKind = keyof ScenarioAnswers;

export const ANSWER_KIND_BY_METHOD: Record<string, AnswerKind> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** A scenario problem: the message names the offending place, e.g. `calls[2].method`. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

/** Checks and normalises a parsed scenario file; throws {@link ScenarioError} naming the first problem. */
export function parseScenario(input: unknown): Scenario {
  if (!isRecord(input)) throw new ScenarioError('scenario: expected an object with a "calls" array');
  const calls = input.calls;
  if (!Array.isArray(calls)) throw new ScenarioError('scenario.calls: expected an array');
  return {
    calls: calls.map((raw, i): ScenarioCall => {
      const where = `calls[${i}]`;
      if (!isRecord(raw)) throw new ScenarioError(`${where}: expected an object`);
      const method = raw.method;
      if (typeof method !== 'string' || !(CALL_METHODS as readonly string[]).includes(method)) {
        throw new ScenarioError(`${where}.method: expected one of ${CALL_METHODS.join(', ')}, got ${JSON.stringify(method)}`);
      }
      const params = raw.params;
      if (!isRecord(params)) throw new ScenarioError(`${where}.params: expected an object`);
      if (method === 'resources/read') {
        if (typeof params.uri !== 'string') throw new ScenarioError(`${where}.params.uri: expected a string`);
      } else if (typeof params.name !== 'string') {
        throw new ScenarioError(`${where}.params.name: expected a string`);
      }
      if (params.arguments !== undefined && !isRecord(params.arguments)) {
        throw new ScenarioError(`${where}.params.arguments: expected an object`);
      }
      if (raw.name !== undefined && typeof raw.name !== 'string') throw new ScenarioError(`${where}.name: expected a string`);
      const answers: ScenarioAnswers = {};
      if (raw.answers !== undefined) {
        if (!isRecord(raw.answers)) throw new ScenarioError(`${where}.answers: expected an object`);
        for (const [kind, list] of Object.entries(raw.answers)) {
          if (kind !== 'elicitation' && kind !== 'sampling' && kind !== 'roots') {
            throw new ScenarioError(`${where}.answers.${kind}: unknown answer kind (elicitation, sampling, roots)`);
          }
          if (!Array.isArray(list) || !list.every(isRecord)) {
            throw new ScenarioError(`${where}.answers.${kind}: expected an array of objects`);
          }
          answers[kind] = list;
        }
      }
      const label = typeof raw.name === 'string' ? raw.name : `${method} ${String(params.name ?? params.uri)}`;
      return { name: label, method: method as CallMethod, params, answers };
    }),
  };
}

/** A deterministic value for one JSON Schema property (strings "test", numbers 1, booleans true, enums first). */
export function sampleValue(schema: unknown): unknown {
  if (!isRecord(schema)) return 'test';
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const first = options[0];
      if (isRecord(first) && first.const !== undefined) return first.const;
      return sampleValue(first);
    }
  }
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find(t => t !== 'null') : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const item = sampleValue(schema.items);
      return isRecord(schema.items) &&
        (schema.items.enum !== undefined || schema.items.anyOf !== undefined || schema.items.oneOf !== undefined)
        ? [item]
        : [];
    }
    case 'object':
      return sampleObject(schema, true);
    default:
      return 'test';
  }
}

/** An object for an object schema: its required properties only when `requiredOnly`, else all of them. */
export function sampleObject(schema: unknown, requiredOnly: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(schema) || !isRecord(schema.properties)) return out;
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (requiredOnly && !required.includes(key)) continue;
    out[key] = sampleValue(prop);
  }
  return out;
}

/** The default answer to one input request (see {@link Scenario}). */
export function defaultAnswer(method: string, params: unknown): Record<string, unknown> {
  switch (method) {
    case 'elicitation/create': {
      const p = isRecord(params) ? params : {};
      if (p.mode === 'url') return { action: 'accept' };
      return { action: 'accept', content: sampleObject(p.requestedSchema, false) };
    }
    case 'sampling/createMessage':
      return structuredClone(DEFAULT_SAMPLING_ANSWER) as unknown as Record<string, unknown>;
    case 'roots/list':
      return structuredClone(DEFAULT_ROOTS_ANSWER) as unknown as Record<string, unknown>;
    default:
      return {};
  }
}

/** Hands out one call's answers in order, repeating the last, falling back to the defaults. */
export class AnswerBook {
  private readonly used: Record<AnswerKind, number> = { elicitation: 0, sampling: 0, roots: 0 };

  constructor(private readonly answers: ScenarioAnswers = {}) {}

  next(method: string, params: unknown): Record<string, unknown> {
    const kind = ANSWER_KIND_BY_METHOD[method];
    if (kind === undefined) return defaultAnswer(method, params);
    const list = this.answers[kind];
    const index = this.used[kind]++;
    if (list === undefined || list.length === 0) return defaultAnswer(method, params);
    return structuredClone(list[Math.min(index, list.length - 1)]!);
  }
}
