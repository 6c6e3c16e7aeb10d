/**
 * Small checks and orders of plain values, shared by the modules that read JSON and sort what they report.
 * Imports nothing: the modules a run loads before the compiler (run.ts, files.ts) use it too.
 */

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strings by their UTF-16 code units, as `sort()` orders them: the same order on every machine and locale. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
