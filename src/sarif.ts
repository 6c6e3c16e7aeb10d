/**
 * The run report as a SARIF 2.1.0 log (`--format sarif`), for code scanning in CI: one result per site
 * left, per place the official codemod could not migrate, per skipped file that imports the SDK and per
 * failed file, each under the rule of its cause (src/tables/causes.ts), located by file, line and column.
 */
import { pathToFileURL } from 'node:url';
import type { RunReport } from './format-report.js';
import {
  CAUSES,
  causeOf,
  CODEMOD_LEFTOVER,
  CODEMOD_START_FAILURE,
  FILE_FAILED,
  SDK_FILE_SKIPPED,
  type Cause,
  type CauseLevel,
} from './tables/causes.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Not left, but not done either: a file the run would change (under --check or --dry-run). */
const PENDING: Cause = {
  id: 'migration-pending',
  level: 'warning',
  text: 'mcp-migrate would change this file',
  fix: 'run mcp-migrate on it (or review the change with --dry-run first) and commit the result',
};

const RULES: readonly Cause[] = [...CAUSES, PENDING];

export interface SarifOptions {
  /** The directory the report's paths are relative to. */
  cwd: string;
  version: string;
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: CauseLevel | 'note';
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number; startColumn?: number } };
  }[];
  properties?: Record<string, unknown>;
}

const BASE = '%SRCROOT%';

function uriOf(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

function result(
  cause: Cause,
  message: string,
  file: string,
  line?: number,
  column?: number,
  properties?: Record<string, unknown>,
): SarifResult {
  const region =
    line !== undefined && line >= 1
      ? { startLine: line, ...(column !== undefined && column >= 1 ? { startColumn: column } : {}) }
      : undefined;
  return {
    ruleId: cause.id,
    ruleIndex: RULES.findIndex(r => r.id === cause.id),
    level: cause.level,
    message: { text: message },
    locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(file), uriBaseId: BASE }, ...(region ? { region } : {}) } }],
    ...(properties ? { properties } : {}),
  };
}

function results(report: RunReport): SarifResult[] {
  const out: SarifResult[] = [];
  for (const s of report.sites) {
    if (s.outcome === 'rewritten') continue;
    out.push(
      result(causeOf(s), s.reason, s.file, s.line, s.column, {
        kind: s.kind,
        call: s.call,
        outcome: s.outcome,
        ...(s.handler ? { handler: s.handler } : {}),
        ...(s.shape ? { shape: s.shape } : {}),
      }),
    );
  }
  for (const l of report.codemodLeftovers)
    out.push(result(l.failsAtStart ? CODEMOD_START_FAILURE : CODEMOD_LEFTOVER, l.message, l.file, l.line, l.column));
  for (const f of report.files) {
    if (f.outcome === 'error') out.push(result(FILE_FAILED, f.reason ?? 'failed', f.file, f.line, f.column));
    else if (f.outcome === 'skipped' && f.importsSdk !== undefined && f.importsSdk !== false) {
      const why =
        f.importsSdk === 'unknown'
          ? 'skipped, and whether it imports the SDK is unknown'
          : 'imports the SDK but was skipped, so it stays on SDK 1.x';
      out.push(result(SDK_FILE_SKIPPED, `${why}: ${f.reason ?? ''}`, f.file, f.line, f.column));
    } else if (f.outcome === 'changed' && report.mode !== 'write') {
      out.push(result(PENDING, f.created ? 'mcp-migrate would create this file' : PENDING.text, f.file));
    }
  }
  return out;
}

function driver(version: string) {
  return {
    name: 'mcp-migrate',
    version,
    rules: RULES.map(c => ({
      id: c.id,
      shortDescription: { text: c.text },
      help: { text: c.fix },
      defaultConfiguration: { level: c.level },
    })),
  };
}

function log(run: Record<string, unknown>, options: SarifOptions): string {
  const cwd = options.cwd.endsWith('/') ? options.cwd : `${options.cwd}/`;
  const sarif = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: driver(options.version) },
        originalUriBaseIds: { [BASE]: { uri: pathToFileURL(cwd).href } },
        columnKind: 'utf16CodeUnits',
        ...run,
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

export function formatSarif(report: RunReport, options: SarifOptions): string {
  return log({ invocations: [{ executionSuccessful: true, exitCode: report.exitCode }], results: results(report) }, options);
}

/** A run that could not start or failed as a whole: no results, the error as a notification. */
export function formatSarifError(message: string, exitCode: number, options: SarifOptions): string {
  return log(
    {
      invocations: [{ executionSuccessful: false, exitCode, toolExecutionNotifications: [{ level: 'error', message: { text: message } }] }],
      results: [],
    },
    options,
  );
}
