/**
 * A log message sent from a handler: sent with the request's own context (`ctx.mcpReq.log(...)`) where the
 * handler's context can send it, else marked or noted (src/analysis/logging.ts). A file left on SDK 1.x
 * serves no 2026-07-28 client, and its context has no mcpReq.log: left.
 */
import type { SourceFile } from 'ts-morph';
import { handlerOf, type AnalysisRun } from '../analysisRun.js';
import type { FunctionLike } from '../functions.js';
import { loggingCalls, loggingFinding, type LoggingFinding } from '../logging.js';
import { unwrap, V1_SDK_MODULE } from '../mcpSymbols.js';
import { importsModule } from '../stdioEntry.js';

export function planLogMessages(run: AnalysisRun, sf: SourceFile): void {
  if (importsModule(sf, V1_SDK_MODULE)) return;
  const handler = (fn: FunctionLike) => handlerOf(run, fn);
  for (const call of loggingCalls(sf)) recordLogging(loggingFinding(call, handler), run);
}

/** A log message: sent with the request where the handler's context can send it, else marked or noted (src/analysis/logging.ts). */
function recordLogging(finding: LoggingFinding, { r, options }: AnalysisRun): void {
  const call = `${unwrap(finding.call.getExpression()).getText()}(...)`;
  if ('plan' in finding) {
    r.planFor(finding.call.getSourceFile()).logs.push(finding.plan);
    const reason = `sends this request's own log message, ${finding.plan.context}.mcpReq.log(...), at the level the request asks for (a 2026-07-28 client names it with each request)`;
    r.site(finding.call, { kind: 'logging', call, outcome: 'rewritten', reason, handler: finding.handler });
  } else if ('marked' in finding) {
    r.site(finding.call, {
      kind: 'logging',
      call,
      outcome: 'marked',
      reason: finding.marked.reason,
      handler: finding.marked.handler,
      cause: finding.marked.cause,
    });
  } else if (!options.onlyHandlerAt) {
    r.note(finding.call, finding.note);
  }
}
