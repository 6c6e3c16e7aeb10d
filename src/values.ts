/**
 * Small checks and orders of plain values, shared by the modules that read JSON, sort what they report and word it.
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

/** The indefinite article a word takes in a message: `an` before a vowel letter (`an AsyncGenerator`), else `a`. */
export function article(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
