/**
 * The report on a mixed project (every fixture input in one tree): per-shape counts of rewritten,
 * marked and skipped sites, and per cause why sites were left, in --json and in the human summary,
 * each agreeing with the per-site list it summarises.
 */
import { readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteKind } from '../src/report.js';
import { causeOf, UNCLASSIFIED, type CauseId } from '../src/tables/causes.js';
import { assertBuilt, makeTree, REPO, removeTree, runCli } from './cli-helpers.js';

interface Site {
  outcome: 'rewritten' | 'marked' | 'skipped';
  shape?: string;
  kind: SiteKind;
  cause?: string;
  causeId?: CauseId;
  reason: string;
}
interface Json {
  sites: Site[];
  summary: { byShape: Record<string, Record<string, number>>; byCause: { cause: string; count: number; shapes: Record<string, number> }[] };
}

let root: string;
let json: Json;
let human: string;

beforeAll(async () => {
  assertBuilt();
  const dir = path.join(REPO, '__testfixtures__');
  const inputs = (await readdir(dir)).filter(f => /\.input\.[cm]?[jt]sx?$/.test(f));
  const files: Record<string, string> = {};
  for (const f of inputs) files[`src/${f.replace('.input', '')}`] = await readFile(path.join(dir, f), 'utf8');
  root = await makeTree(files);
  await symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  const r = await runCli(['--json', '--dry-run', 'src'], root);
  json = JSON.parse(r.stdout) as Json;
  human = (await runCli(['--dry-run', 'src'], root)).stderr;
}, 900_000);
afterAll(() => removeTree(root));

const shapeOf = (s: Site) =>
  s.shape ??
  (s.kind === 'entry'
    ? 'serving entry'
    : s.kind === 'registration'
      ? 'oninitialized registration'
      : s.kind === 'capabilities'
        ? 'capability check'
        : s.kind === 'connection'
          ? 'initialize read'
          : s.kind === 'logging'
            ? 'log message'
            : s.kind === 'list-change'
              ? 'list change'
              : 'other');

describe('report on a mixed project', () => {
  it('counts every site once under its shape, with the outcome the site list gives', () => {
    const expected: Record<string, Record<string, number>> = {};
    for (const s of json.sites) {
      expected[shapeOf(s)] ??= { rewritten: 0, marked: 0, skipped: 0 };
      expected[shapeOf(s)]![s.outcome]!++;
    }
    expect(json.summary.byShape).toEqual(expected);
    // a mixed project has sites rewritten in several shapes and left in several
    expect(Object.values(expected).filter(n => n.rewritten > 0).length).toBeGreaterThanOrEqual(4);
    expect(Object.values(expected).filter(n => n.marked > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('says why sites were left, per cause and shape, with no handler names in the causes', () => {
    const left = json.sites.filter(s => s.outcome !== 'rewritten');
    expect(left.length).toBeGreaterThan(0);
    expect(json.summary.byCause.reduce((n, row) => n + row.count, 0)).toBe(left.length);
    for (const row of json.summary.byCause) {
      const sites = left.filter(s => (s.cause ?? s.reason) === row.cause);
      expect(sites.length).toBe(row.count);
      expect(Object.values(row.shapes).reduce((a, b) => a + b, 0)).toBe(row.count);
      // each left site names its own cause; none falls back on its handler-specific reason
      for (const s of sites) expect(s.cause).toBe(row.cause);
    }
    // requests in lifecycle callbacks of several files: one cause, which names no callback
    const lifecycle = json.summary.byCause.find(row => row.cause.startsWith('in a lifecycle callback'));
    expect(lifecycle?.count).toBeGreaterThanOrEqual(2);
    expect(lifecycle?.cause).not.toMatch(/server\.|oninitialized =/);
    // marked serving entries are counted apart from request sites, without the advice they share
    const entries = json.summary.byCause.filter(row => row.shapes['serving entry']);
    expect(entries.length).toBeGreaterThan(0);
    for (const row of entries) expect(row.cause).not.toContain('serve a server factory');
  });

  it('finds every cause in the causes table (a new cause needs its row in src/tables/causes.ts)', () => {
    const unnamed = json.sites.filter(s => s.outcome !== 'rewritten' && causeOf(s).id === UNCLASSIFIED.id).map(s => s.cause ?? s.reason);
    expect(unnamed, 'add a row for each of these causes to src/tables/causes.ts').toEqual([]);
  });

  it('prints the same counts for people', () => {
    const byShape = human.split('\n').find(l => l.startsWith('by shape: '));
    expect(byShape).toBeDefined();
    for (const [shape, n] of Object.entries(json.summary.byShape)) {
      const parts = [n.rewritten && `${n.rewritten} rewritten`, n.marked && `${n.marked} marked`, n.skipped && `${n.skipped} skipped`]
        .filter(Boolean)
        .join('/');
      expect(byShape).toContain(`${shape} ${parts}`);
    }
    const lines = human.split('\n');
    const start = lines.indexOf('left, by cause:');
    expect(start).toBeGreaterThan(0);
    json.summary.byCause.forEach((row, i) => {
      expect(lines[start + 1 + i]).toMatch(new RegExp(`^\\s+${row.count} × `));
      expect(lines[start + 1 + i]).toContain(row.cause);
    });
  });
});
