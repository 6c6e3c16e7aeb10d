/**
 * What a diagnostic of a site carries in `data`: read by the code actions (src/lsp/server.ts) and by the
 * reuse of an earlier analysis (src/lsp/incremental.ts), written by src/lsp/analyze.ts.
 */
import type { SiteReport } from '../report.js';

/** So a code action can tell a rewritable site from a marked one. */
export interface SiteData {
  outcome: SiteReport['outcome'];
  kind: SiteReport['kind'];
  /** The site's position (1-based), which names its handler for the quick fix. */
  line: number;
  column: number;
  handler?: string;
}
