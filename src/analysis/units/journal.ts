/**
 * What the handlers that ask do before a question and must not do twice (src/effects): journaled where it
 * stands, the catch and finally blocks around a question guarded; what cannot be journaled is marked.
 */
import { planJournal } from '../../effects/index.js';
import { rangeOf } from '../../plan.js';
import type { AnalysisRun } from '../analysisRun.js';
import { callText } from '../recorder.js';

export function planJournaledWork({ reacher, handlers, asks, r }: AnalysisRun): void {
  // (an editor's "this handler": only the code that handler runs)
  const asking = reacher.askingFunctions().filter(a => a.reach.handlers.some(h => handlers.has(h.registration)));
  const journal = planJournal(asking, asks, reacher);
  for (const work of journal.work)
    r.planFor(work.node.getSourceFile()).journaled.push({
      range: rangeOf(work.node),
      ...(work.async ? { async: true } : {}),
      ...(work.discarded ? { discarded: work.discarded } : {}),
    });
  for (const block of journal.guards) r.planFor(block.getSourceFile()).guards.push({ block: rangeOf(block) });
  for (const refusal of journal.refused)
    r.site(refusal.node, {
      kind: 'request',
      call: callText(refusal.node),
      outcome: 'marked',
      reason: refusal.reason,
      handler: refusal.handler,
      shape: 'other',
      cause: refusal.cause,
    });
  for (const note of journal.notes) r.note(note.node, note.text);
}
