/**
 * `getClientCapabilities()` answers with what the client declared at initialize, which a 2026-07-28 client
 * never sends: it becomes `clientCapabilities(server)`, which answers with the request's own while a
 * handler runs (however it is reached) and as before anywhere else. Read where no request can be running
 * (a lifecycle callback, a notification handler, module level, a timer), it is marked instead.
 */
import { SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { rangeOf } from '../../plan.js';
import type { FoundCause } from '../../tables/causes.js';
import type { AnalysisRun } from '../analysisRun.js';
import { enclosingFunction } from '../functions.js';
import { serverMethodCalls, unwrap } from '../mcpSymbols.js';
import { describeNonHandler, type NonHandler } from '../nonHandlers.js';

export function planCapabilityReads(run: AnalysisRun, sf: SourceFile): void {
  for (const call of serverMethodCalls(sf, 'getClientCapabilities')) planCapabilityRead(call, run);
}

function planCapabilityRead(call: CallExpression, { r, reacher, options }: AnalysisRun): void {
  const access = unwrap(call.getExpression()).asKindOrThrow(SyntaxKind.PropertyAccessExpression);
  const callee = access.getText();
  const fn = enclosingFunction(call);
  const reach = fn ? reacher.of(fn) : { handlers: [], others: [describeNonHandler(undefined, call)] };
  const outside = reach.others.find(o => OUTSIDE_REQUESTS.has(o.kind));
  if (reach.handlers.length > 0 || (!outside && reach.others.length > 0)) {
    r.planFor(call.getSourceFile()).capabilityReads.push({ call: rangeOf(call), server: rangeOf(access.getExpression()) });
    const reason = `reads this request's own client capabilities (clientCapabilities in the requestState module): a 2026-07-28 client declares them with each request`;
    r.site(call, {
      kind: 'capabilities',
      call: `${callee}(...)`,
      outcome: 'rewritten',
      reason,
      handler: reach.handlers[0]?.label ?? 'capability check',
    });
    if (reach.handlers.length === 0)
      r.note(
        call,
        `${callee}() becomes clientCapabilities(...), the capabilities of the request being served when a handler runs it (what runs it here could not be followed); outside a request it answers as before, what the client declared at initialize, which a 2026-07-28 client never does`,
      );
    return;
  }
  if (options.onlyHandlerAt) return;
  const where = outside ? ` (${outside.detail})` : '';
  const reason = `${callee}() answers with what the client declared at initialize${where}; a 2026-07-28 client declares its capabilities with each request instead, and under serveStdio this returns undefined for it (createMcpHandler fills it in per request): read them where a request is served, ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] (clientCapabilities(server) in the requestState module)`;
  const cause: FoundCause = {
    id: 'capabilities-from-connection',
    text: 'client capabilities read from the connection (undefined for a 2026-07-28 client under serveStdio)',
  };
  r.site(call, { kind: 'capabilities', call: `${callee}(...)`, outcome: 'marked', reason, handler: 'capability check', cause });
}

/** What runs a function where no request is being served. */
const OUTSIDE_REQUESTS: ReadonlySet<NonHandler['kind']> = new Set([
  'lifecycle',
  'notification',
  'top-level',
  'other-request',
  'class-member',
]);
