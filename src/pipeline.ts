/**
 * One migration run over a set of source files, entirely in memory:
 * upgrade (official v1-to-v2 codemod) → analysis (ts-morph) → plan (plain data) → rewrite (jscodeshift) → report.
 * Nothing here writes to disk; the CLI decides whether to print a diff or write the changes.
 */
import { emptyReport, type Report } from './report.js';

export interface SourceInput {
  /** Absolute path. */
  path: string;
  text: string;
}

export interface FileChange {
  /** Absolute path. */
  path: string;
  /** `null` for a file the run creates. */
  before: string | null;
  after: string;
}

export interface MigrateOptions {
  /** Root of the run, used for relative paths in the report and to place the requestState module. */
  cwd: string;
  /** Run the official `@modelcontextprotocol/codemod` v1-to-v2 migration first on files importing `@modelcontextprotocol/sdk`. Default true. */
  upgradeV1?: boolean;
}

export interface MigrateResult {
  changes: FileChange[];
  report: Report;
}

export async function migrateSources(files: SourceInput[], options: MigrateOptions): Promise<MigrateResult> {
  void files;
  void options;
  return { changes: [], report: emptyReport() };
}
