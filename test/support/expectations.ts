/**
 * Data-driven expectations for projects migrated through the user-project harness, and the `it` /
 * `it.fails` that holds each one.
 *
 * A check that fails today because of a known bug is an `it.fails` naming the bug in its title. It is
 * precise: the check's own assertion runs, and the test counts as the expected failure only when that
 * assertion fails with the bug's symptom (a pattern over the assertion's message). Any other outcome —
 * the check passes (the bug is fixed: make it a plain check by removing the known entry), or it fails
 * for another reason — turns the test red.
 */
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import type { Report, ReportSite } from './userProject.js';
import { isStateModuleFile } from '../../src/stateModule.js';

export interface Known {
  /** Where the bug is filed, e.g. "#15 finding 1". */
  issue: string;
  /** What goes wrong, in a few words (shown in the test title). */
  what: string;
  /** What the failing assertion's message shows while the bug is there. */
  symptom: RegExp;
}

/**
 * A check of the suite: a plain `it`, or, with known bugs, an `it.fails` that holds only while the check's
 * assertion fails showing every one of their symptoms (so fixing any one of them turns it red).
 */
export function check(title: string, known: Known | Known[] | undefined, body: () => void | Promise<void>, timeout?: number): void {
  const bugs = known === undefined ? [] : Array.isArray(known) ? known : [known];
  if (bugs.length === 0) {
    it(title, body, timeout);
    return;
  }
  it.fails(
    `${title} (known: ${bugs.map(b => `${b.issue}, ${b.what}`).join('; ')})`,
    async () => {
      let message: string | undefined;
      try {
        await body();
      } catch (error) {
        // The assertion's own values too: toEqual's message abbreviates long arrays.
        const actual = (error as { actual?: unknown }).actual;
        message = `${error instanceof Error ? error.message : String(error)}\n${typeof actual === 'string' ? actual : (JSON.stringify(actual) ?? '')}`;
      }
      if (message === undefined) return; // the check passes: the bugs are gone, and this test turns red
      const missing = bugs.filter(b => !b.symptom.test(message!));
      if (missing.length === 0) throw new Error(`${bugs.map(b => b.issue).join(', ')}: ${message}`);
      // A failure, but without the named symptoms: turning red shows it.
      console.error(`${title}: fails without the symptom of ${missing.map(b => `${b.issue} (${b.symptom})`).join(', ')}:\n${message}`);
    },
    timeout,
  );
}

/** A request site of the original project, found by a piece of the text on its line. */
export interface SiteExpectation {
  file: string;
  /** Text on the line the report names for this site (unique in the file). */
  at: string;
  kind: string;
  /** rewrite: must be migrated; mark: cannot be migrated safely and must be marked, with `because` in its reason. */
  expect: 'rewrite' | 'mark';
  because?: RegExp;
  known?: Known | Known[];
}

/** The 1-based line of `at` in `file` under `dir`; throws unless it occurs on exactly one line. */
export function lineOf(dir: string, file: string, at: string): number {
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split(/\r?\n/);
  const hits = lines.flatMap((line, i) => (line.includes(at) ? [i + 1] : []));
  if (hits.length !== 1) throw new Error(`${file}: "${at}" is on ${hits.length} lines (${hits.join(', ')}); the expectation must name one`);
  return hits[0]!;
}

export function describeSite(s: Pick<ReportSite, 'file' | 'line' | 'kind' | 'outcome' | 'reason'>): string {
  return `${s.file}:${s.line} ${s.kind} ${s.outcome}: ${s.reason}`;
}

/** The report's site for an expectation, or an error naming what the report holds there instead. */
export function assertSite(report: Report | undefined, original: string, site: SiteExpectation): void {
  if (!report) throw new Error('the migration printed no JSON report');
  const line = lineOf(original, site.file, site.at);
  const found = report.sites.filter(s => s.file === site.file && lineRead(s) === line && s.kind === site.kind);
  if (found.length === 0) {
    const there = report.sites.filter(s => s.file === site.file).map(describeSite);
    throw new Error(
      `${site.file}:${line} ${site.kind} (${site.at}) is not in the report; the report has in that file: ${there.length ? there.join(' | ') : 'nothing'}`,
    );
  }
  for (const s of found) {
    if (site.expect === 'rewrite' && s.outcome !== 'rewritten') throw new Error(`expected rewritten, got ${describeSite(s)}`);
    if (site.expect === 'mark') {
      if (s.outcome !== 'marked') throw new Error(`expected marked, got ${describeSite(s)}`);
      if (site.because && !site.because.test(s.reason))
        throw new Error(`marked for another reason than ${site.because}: ${describeSite(s)}`);
    }
  }
}

/** Report sites that match no expectation: each one is a site the original does not have. */
export function unexpectedSites(report: Report, original: string, sites: SiteExpectation[]): ReportSite[] {
  const expected = new Set(sites.map(s => `${s.file}:${lineOf(original, s.file, s.at)}:${s.kind}`));
  return report.sites.filter(s => !expected.has(`${s.file}:${lineRead(s)}:${s.kind}`));
}

/** A site's line in the file as the run read it (the expectations name lines of the original). */
function lineRead(s: ReportSite): number {
  return s.readAt?.line ?? s.line;
}

/** The `// mcp-migrate:` marker lines of a file. */
export function markerLines(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter(l => l.trim().startsWith('// mcp-migrate:'));
}

/** The `@mcp-codemod-error` marker lines of a file: what the v1-to-v2 upgrade left for the user. */
export function codemodMarkerLines(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter(l => l.includes('@mcp-codemod-error'));
}

/** Every `// mcp-migrate:` and `@mcp-codemod-error` marker under `dir` (node_modules aside), as `file: line`: what is left. */
export function markersUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of fs.readdirSync(at)) {
      if (name === 'node_modules' || name === '.git') continue;
      const full = path.join(at, name);
      if (fs.statSync(full).isDirectory()) walk(full);
      else if (/\.[cm]?[jt]sx?$/.test(name) && !isStateModuleFile(name)) {
        // The banner of a migrated handler and a handle made again on resume are review notes, not work left.
        for (const l of markerLines(full))
          if (!/input_required phases|made again on resume/.test(l)) out.push(`${path.relative(dir, full)}: ${l.trim()}`);
        for (const l of codemodMarkerLines(full)) out.push(`${path.relative(dir, full)}: ${l.trim()}`);
      }
    }
  };
  walk(dir);
  return out;
}
