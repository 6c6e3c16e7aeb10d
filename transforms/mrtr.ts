/**
 * jscodeshift transform: applies a file's plan (from the ts-morph analysis) to its source, preserving the
 * formatting and comments of everything it does not change. A migrated handler keeps its code; only these
 * change:
 *
 *   server.registerTool(...)                  → resumable(server).registerTool(...)
 *   await server.server.elicitInput({...})    → await ask(server.server).elicitInput({...})
 *   await api.createTrip(city)                → await journaled(() => api.createTrip(city))
 *   server.server.getClientCapabilities()     → clientCapabilities(server.server)
 *   server.sendLoggingMessage({ level, data }) → ctx.mcpReq.log(level, data)
 *
 * with the requestState module imported, the server constructed with `requestState: { verify }`, and its
 * entries moved to `serveStdio` / `createMcpHandler`: the units of src/rewrite/units.ts, in their order.
 *
 * It needs the plan the analysis makes: run it through mcp-migrate (or pass `options.plan`).
 */
import type { API, FileInfo, Options } from 'jscodeshift';
import type { FilePlan } from '../src/plan.js';
import { RewriteContext } from '../src/rewrite/context.js';
import { REWRITES } from '../src/rewrite/units.js';
import type { UnitTrace } from '../src/unitTrace.js';

export { rewriteParser } from '../src/rewrite/parsers.js';

export const parser = 'ts';

export default function transformer(file: FileInfo, api: API, options: Options): string | undefined {
  const plan = options.plan as FilePlan | undefined;
  if (!plan) throw new Error('mrtr transform: no plan given; run it through mcp-migrate (or pass options.plan)');
  // A shebang is no JavaScript: the plan's offsets are those of the text after it (as mcp-migrate reads a file), and
  // recast, printing a program whose statements changed, would join it to the next line.
  const shebang = /^#![^\n]*\n?/.exec(file.source)?.[0] ?? '';
  return shebang + applyPlan(file.source.slice(shebang.length), plan, api);
}

/** `trace`: told each unit that changed the file's text (src/unitTrace.ts), which takes a print before and after each. */
export function applyPlan(source: string, plan: FilePlan, api: API, trace?: UnitTrace): string {
  const cx = new RewriteContext(api.jscodeshift, source, plan);
  for (const unit of REWRITES) {
    const before = trace && cx.print();
    unit.apply(cx);
    if (trace && cx.print() !== before) trace('rewrite', unit.id, plan.file);
  }
  return cx.print();
}
