/** A stdio entry (a StdioServerTransport connected to a server): served by serveStdio, or marked with why not (src/analysis/stdioEntry.ts). */
import type { SourceFile } from 'ts-morph';
import type { AnalysisRun } from '../analysisRun.js';
import { V1_SDK_MODULE, V2_SERVER_MODULE } from '../mcpSymbols.js';
import { callText } from '../recorder.js';
import { importsModule, stdioEntries } from '../stdioEntry.js';

export function planStdioEntries({ options, r }: AnalysisRun, sf: SourceFile): void {
  for (const entry of stdioEntries(sf, options.beforeUpgrade && importsModule(sf, V1_SDK_MODULE) ? V1_SDK_MODULE : V2_SERVER_MODULE)) {
    if ('plan' in entry) r.planFor(sf).stdio.push(entry.plan);
    else
      r.site(entry.marked, {
        kind: 'entry',
        call: callText(entry.marked),
        outcome: 'marked',
        reason: entry.reason,
        handler: 'serving entry',
        cause: entry.cause,
      });
  }
}
