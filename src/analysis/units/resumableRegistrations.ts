/**
 * The registration of each handler some request is asked in, made resumable: its receiver goes through
 * `resumable(...)`, in the file that registers it (which may be neither the handler's nor the request's).
 */
import { SyntaxKind } from 'ts-morph';
import { rangeOf } from '../../plan.js';
import type { AnalysisRun } from '../analysisRun.js';
import { unwrap } from '../mcpSymbols.js';

export function planResumableRegistrations({ handlers, r }: AnalysisRun): void {
  for (const handler of handlers.values()) {
    const receiver = unwrap(handler.registration.getExpression()).asKindOrThrow(SyntaxKind.PropertyAccessExpression).getExpression();
    const plan = r.planFor(receiver.getSourceFile());
    if (!plan.registrations.some(x => x.receiver.start === receiver.getStart())) plan.registrations.push({ receiver: rangeOf(receiver) });
  }
}
