/**
 * A tool, prompt or resource list changed behind createMcpHandler: 2026-07-28 clients learn of list changes on
 * subscriptions/listen streams, which a server instance's own notification never reaches (src/analysis/listChanged.ts).
 * Only where the run moves an HTTP entry to createMcpHandler; not for an editor's analysis of one handler.
 */
import { handlerOf, servingFiles, type AnalysisRun } from '../analysisRun.js';
import { listChanges } from '../listChanged.js';
import { unwrap } from '../mcpSymbols.js';

export function markListChanges(run: AnalysisRun): void {
  const { options, r } = run;
  if (options.onlyHandlerAt || ![...r.plans.values()].some(plan => plan.http.length > 0)) return;
  for (const sf of servingFiles(options)) {
    for (const change of listChanges(sf, fn => handlerOf(run, fn))) {
      r.site(change.call, {
        kind: 'list-change',
        call: `${unwrap(change.call.getExpression()).getText()}(...)`,
        outcome: 'marked',
        reason: change.reason,
        handler: change.handler,
        cause: change.cause,
      });
    }
  }
}
