/**
 * The built CLI on malformed sources: truncated copies of the example server (fast-check picks the
 * offsets), invalid syntax, a NUL byte, invalid UTF-8, UTF-16 with a BOM, a 3 MiB file, an empty
 * file, and valid variants with CRLF, a BOM, a shebang, a non-ASCII path. Run in place (`--force`)
 * and with `--dry-run`: no file changes byte-wise unless it parses; the run exits 0, 1, 2 or 3 (a file
 * failed) and never with a stack trace; every bad file is reported with its path; valid files beside broken ones are
 * still migrated, official v1-to-v2 upgrade included.
 *
 * Reproduce with FUZZ_SEED=<seed>.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, hashTree, makeTree, removeTree, runCli, type CliResult } from './cli-helpers.js';
import { syntaxErrors } from './support/typecheck.js';

const SEED = Number(process.env.FUZZ_SEED ?? 5);
const repo = path.resolve(import.meta.dirname, '..');
let example: Buffer;

const trees: string[] = [];
async function tree(files: Record<string, string | Buffer>): Promise<string> {
  const root = await makeTree(files);
  trees.push(root);
  return root;
}

beforeAll(async () => {
  assertBuilt();
  example = await readFile(path.join(repo, 'examples', 'legacy-server', 'src', 'server.ts'));
});
afterAll(async () => {
  for (const root of trees) await removeTree(root);
});

/** A Node stack frame (`    at fn (file:1:2)`) or an uncaught-exception banner anywhere in the output. */
const STACK = /^\s+at .+:\d+:\d+\)?$|^\s+at (?:async )?[\w.<>]+ \(node:|Uncaught|UnhandledPromiseRejection|node:internal/m;

function expectCleanExit(r: CliResult, what: string): void {
  expect([0, 1, 2, 3], `${what}: exit ${r.code}\n${r.stderr}`).toContain(r.code);
  expect(r.stderr, what).not.toMatch(STACK);
  expect(r.stdout.startsWith('{') ? '' : r.stdout, what).not.toMatch(STACK);
}

interface FileEntry {
  file: string;
  outcome: string;
  reason?: string;
  line?: number;
  written?: boolean;
  created?: boolean;
}

function reportOf(r: CliResult): { files: FileEntry[]; notes: string[]; upgrade: { file: string; level: string; message: string }[] } {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`--json printed no JSON (exit ${r.code}):\n${r.stdout.slice(0, 2000)}\n${r.stderr.slice(0, 2000)}`);
  }
}

function withNul(b: Buffer, at: number): Buffer {
  return Buffer.concat([b.subarray(0, at), Buffer.from([0]), b.subarray(at)]);
}

function utf16leWithBom(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** Files that must come out byte-identical, by path, with the word their report line must carry. */
const BAD: Record<string, (e: Buffer) => Buffer | string> = {
  'src/syntax.ts': () =>
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 'x', version: '1' });\nserver.tool('a', {}, async () => {\n  const r = await server.server.elicitInput({ message: 'm' ;\n  return {;\n});\n",
  'src/truncated.ts': e => e.subarray(0, Math.floor(e.length * 0.4)),
  'src/nul.ts': e => withNul(e, 800),
  'src/bad-utf8.ts': e => Buffer.concat([e.subarray(0, 800), Buffer.from([0xff, 0xfe, 0xc3]), e.subarray(800)]),
  'src/utf16.ts': e => utf16leWithBom(e.toString('utf8')),
  'src/big.ts': e => Buffer.concat([e, Buffer.from(`// ${'x'.repeat(3 * 1024 * 1024)}\n`)]),
  // cut inside the first template literal after a request site
  'src/unclosed-template.ts': e => e.subarray(0, e.indexOf('`', e.indexOf('elicitInput')) + 4),
  'src/lone-surrogate-escape.ts': e => Buffer.concat([e, Buffer.from("\nconst broken = '\\u{110000}';\n")]),
};

/** Valid, migratable variants: must be migrated, keeping their framing bytes. */
const GOOD: Record<string, (e: Buffer) => Buffer | string> = {
  'src/plain.ts': e => e,
  'src/crlf.ts': e => e.toString('utf8').replace(/\n/g, '\r\n'),
  'src/bom.ts': e => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), e]),
  'src/shebang.ts': e => `#!/usr/bin/env node\n${e.toString('utf8')}`,
  // the shebang right before the import the official codemod rewrites
  'src/shebang-import.ts': e => `#!/usr/bin/env node\n${e.toString('utf8').slice(e.indexOf('import '))}`,
  'src/shebang-crlf-bom.ts': e =>
    Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`#!/usr/bin/env -S npx tsx\r\n${e.toString('utf8').replace(/\n/g, '\r\n')}`),
    ]),
  'src/ünï cödé/server.ts': e => e,
};

/** Files with nothing to migrate: left alone. */
const INERT: Record<string, (e: Buffer) => Buffer | string> = {
  // cut inside the header comment (an unterminated comment, no MCP code at all): not a candidate
  'src/cut-in-comment.ts': e => e.subarray(0, e.indexOf('`') + 1),
  'src/empty.ts': () => '',
  'src/bom-only.ts': () => Buffer.from([0xef, 0xbb, 0xbf]),
  'src/only-shebang.ts': () => '#!/usr/bin/env node\n',
};

function build(sets: Record<string, (e: Buffer) => Buffer | string>[]): Record<string, Buffer | string> {
  const out: Record<string, Buffer | string> = {};
  for (const set of sets) for (const [file, make] of Object.entries(set)) out[file] = make(example);
  return out;
}

describe('CLI on malformed sources', () => {
  let root: string;
  let pristine: Record<string, string>;

  beforeAll(async () => {
    root = await tree(build([BAD, GOOD, INERT]));
    pristine = await hashTree(root);
  });

  it('--dry-run: exits 3 (files failed), writes nothing, reports every bad file with its path (skipped with the reason, or error with line:col)', async () => {
    const r = await runCli(['--dry-run', '.'], root);
    expectCleanExit(r, 'dry-run');
    expect(r.code).toBe(3);
    expect(await hashTree(root)).toEqual(pristine);
    expect(r.stderr).toMatch(/^src\/nul\.ts:\d+:\d+ {2}skipped {2}binary file \(NUL byte\)/m);
    expect(r.stderr).toMatch(/^src\/bad-utf8\.ts:\d+:\d+ {2}skipped {2}not valid UTF-8/m);
    expect(r.stderr).toMatch(/^src\/utf16\.ts {2}skipped {2}UTF-16/m);
    expect(r.stderr).toMatch(/^src\/big\.ts {2}skipped {2}too large/m);
    for (const file of ['src/syntax.ts', 'src/truncated.ts', 'src/unclosed-template.ts', 'src/lone-surrogate-escape.ts']) {
      expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+:\\d+ {2}error {2}`, 'm'));
    }
    // the diff covers exactly the valid files and the state module's two files
    const diffed = [...r.stdout.matchAll(/^\+\+\+ b\/(.+)$/gm)].map(m => m[1]).sort();
    expect(diffed).toEqual([...Object.keys(GOOD), 'src/mcp-migrate-state.ts', 'src/mcp-migrate-state-seal.ts'].sort());
  });

  it('--json --dry-run: every file has one entry; bad ones skipped or error with a reason; the valid ones upgraded by the official codemod despite the broken ones', async () => {
    const r = await runCli(['--json', '--dry-run', '.'], root);
    expectCleanExit(r, 'json dry-run');
    expect(await hashTree(root)).toEqual(pristine);
    const report = reportOf(r);
    const byFile = new Map(report.files.map(f => [f.file, f]));
    for (const file of Object.keys(BAD)) {
      const entry = byFile.get(file);
      expect(entry, file).toBeDefined();
      expect(['skipped', 'error'], file).toContain(entry!.outcome);
      expect(entry!.reason, file).toBeTruthy();
    }
    for (const file of Object.keys(GOOD)) expect(byFile.get(file)?.outcome, file).toBe('changed');
    for (const file of Object.keys(INERT)) expect(byFile.get(file)?.outcome, file).toBe('unchanged');
    // upgrade notes (e.g. "wrapped with z.object()") for every valid file: the codemod ran on each of them
    for (const file of Object.keys(GOOD))
      expect(
        report.upgrade.some(u => u.file === file),
        `no upgrade notes for ${file}`,
      ).toBe(true);
    expect(report.notes.join('\n')).not.toMatch(/codemod failed/);
  });

  it('in place with --force: bad and inert files byte-identical; valid files migrated keeping BOM, CRLF and shebang; a second run changes nothing', async () => {
    const r = await runCli(['--force', '.'], root);
    expectCleanExit(r, 'in place');
    expect(r.code).toBe(3);
    const after = await hashTree(root);
    for (const file of [...Object.keys(BAD), ...Object.keys(INERT)]) expect(after[file], file).toBe(pristine[file]);
    for (const file of Object.keys(GOOD)) expect(after[file], file).not.toBe(pristine[file]);
    expect(after['src/mcp-migrate-state.ts']).toBeDefined();
    expect(after['src/mcp-migrate-state-seal.ts']).toBeDefined();

    const text = async (file: string) => readFile(path.join(root, file), 'utf8');
    for (const file of Object.keys(GOOD)) {
      const out = await text(file);
      expect(syntaxErrors(file, out.replace(/^\uFEFF/, '')), file).toEqual([]);
      expect(out, `${file} still imports SDK 1.x`).not.toMatch(/@modelcontextprotocol\/sdk/);
      expect(out, file).toMatch(/from ["']@modelcontextprotocol\/server["']/);
      expect(out, file).toMatch(/\bresumable\(server\)\.registerTool\(/);
    }
    expect((await text('src/shebang.ts')).startsWith(`#!/usr/bin/env node\n${example.toString('utf8').split('\n')[0]}\n`)).toBe(true);
    expect((await text('src/shebang-import.ts')).startsWith('#!/usr/bin/env node\nimport ')).toBe(true);
    const triple = await readFile(path.join(root, 'src/shebang-crlf-bom.ts'));
    expect([...triple.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(triple.subarray(3).toString('utf8').startsWith('#!/usr/bin/env -S npx tsx\r\n')).toBe(true);
    expect(triple.subarray(3).toString('utf8')).not.toMatch(/[^\r]\n/);
    expect(await text('src/crlf.ts')).not.toMatch(/[^\r]\n/);
    expect([...(await readFile(path.join(root, 'src/bom.ts'))).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const again = await runCli(['--force', '.'], root);
    expectCleanExit(again, 'second in-place run');
    const settled = await hashTree(root);
    expect(settled).toEqual(after);
  });
});

describe('CLI on truncated copies of the example (fast-check offsets)', () => {
  it(`never changes a truncation that does not parse, reports it with its path, and still migrates the intact copy beside it (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: example.length - 1 }), { minLength: 8, maxLength: 12 }), async offsets => {
        const files: Record<string, Buffer> = { 'src/intact.ts': example };
        for (const at of offsets) files[`src/cut-${at}.ts`] = example.subarray(0, at);
        const root = await tree(files);
        const pristine = await hashTree(root);

        const dry = await runCli(['--json', '--dry-run', '.'], root);
        expectCleanExit(dry, `dry-run, offsets ${offsets}`);
        expect(await hashTree(root)).toEqual(pristine);
        const report = reportOf(dry);

        const wet = await runCli(['--force', '.'], root);
        expectCleanExit(wet, `in place, offsets ${offsets}`);
        const after = await hashTree(root);

        for (const at of offsets) {
          const file = `src/cut-${at}.ts`;
          const source = example.subarray(0, at).toString('utf8');
          const entry = report.files.find(f => f.file === file);
          expect(entry, file).toBeDefined();
          if (syntaxErrors(file, source).length > 0) {
            expect(after[file], `${file} does not parse but was changed`).toBe(pristine[file]);
            if (/@modelcontextprotocol\/|elicitInput|createMessage|listRoots/.test(source)) {
              // a candidate file: reported as an error with its location
              expect(entry!.outcome, file).toBe('error');
              expect(entry!.reason, file).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+:\\d+ cannot be parsed`));
              expect(wet.stderr).toContain(`${file}:`);
            } else {
              expect(entry!.outcome, file).toBe('unchanged');
            }
          } else if (after[file] !== pristine[file]) {
            const out = await readFile(path.join(root, file), 'utf8');
            expect(syntaxErrors(file, out), `${file}: the rewrite does not parse`).toEqual([]);
          }
        }
        expect(after['src/intact.ts']).not.toBe(pristine['src/intact.ts']);
        const intact = await readFile(path.join(root, 'src/intact.ts'), 'utf8');
        expect(intact).not.toMatch(/@modelcontextprotocol\/sdk/);
        expect(intact).toMatch(/\bresumable\(server\)\.registerTool\(/);
      }),
      { seed: SEED, numRuns: 2, endOnFailure: true },
    );
  }, 600_000);
});
