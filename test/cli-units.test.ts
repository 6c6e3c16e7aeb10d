/**
 * The CLI's building blocks in process: diff layout, colour choice, progress bar, git porcelain parsing, report text.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, formatDiff, shouldColor } from '../src/diff.js';
import { FAILS_AT_START, failsAtStart } from '../src/upgrade/markers.js';
import { checkFindings, exitCodeOf, formatHuman, places, summarize, type FileResult, type RunReport } from '../src/format-report.js';
import { formatDirtyRefusal, parsePorcelainZ } from '../src/git.js';
import { createProgress } from '../src/progress.js';
import { emptyReport } from '../src/report.js';
import { CAUSES, causeOf, UNCLASSIFIED } from '../src/tables/causes.js';

const cwd = path.resolve('/project');

describe('formatDiff', () => {
  it('writes git headers and hunks, relative to the cwd', () => {
    const d = formatDiff({ path: path.join(cwd, 'src/a.ts'), before: 'a\nb\nc\n', after: 'a\nB\nc\n' }, { cwd, color: false });
    expect(d).toBe(
      ['diff --git a/src/a.ts b/src/a.ts', '--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c', ''].join('\n'),
    );
  });

  it('writes a created file against /dev/null with git hunk ranges', () => {
    const d = formatDiff({ path: path.join(cwd, 'state.ts'), before: null, after: 'x\ny\n' }, { cwd, color: false });
    expect(d).toBe(
      [
        'diff --git a/state.ts b/state.ts',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/state.ts',
        '@@ -0,0 +1,2 @@',
        '+x',
        '+y',
        '',
      ].join('\n'),
    );
  });

  it('marks a missing final newline and is empty for no change', () => {
    const d = formatDiff({ path: path.join(cwd, 'a.ts'), before: 'a', after: 'b' }, { cwd, color: false });
    expect(d).toContain('\\ No newline at end of file');
    expect(formatDiff({ path: path.join(cwd, 'a.ts'), before: 'same\n', after: 'same\n' }, { cwd, color: false })).toBe('');
  });

  it('colours only when asked', () => {
    const change = { path: path.join(cwd, 'a.ts'), before: 'a\n', after: 'b\n' };
    expect(formatDiff(change, { cwd, color: true })).toMatch(/\x1b\[31m-a\x1b\[39m/);
    expect(formatDiff(change, { cwd, color: false })).not.toMatch(/\x1b/);
  });

  it('shows paths with forward slashes', () => {
    expect(displayPath(path.join(cwd, 'src', 'x.ts'), cwd)).toBe('src/x.ts');
  });
});

describe('shouldColor', () => {
  it('prefers the flag, then NO_COLOR/FORCE_COLOR, then the TTY', () => {
    expect(shouldColor({ isTTY: false }, true, {})).toBe(true);
    expect(shouldColor({ isTTY: true }, false, {})).toBe(false);
    expect(shouldColor({ isTTY: true }, undefined, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: false }, undefined, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor({ isTTY: true }, undefined, {})).toBe(true);
    expect(shouldColor({ isTTY: false }, undefined, {})).toBe(false);
  });
});

describe('createProgress', () => {
  const stream = (isTTY: boolean) => {
    const chunks: string[] = [];
    return { chunks, s: { isTTY, columns: 80, write: (c: string) => (chunks.push(c), true) } };
  };

  it('draws on a TTY above the threshold and erases itself when done', () => {
    const { chunks, s } = stream(true);
    const p = createProgress('reading', 300, { stream: s, interval: 0 });
    for (let i = 0; i < 300; i++) p.tick(1, `f${i}.ts`);
    p.done();
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.some(c => c.includes('300/300'))).toBe(true);
    expect(chunks.at(-1)).toBe('\r\x1b[2K');
  });

  it('stays silent when not a TTY, for few files, or when disabled', () => {
    for (const [tty, total, disabled] of [
      [false, 500, false],
      [true, 200, false],
      [true, 500, true],
    ] as const) {
      const { chunks, s } = stream(tty);
      const p = createProgress('reading', total, { stream: s, disabled, interval: 0 });
      p.tick(total);
      p.done();
      expect(chunks).toEqual([]);
    }
  });
});

describe('git porcelain', () => {
  it('parses -z output, including renames and paths with spaces', () => {
    expect(parsePorcelainZ(' M src/a.ts\0?? new file.ts\0R  new.ts\0old.ts\0')).toEqual([
      { status: ' M', path: 'src/a.ts' },
      { status: '??', path: 'new file.ts' },
      { status: 'R ', path: 'new.ts' },
    ]);
    expect(parsePorcelainZ('')).toEqual([]);
  });

  it('names the dirty files and the ways forward', () => {
    const msg = formatDirtyRefusal([{ path: path.join(cwd, 'src/a.ts'), status: ' M' }], cwd);
    expect(msg).toContain(' M  src/a.ts');
    expect(msg).toMatch(/1 file has uncommitted changes/);
    expect(msg).toContain('--force');
  });
});

describe('formatHuman', () => {
  function run(partial: Partial<RunReport>): RunReport {
    const base = { ...emptyReport(), ...partial };
    const files = partial.files ?? [];
    return {
      schemaVersion: 1,
      mode: 'write',
      ...base,
      files,
      codemodLeftovers: [],
      sdkPatches: [],
      warnings: [],
      formatting: partial.formatting ?? [],
      summary: summarize(base, files),
      exitCode: 0,
    };
  }

  it('lists marked and skipped sites as file:line:col  kind  reason, and errored files located', () => {
    const text = formatHuman(
      run({
        sites: [
          { file: 'a.ts', line: 3, column: 9, kind: 'sampling', call: 'x', outcome: 'marked', reason: 'inside a loop' },
          { file: 'a.ts', line: 9, column: 1, kind: 'roots', call: 'x', outcome: 'skipped', reason: 'not in a handler' },
          { file: 'a.ts', line: 1, column: 1, kind: 'elicitation', call: 'x', outcome: 'rewritten', reason: 'ok' },
        ],
        files: [
          { file: 'b.ts', outcome: 'error', reason: 'b.ts:4:2 cannot be parsed: nope' },
          { file: 'c.ts', outcome: 'error', reason: 'could not be written (EACCES); left as it was' },
          { file: 'd.ts', outcome: 'skipped', reason: 'binary file (NUL byte)', line: 1, column: 4 },
        ],
        created: ['state.ts'],
        notes: ['install @modelcontextprotocol/server'],
      }),
      { color: false },
    );
    expect(text).toContain('a.ts:3:9  sampling  inside a loop');
    expect(text).toContain('a.ts:9:1  roots  not in a handler');
    expect(text).not.toContain('elicitation  ok');
    expect(text).toContain('b.ts:4:2  error  cannot be parsed: nope');
    expect(text).toContain('c.ts  error  could not be written (EACCES); left as it was');
    expect(text).toContain('d.ts:1:4  skipped  binary file (NUL byte)');
    expect(text).toMatch(/3 source files scanned: 0 changed, 0 unchanged, 1 skipped, 2 failed/);
    expect(text).toContain('sites: 1 rewritten, 1 marked, 1 skipped');
    expect(text).toContain('created: state.ts');
    expect(text).toContain('  - install @modelcontextprotocol/server');
  });

  it('says a message repeated for many files once, with a few of its places, and each rarer one on its own line', () => {
    const manifests = [
      'package.json',
      'packages/a/package.json',
      'packages/b/package.json',
      'packages/c/package.json',
      'packages/d/package.json',
    ];
    const text = formatHuman(
      run({
        upgrade: [
          ...manifests.map((_, i) => ({
            file: `p${i}.ts`,
            line: i + 1,
            level: 'info' as const,
            message: 'Raw object literal wrapped with z.object().',
          })),
          { file: 'q.ts', line: 2, level: 'warning', message: 'check this by hand' },
        ],
        notes: [...manifests.map(m => `${m}: added @modelcontextprotocol/server@^2.4.0; install`), 'x.ts:3: carries "big" in requestState'],
      }),
      { color: false },
    );
    expect(text).toContain(
      'Raw object literal wrapped with z.object().  info  5 files (p0.ts:1, p1.ts:2, p2.ts:3 and 2 more; --json lists each)',
    );
    expect(text).toContain('q.ts:2  warning  check this by hand');
    expect(text).toContain(
      '  - added @modelcontextprotocol/server@^2.4.0; install: 5 files (package.json, packages/a/package.json, packages/b/package.json and 2 more; --json lists each)',
    );
    expect(text).toContain('  - x.ts:3: carries "big" in requestState');
    expect(text.match(/added @modelcontextprotocol/g)).toHaveLength(1);
  });

  it('under --quiet prints only errors', () => {
    expect(formatHuman(run({}), { color: false, quiet: true })).toBe('');
    const text = formatHuman(run({ files: [{ file: 'b.ts', outcome: 'error', reason: 'oops' }] }), { color: false, quiet: true });
    expect(text).toContain('b.ts  error  oops');
    expect(text).not.toContain('scanned');
  });
});

describe('summary counts', () => {
  const files: FileResult[] = [
    { file: 'src/a.ts', outcome: 'changed', written: true },
    { file: 'src/b.ts', outcome: 'unchanged' },
    { file: 'src/c.min.js', outcome: 'skipped', reason: 'minified', importsSdk: true },
    { file: 'src/d.min.js', outcome: 'skipped', reason: 'minified', importsSdk: false },
    { file: 'src/e.ts', outcome: 'error', reason: 'cannot be parsed' },
    { file: 'package.json', outcome: 'changed', manifest: true, written: true },
    { file: 'src/mcp-migrate-state.ts', outcome: 'changed', created: true, written: true },
  ];

  it('counts sources apart from package.json and created files, and the source counts add up', () => {
    const s = summarize(emptyReport(), files);
    expect(s).toMatchObject({
      filesScanned: 5,
      filesChanged: 1,
      filesUnchanged: 1,
      filesSkipped: 2,
      filesErrored: 1,
      manifestsChanged: 1,
      filesCreated: 1,
      failures: 1,
      sdkFilesSkipped: 1,
    });
    expect(s.filesChanged + s.filesUnchanged + s.filesSkipped + s.filesErrored).toBe(s.filesScanned);
  });

  it('says "N locations in M files" when the places are lines of fewer files', () => {
    expect(places(['a.ts:1', 'a.ts:5', 'a.ts:9', 'a.ts:12', 'a.ts:20'])).toBe(
      '5 locations in 1 file (a.ts:1, a.ts:5, a.ts:9 and 2 more; --json lists each)',
    );
    expect(places(['a.ts:1', 'b.ts:2', 'c.ts:3', 'd.ts:4'])).toBe('4 files (a.ts:1, b.ts:2, c.ts:3 and 1 more; --json lists each)');
    expect(places(['a.ts:1', 'b.ts:2'])).toBe('a.ts:1, b.ts:2');
  });

  it('exit codes: --check fails on anything left; other modes fail (3) only when a file failed', () => {
    const clean = summarize(emptyReport(), [{ file: 'a.ts', outcome: 'unchanged' }]);
    expect(exitCodeOf('check', clean)).toBe(0);
    expect(exitCodeOf('write', clean)).toBe(0);
    const sdkSkipped = summarize(emptyReport(), [{ file: 'a.min.js', outcome: 'skipped', reason: 'minified', importsSdk: true }]);
    expect(checkFindings(sdkSkipped)).toEqual(['1 skipped file importing the SDK']);
    expect(exitCodeOf('check', sdkSkipped)).toBe(1);
    expect(exitCodeOf('write', sdkSkipped)).toBe(0);
    const unknown = summarize(emptyReport(), [
      { file: 'a.ts', outcome: 'skipped', reason: 'cannot be read (EACCES)', importsSdk: 'unknown' },
    ]);
    expect(exitCodeOf('check', unknown)).toBe(1);
    const leftover = summarize(
      emptyReport(),
      [{ file: 'a.ts', outcome: 'unchanged' }],
      [{ file: 'a.ts', line: 3, column: 1, message: 'Could not automatically migrate .tool() call. Manual migration required.' }],
    );
    expect(checkFindings(leftover)).toEqual(['1 place the official codemod could not migrate']);
    expect(exitCodeOf('check', leftover)).toBe(1);
    const failed = summarize(emptyReport(), [
      { file: 'a.ts', outcome: 'changed' },
      { file: 'package.json', outcome: 'error', reason: 'could not be written (EIO)', manifest: true },
    ]);
    expect(exitCodeOf('write', failed)).toBe(3);
    expect(exitCodeOf('dry-run', failed)).toBe(3);
    expect(exitCodeOf('check', failed)).toBe(1);
  });

  it('exit codes: a leftover that throws as the server starts makes every mode say so (4; 1 under --check; 3 first)', () => {
    const startsNot = {
      file: 'a.ts',
      line: 3,
      column: 1,
      message: 'x keys a setRequestHandler call made through a cast',
      failsAtStart: true,
    };
    const wontStart = summarize(emptyReport(), [{ file: 'a.ts', outcome: 'changed' }], [startsNot]);
    expect(wontStart.startFailures).toBe(1);
    expect(checkFindings(wontStart)).toContain('1 place the official codemod could not migrate (1 where the server throws at start-up)');
    expect(exitCodeOf('check', wontStart)).toBe(1);
    expect(exitCodeOf('write', wontStart)).toBe(4);
    expect(exitCodeOf('dry-run', wontStart)).toBe(4);
    const failedToo = summarize(emptyReport(), [{ file: 'a.ts', outcome: 'error', reason: 'EIO' }], [startsNot]);
    expect(exitCodeOf('write', failedToo)).toBe(3);
  });

  it("tells which leftovers throw at start-up: ours by their words, the codemod's unkeyed registrations", () => {
    expect(failsAtStart(`x: reading it throws, so ${FAILS_AT_START}; then remove this marker`)).toBe(true);
    expect(failsAtStart('Custom method handler: setRequestHandler(PingSchema, ...). In v2, use the 3-arg form')).toBe(true);
    expect(failsAtStart('Other | Task handler registration: setNotificationHandler(TaskStatusNotificationSchema, ...).')).toBe(true);
    expect(failsAtStart('Could not automatically migrate .tool() call. Manual migration required.')).toBe(false);
  });
});

describe('causes table', () => {
  it('has unique ids in kebab-case, each with a text and a fix', () => {
    const ids = CAUSES.map(c => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CAUSES) {
      expect(c.id).toMatch(/^[a-z]+(?:-[a-z0-9]+)*$/);
      expect(c.text.length, c.id).toBeGreaterThan(5);
      expect(c.fix.length, c.id).toBeGreaterThan(5);
    }
  });

  it('gives a site the row of the id it was reported with, and no row to a site reported without one', () => {
    expect(causeOf({ causeId: 'helper-body' }).id).toBe('helper-body');
    expect(causeOf({ causeId: 'journaled-result-not-serialisable' }).level).toBe('warning');
    expect(causeOf({ causeId: 'registered-in-oninitialized' }).level).toBe('error');
    expect(causeOf({}).id).toBe(UNCLASSIFIED.id);
  });
});
