/**
 * A Streamable HTTP entry: moved to createMcpHandler where that is mechanical, else marked with what to do
 * (src/analysis/httpEntry.ts). Not for an editor's analysis of one handler.
 */
import type { SourceFile } from 'ts-morph';
import type { AnalysisRun } from '../analysisRun.js';
import { entryNames, httpEntryOf, httpTransports, transportName } from '../httpEntry.js';

export function planHttpEntries({ options, r }: AnalysisRun, sf: SourceFile): void {
  const fresh = entryNames(sf);
  for (const transport of options.onlyHandlerAt ? [] : httpTransports(sf)) {
    const entry = httpEntryOf(transport, fresh, options.beforeUpgrade);
    if ('skip' in entry) continue;
    if (entry.plan) r.planFor(sf).http.push(entry.plan);
    const call = `new ${transportName(transport)}(...)`;
    const site = { kind: 'entry', call, reason: entry.reason, handler: 'serving entry' } as const;
    r.site(transport, entry.plan ? { ...site, outcome: 'rewritten' } : { ...site, outcome: 'marked', cause: entry.cause });
  }
}
