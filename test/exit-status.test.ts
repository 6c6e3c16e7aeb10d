/**
 * Exit status and --check that tell the truth: a file that imports the SDK but is skipped (minified by
 * name or by shape, too large), code the official codemod could not migrate (its `@mcp-codemod-error`
 * markers), and writes that fail, all or some; and a machine-readable error when the run cannot start.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, hashTree, LEGACY_SERVER, makeTree, PLAIN_SOURCE, REPO, removeTree, runCli } from './cli-helpers.js';

const trees: string[] = [];
async function tree(files: Record<string, string | Buffer>): Promise<string> {
  const root = await makeTree(files);
  trees.push(root);
  return root;
}

beforeAll(assertBuilt);
afterAll(async () => {
  await Promise.all(trees.splice(0).map(removeTree));
});

const FAIL_WRITES = ['--import', path.join(REPO, 'test', 'support', 'fail-writes.mjs')];

/** A small one-line bundle: under every size limit, but statements packed without whitespace. */
const ONE_LINE_BUNDLE =
  'import{McpServer as e}from"@modelcontextprotocol/sdk/server/mcp.js";const t=new e({name:"b",version:"1"});' +
  't.tool("ask",{},async()=>{const r=await t.server.elicitInput({message:"m",requestedSchema:{type:"object",properties:{}}});' +
  'return{content:[{type:"text",text:String(r.action)}]}});export{t as server};\n';
const MINIFIED_BY_NAME =
  'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport const s = new McpServer({ name: "m", version: "1" });\n';
const MINIFIED_WITHOUT_SDK = `var a=1;var b=2;var c=3;var d=${'1+'.repeat(120)}1;\n`;
const TOO_LARGE_WITH_SDK = `${'// padding\n'.repeat(300_000)}import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n`;

/** Tools registered in a loop, with a description computed: neither the official codemod nor its repairs can tell the arguments apart. */
const UNCONVERTIBLE_TOOL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { describeTool } from './describe.js';

const server = new McpServer({ name: 'tools', version: '1.0.0' });

for (const tool of [{ name: 'ping' }]) server.tool(tool.name, describeTool(tool), async () => ({ content: [{ type: 'text', text: 'pong' }] }));

await server.connect(new StdioServerTransport());
`;
const DESCRIBE = 'export const describeTool = (tool: { name: string }) => `The ${tool.name} tool`;\n';

describe.concurrent('skipped files that import the SDK', { timeout: 600_000 }, () => {
  it('minified (by name, by shape) and too-large files are never rewritten; --check counts those importing the SDK', async () => {
    const root = await tree({
      'src/a.ts': PLAIN_SOURCE,
      'src/vendor.min.js': MINIFIED_BY_NAME,
      'src/bundle.js': ONE_LINE_BUNDLE,
      'src/big.js': TOO_LARGE_WITH_SDK,
      'src/packed.js': MINIFIED_WITHOUT_SDK,
    });
    const check = await runCli(['--check', '--json', 'src'], root);
    expect(check.code, check.stderr).toBe(1);
    const report = JSON.parse(check.stdout);
    const byFile = Object.fromEntries(report.files.map((f: { file: string }) => [f.file, f]));
    expect(byFile['src/vendor.min.js']).toMatchObject({ outcome: 'skipped', importsSdk: true });
    expect(byFile['src/vendor.min.js'].reason).toMatch(/minified or bundled, by its name/);
    expect(byFile['src/bundle.js']).toMatchObject({ outcome: 'skipped', importsSdk: true, line: 1 });
    expect(byFile['src/bundle.js'].reason).toMatch(/packed without whitespace/);
    expect(byFile['src/big.js']).toMatchObject({ outcome: 'skipped', importsSdk: true });
    expect(byFile['src/big.js'].reason).toMatch(/too large/);
    expect(byFile['src/packed.js']).toMatchObject({ outcome: 'skipped', importsSdk: false });
    expect(report.summary).toMatchObject({ sdkFilesSkipped: 3, sitesLeft: 0, filesChanged: 0 });
    expect(check.stderr).toMatch(/check failed: 3 skipped files importing the SDK/);

    const before = await hashTree(root);
    const write = await runCli(['src'], root);
    expect(write.code, write.stderr).toBe(0);
    expect(await hashTree(root)).toEqual(before);
    expect(write.stderr).toMatch(/^src\/bundle\.js:1:1 {2}skipped {2}looks minified .*; it imports the SDK and stays on 1\.x$/m);
  });

  it('a minified file that does not import the SDK does not fail --check', async () => {
    const root = await tree({ 'src/a.ts': PLAIN_SOURCE, 'src/packed.js': MINIFIED_WITHOUT_SDK, 'src/lib.min.js': 'var x=1;\n' });
    const r = await runCli(['--check', 'src'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('check passed');
  });
});

describe.concurrent('code the official codemod could not migrate', { timeout: 600_000 }, () => {
  it('is reported at the code its marker is about, in the file as the run leaves it; --check fails on it before and after the run', async () => {
    const root = await tree({ 'src/server.ts': UNCONVERTIBLE_TOOL, 'src/describe.ts': DESCRIBE });
    const dry = await runCli(['--dry-run', '--json', 'src'], root);
    expect(dry.code, dry.stderr).toBe(0);
    // Nothing written: the line of the file as it is (the marker would go above it).
    const leftovers = JSON.parse(dry.stdout).codemodLeftovers;
    expect(UNCONVERTIBLE_TOOL.split('\n')[6]).toMatch(/^for \(const tool of/);
    expect(leftovers).toEqual([
      { file: 'src/server.ts', line: 7, column: 1, message: 'Could not automatically migrate .tool() call. Manual migration required.' },
    ]);

    const write = await runCli(['src'], root);
    expect(write.code, write.stderr).toBe(0);
    const migrated = await readFile(path.join(root, 'src/server.ts'), 'utf8');
    expect(migrated.split('\n')[7]).toBe(
      "for (const tool of [{ name: 'ping' }]) server.tool(tool.name, describeTool(tool), async () => ({ content: [{ type: 'text', text: 'pong' }] }));",
    );
    expect(write.stderr).toMatch(/^src\/server\.ts:8:1 {2}codemod {2}Could not automatically migrate \.tool\(\) call/m);

    // Nothing would change any more, but the server would die at startup (server.tool is not a function in 2.x).
    const check = await runCli(['--check', '--json', 'src'], root);
    expect(check.code, check.stderr).toBe(1);
    const report = JSON.parse(check.stdout);
    expect(report.summary).toMatchObject({ filesChanged: 0, sitesLeft: 0, codemodLeftovers: 1 });
    expect(check.stderr).toMatch(/check failed: 1 place the official codemod could not migrate/);
  });
});

describe.concurrent('failed writes', { timeout: 600_000 }, () => {
  it('a run where some writes fail exits 3, leaves those files as they were and writes the others', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER, 'src/other.ts': LEGACY_SERVER.replace("'legacy'", "'other'") });
    const r = await runCli(['--json', 'src'], root, { MCP_MIGRATE_TEST_FAIL_WRITES: 'server\\.ts$' }, FAIL_WRITES);
    expect(r.code, r.stderr).toBe(3);
    const report = JSON.parse(r.stdout);
    expect(report.exitCode).toBe(3);
    const byFile = Object.fromEntries(report.files.map((f: { file: string }) => [f.file, f]));
    expect(byFile['src/server.ts']).toMatchObject({ outcome: 'error', reason: 'could not be written (EIO); left as it was' });
    expect(byFile['src/other.ts']).toMatchObject({ outcome: 'changed', written: true });
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).toBe(LEGACY_SERVER);
    expect(r.stderr).toMatch(/1 file failed and was left as it was \(exit code 3\)/);
  });

  it('a run where every write fails exits 3, not 0', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER, 'src/other.ts': LEGACY_SERVER.replace("'legacy'", "'other'") });
    const r = await runCli(['src'], root, { MCP_MIGRATE_TEST_FAIL_WRITES: '\\.ts$' }, FAIL_WRITES);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/2 source files scanned: 0 changed, 0 unchanged, 0 skipped, 2 failed/);
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).toBe(LEGACY_SERVER);
  });

  it('a file the pipeline cannot parse makes a dry run exit 3 too, and --check exit 1', async () => {
    const root = await tree({
      'src/broken.ts':
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst s = new McpServer({ name: 'x', version: '1' };\n",
      'src/a.ts': PLAIN_SOURCE,
    });
    expect((await runCli(['--dry-run', 'src'], root)).code).toBe(3);
    expect((await runCli(['--check', 'src'], root)).code).toBe(1);
  });
});

describe.concurrent('a run that cannot start', { timeout: 600_000 }, () => {
  it('--json prints a JSON error on stdout (and the message on stderr), exit 2', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--json', 'missing-dir'], root);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      schemaVersion: 1,
      error: { kind: 'refused', message: 'missing-dir: no such file or directory' },
      exitCode: 2,
    });
    expect(r.stderr).toContain('missing-dir: no such file or directory');
  });

  it('--format sarif prints a SARIF log whose invocation failed, with the message', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--format', 'sarif', '--check', 'missing-dir'], root);
    expect(r.code).toBe(2);
    const sarif = JSON.parse(r.stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 2 });
    expect(sarif.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toContain('missing-dir');
    expect(sarif.runs[0].results).toEqual([]);
  });

  it('a usage error under --json is a JSON error too', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    for (const args of [
      ['--json', '--no-such-flag'],
      ['--format=json', '--shard', '0/3', '.'],
    ]) {
      const r = await runCli(args, root);
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout), args.join(' ')).toMatchObject({ schemaVersion: 1, error: { kind: 'usage' }, exitCode: 2 });
    }
  });

  it('--json with --format sarif is a usage error', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--json', '--format', 'sarif', '.'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pick one/);
  });
});

describe('--help and the README', () => {
  it('give the same --jobs threshold, the one the code uses', async () => {
    const { MIN_FILES_PER_THREAD, MAX_THREADS } = await import('../src/parallel.js');
    const help = (await runCli(['--help'], REPO)).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`at most ${MAX_THREADS}, once there are ${MIN_FILES_PER_THREAD} files to analyse per thread`);
    const readme = (await readFile(path.join(REPO, 'README.md'), 'utf8')).replace(/\s+/g, ' ');
    expect(readme).toContain(`at most ${MAX_THREADS}, once there are ${MIN_FILES_PER_THREAD} files to analyse per thread`);
  });

  it('--help lists every exit code the run uses', async () => {
    const help = (await runCli(['--help'], REPO)).stdout;
    for (const code of ['0', '1', '2', '3', '4', '130/143']) expect(help).toMatch(new RegExp(`^\\s+${code}\\s`, 'm'));
  });
});
