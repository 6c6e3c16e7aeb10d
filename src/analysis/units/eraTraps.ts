/** What else a 2026-07-28 client breaks (src/analysis/eraTraps.ts), marked where it is written. Not for an editor's analysis of one handler. */
import type { SourceFile } from 'ts-morph';
import { handlerOf, type AnalysisRun } from '../analysisRun.js';
import { eraTraps } from '../eraTraps.js';

export function markEraTraps(run: AnalysisRun, sf: SourceFile): void {
  if (run.options.onlyHandlerAt) return;
  for (const trap of eraTraps(sf, fn => handlerOf(run, fn))) {
    run.r.site(trap.node, {
      kind: 'connection',
      call: trap.call,
      outcome: 'marked',
      reason: trap.reason,
      handler: trap.handler ?? 'lifecycle',
      cause: trap.cause,
    });
  }
}
