/**
 * Normalisation and structural comparison of call outcomes across runs.
 */
import type { AskedRequest, CallError, CallOutcome } from './run.js';
import { isRecord } from '../values.js';

/** The first place two values differ. `path` is JS-like (`result.content[0].text`); `<absent>` marks a missing value. */
export interface Difference {
  path: string;
  before: unknown;
  after: unknown;
}

export const ABSENT = '<absent>';

/** Drops every `_meta` key (protocol metadata: server info envelopes, progress tokens) at any depth. */
export function stripMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripMeta);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '_meta' || inner === undefined) continue;
    out[key] = stripMeta(inner);
  }
  return out;
}

/**
 * A final result as compared: `_meta` dropped everywhere (2.x servers add a server-info envelope on the
 * modern era) and a top-level `resultType` dropped (`'complete'` is implied on the 2025 era), and the top-level
 * cache hint `ttlMs`/`cacheScope` dropped (the 2026-07-28 wire requires it on `resources/read` results, SEP-2549;
 * the 2025 era has none).
 */
export function normalizeResult(result: unknown): unknown {
  const stripped = stripMeta(result);
  if (isRecord(stripped)) for (const key of ['resultType', 'ttlMs', 'cacheScope']) delete stripped[key];
  return stripped;
}

/** An error as compared: the code, and the message as the server sent it (the legacy runner takes off what the 1.x client adds). */
export function normalizeError(error: CallError): CallError {
  return error.code === undefined ? { message: error.message } : { code: error.code, message: error.message };
}

/**
 * An input request as compared. Differences that are the SDKs' own, not the server's:
 * - `params._meta` is dropped (the 2.x legacy shim adds a `progressToken` to each request it issues);
 * - `elicitation/create` without `mode` reads as `mode: 'form'` (1.x `elicitInput` and the 2.x builders add
 *   it; a hand-built request may omit it, which the spec reads as form mode);
 * - empty params read as none (`roots/list` goes out with no params from 1.x, `{ _meta }` from the shim).
 * Requested schemas are compared as sent: with a JSON Schema `requestedSchema` both SDK generations pass it
 * through unchanged (checked with 1.32.2 and 2.4.0). A zod `requestedSchema` given to `inputRequired.elicit`
 * is converted to JSON Schema, and any difference from the legacy schema is reported (it is what clients
 * see).
 */
export function normalizeRequest(request: AskedRequest): AskedRequest {
  let params = stripMeta(request.params);
  if (request.method === 'elicitation/create' && isRecord(params) && params.mode === undefined) {
    params = { mode: 'form', ...params };
  }
  if (isRecord(params) && Object.keys(params).length === 0) params = undefined;
  return params === undefined ? { method: request.method, params: undefined } : { method: request.method, params };
}

/** What verify compares for one call: the outcome (result or error) and the input requests asked. */
export function comparable(outcome: CallOutcome): { outcome: unknown; requests: AskedRequest[] } {
  return {
    outcome: outcome.error ? { error: normalizeError(outcome.error) } : { result: normalizeResult(outcome.result) },
    requests: outcome.requests.map(normalizeRequest),
  };
}

/** The first difference between two JSON-like values, depth first in key order; `undefined` when equal. */
export function firstDifference(before: unknown, after: unknown, path = ''): Difference | undefined {
  if (Object.is(before, after)) return undefined;
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(i < before.length ? before[i] : ABSENT, i < after.length ? after[i] : ABSENT, `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const key of keys) {
      const sub = /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
      const d = firstDifference(key in before ? before[key] : ABSENT, key in after ? after[key] : ABSENT, sub);
      if (d) return d;
    }
    return undefined;
  }
  return { path: path || '(root)', before, after };
}
