/**
 * What the rewrite units' tests share: a file's text and a plan written by hand (plain data, src/plan.ts),
 * applied as a run applies it (transforms/mrtr.ts), with no analysis and no type checker. A range is given by
 * the text it covers, so that a test reads as the code it is about.
 */
import { createRequire } from 'node:module';
import type { JSCodeshift } from 'jscodeshift';
import { emptyPlan, type FilePlan, type Range } from '../../src/plan.js';
import { applyPlan, rewriteParser } from '../../transforms/mrtr.js';

export const FILE = '/project/src/server.ts';

/** The range of `text` in `source`: its first occurrence in the first occurrence of `within` (a test's mistake where there is none). */
export function range(source: string, text: string, within = text): Range {
  const outer = source.indexOf(within);
  const inner = outer < 0 ? -1 : within.indexOf(text);
  if (inner < 0) throw new Error(`no ${JSON.stringify(text)} in ${JSON.stringify(within)} of the source`);
  return { start: outer + inner, end: outer + inner + text.length };
}

/** Where `text` starts in `source` (the statement an offset of the plan names). */
export const offset = (source: string, text: string): number => range(source, text).start;

/** A plan of `file` asking only for `parts`, as the analysis writes one for an ESM TypeScript file. */
export function planOf(parts: Partial<FilePlan>, file = FILE): FilePlan {
  const target = { stateModuleSpecifier: './mcp-migrate-state.js', sdkModule: '@modelcontextprotocol/server', commonJs: false };
  return { ...emptyPlan(file, target), ...parts };
}

/** `source` with `plan` applied by every rewrite unit in order; `acted`, the units that changed its text. */
export function rewritten(source: string, plan: FilePlan): { text: string; acted: string[] } {
  const jscodeshift = createRequire(import.meta.url)('jscodeshift') as JSCodeshift;
  const j = jscodeshift.withParser(rewriteParser(plan.file));
  const acted: string[] = [];
  const text = applyPlan(source, plan, { jscodeshift: j, j, stats: () => {}, report: () => {} }, (_stage, unit) => acted.push(unit));
  return { text, acted };
}
