/**
 * The programmatic API: what the CLI runs, for a script, a build tool or an editor extension. Loading it
 * loads no parser and no type checker; a run loads them when some file needs analysing.
 *
 *   import { runMigration, formatHuman } from 'mcp-migrate';
 *   const { report, changes } = await runMigration({ paths: ['src'], cwd: process.cwd(), mode: 'dry-run' });
 */
export { runMigration, RunRefused, type AppliedChange, type RunOptions, type RunResult } from './run.js';
export {
  EXIT_LEFT,
  EXIT_OK,
  exitCodeOf,
  formatHuman,
  formatJson,
  type CodemodLeftover,
  type FileResult,
  type RunMode,
  type RunReport,
} from './format-report.js';
export { formatSarif } from './sarif.js';
export type { FileReport, SiteKind, SiteOutcome, SiteReport, SiteShape } from './report.js';
export { CAUSES, causeOf, type Cause, type CauseId } from './tables/causes.js';
export { parseScenario, verify, type Scenario, type VerifyResult } from './verify/index.js';
