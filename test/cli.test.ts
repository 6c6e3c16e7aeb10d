import { chmod, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, git, hashTree, LEGACY_SERVER, makeTree, PLAIN_SOURCE, removeTree, runCli } from './cli-helpers.js';

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

const BINARY = Buffer.from([0x63, 0x6f, 0x6e, 0x73, 0x74, 0x00, 0x01, 0x02, 0x0a]);
const BAD_UTF8 = Buffer.concat([Buffer.from('const a = 1;\nconst s = "'), Buffer.from([0xc3, 0x28]), Buffer.from('";\n')]);
const MINIFIED = `var a=${'1+'.repeat(4000)}1;\n`;

describe.concurrent('usage and exit codes', { timeout: 600_000 }, () => {
  it('--help documents the exit codes and exits 0', async () => {
    const r = await runCli(['--help'], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit codes:');
    expect(r.stdout).toMatch(/2\s+usage error/);
    expect(r.stdout).toContain('--dry-run');
    expect(r.stdout).toContain('verify');
  });

  it('an unknown option is a usage error: exit 2, message on stderr, nothing on stdout', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--no-such-flag'], root);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Unknown argument/i);
  });

  it('a path that does not exist exits 2 and names it', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['missing-dir'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing-dir: no such file or directory');
  });

  it('a clean run exits 0 with a summary on stderr and nothing on stdout', async () => {
    const root = await tree({ 'src/a.ts': PLAIN_SOURCE, 'src/b.js': 'module.exports = 1;\n' });
    const r = await runCli(['src'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/2 source files scanned: 0 changed, 2 unchanged, 0 skipped, 0 failed/);
    expect(r.stderr).toMatch(/sites: 0 rewritten, 0 marked, 0 skipped/);
  });

  it('--quiet prints nothing for a clean run; --no-upgrade and --no-color are accepted', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--quiet', '--no-upgrade', '--no-color', '.'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
  });

  it('--check exits 0 when nothing is left to migrate', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--check'], root);
    expect(r.code).toBe(0);
  });

  it('--check exits 1 on a legacy server calling server.server.elicitInput in an McpServer.tool callback', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER, 'src/a.ts': PLAIN_SOURCE });
    const r = await runCli(['--check', '--json'], root);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.exitCode).toBe(1);
    expect(report.sites.length).toBeGreaterThan(0);
    expect(report.sites[0]).toMatchObject({ file: 'src/server.ts', kind: 'elicitation' });
    expect(report.summary.filesChanged + report.summary.sitesLeft).toBeGreaterThan(0);
  });
});

describe.concurrent('--json', { timeout: 600_000 }, () => {
  it('prints only the report on stdout: sites, per-file outcomes and a summary with counts', async () => {
    const root = await tree({
      'src/a.ts': PLAIN_SOURCE,
      'src/bin.ts': BINARY,
      'src/bad.ts': BAD_UTF8,
      'src/min.js': MINIFIED,
      'src/types.d.ts': 'export {};\n',
    });
    const r = await runCli(['--json', '--dry-run'], root);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ schemaVersion: 1, mode: 'dry-run', exitCode: 0 });
    expect(Array.isArray(report.sites)).toBe(true);
    expect(Array.isArray(report.upgrade)).toBe(true);
    expect(Array.isArray(report.created)).toBe(true);
    expect(Array.isArray(report.notes)).toBe(true);
    expect(report.summary).toMatchObject({ filesScanned: 4, filesSkipped: 3, filesErrored: 0, sitesLeft: 0 });
    expect(report.summary.sites).toEqual({ rewritten: 0, marked: 0, skipped: 0 });
    const byFile = Object.fromEntries(report.files.map((f: { file: string }) => [f.file, f]));
    expect(byFile['src/a.ts'].outcome).toBe('unchanged');
    expect(byFile['src/bin.ts']).toMatchObject({ outcome: 'skipped', line: 1, column: 6 });
    expect(byFile['src/bin.ts'].reason).toMatch(/binary/);
    expect(byFile['src/bad.ts']).toMatchObject({ outcome: 'skipped', reason: 'not valid UTF-8', line: 2, column: 12 });
    expect(byFile['src/min.js'].reason).toMatch(/minified/);
    expect(byFile['src/types.d.ts']).toBeUndefined();
  });

  it('is valid JSON under --check as well, with the exit code in it', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['--json', '--check', '--quiet'], root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ mode: 'check', exitCode: 0, summary: { filesScanned: 1 } });
    expect(r.stderr).toBe('');
  });
});

describe.concurrent('nothing is written when it must not be', { timeout: 600_000 }, () => {
  it('--dry-run changes no byte (nor mode, nor mtime) on disk', async () => {
    const root = await tree({
      'src/server.ts': LEGACY_SERVER,
      'src/crlf.ts': PLAIN_SOURCE.replace(/\n/g, '\r\n'),
      'src/bom.ts': `\uFEFF${PLAIN_SOURCE}`,
      'src/bin.ts': BINARY,
      'package.json': '{"name":"x","type":"module"}\n',
    });
    const before = await hashTree(root);
    const r = await runCli(['--dry-run', '.'], root);
    expect(r.code).toBe(0);
    expect(await hashTree(root)).toEqual(before);
  });

  it('--check changes no byte on disk', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER, 'src/a.ts': PLAIN_SOURCE });
    const before = await hashTree(root);
    const r = await runCli(['--check', '--json'], root);
    expect([0, 1]).toContain(r.code);
    expect(await hashTree(root)).toEqual(before);
  });

  it('binary, malformed and minified files stay byte-identical in an in-place run and are reported with their path', async () => {
    const root = await tree({ 'src/a.ts': PLAIN_SOURCE, 'src/bin.ts': BINARY, 'src/bad.ts': BAD_UTF8, 'src/min.js': MINIFIED });
    const before = await hashTree(root);
    const r = await runCli(['src'], root);
    expect(r.code).toBe(0);
    expect(await hashTree(root)).toEqual(before);
    expect(r.stderr).toMatch(/^src\/bin\.ts:1:6 {2}skipped {2}binary file/m);
    expect(r.stderr).toMatch(/^src\/bad\.ts:2:12 {2}skipped {2}not valid UTF-8/m);
    expect(r.stderr).toMatch(/^src\/min\.js:1:1 {2}skipped {2}looks minified/m);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file stays as it was and is reported; the others are still processed', async () => {
    const root = await tree({ 'src/a.ts': PLAIN_SOURCE, 'src/secret.ts': PLAIN_SOURCE });
    await chmod(path.join(root, 'src/secret.ts'), 0o000);
    const r = await runCli(['--json', 'src'], root);
    await chmod(path.join(root, 'src/secret.ts'), 0o644);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const secret = report.files.find((f: { file: string }) => f.file === 'src/secret.ts');
    expect(secret).toMatchObject({ outcome: 'skipped' });
    expect(secret.reason).toMatch(/cannot be read \(EACCES\)/);
    expect(report.files.find((f: { file: string }) => f.file === 'src/a.ts').outcome).toBe('unchanged');
  });

  it('a symbolic link out of the given paths is reported, not followed', async () => {
    const outside = await tree({ 'evil.ts': LEGACY_SERVER });
    const root = await tree({ 'src/a.ts': PLAIN_SOURCE });
    await symlink(path.join(outside, 'evil.ts'), path.join(root, 'src', 'evil.ts'));
    const outsideBefore = await hashTree(outside);
    const r = await runCli(['src'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/src\/evil\.ts {2}skipped {2}symbolic link to a file outside the given paths/);
    expect(await hashTree(outside)).toEqual(outsideBefore);
  });
});

describe.concurrent('git guard', { timeout: 600_000 }, () => {
  async function repo(): Promise<string> {
    const root = await tree({ 'src/a.ts': PLAIN_SOURCE, 'src/b.ts': PLAIN_SOURCE, 'other/c.ts': PLAIN_SOURCE });
    await git(['init', '-q'], root);
    await git(['add', '.'], root);
    await git(['commit', '-q', '-m', 'init'], root);
    return root;
  }

  it('allows an in-place run in a clean work tree', async () => {
    const root = await repo();
    const r = await runCli(['src'], root);
    expect(r.code).toBe(0);
  });

  it('refuses an in-place run when target files have uncommitted changes, naming them and the ways forward', async () => {
    const root = await repo();
    await writeFile(path.join(root, 'src/a.ts'), `${PLAIN_SOURCE}// edit\n`);
    await writeFile(path.join(root, 'src/new.ts'), PLAIN_SOURCE); // untracked counts too
    const before = await hashTree(path.join(root, 'src'));
    const r = await runCli(['src'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('uncommitted changes');
    expect(r.stderr).toMatch(/ M {2}src\/a\.ts/);
    expect(r.stderr).toMatch(/\?\? {2}src\/new\.ts/);
    expect(r.stderr).toContain('--force');
    expect(r.stderr).toContain('--dry-run');
    expect(await hashTree(path.join(root, 'src'))).toEqual(before);
  });

  it('does not count a file it never writes, such as a report redirected into the tree', async () => {
    const root = await repo();
    await writeFile(path.join(root, 'src/report.json'), '{}\n');
    await writeFile(path.join(root, 'src/NOTES.md'), 'todo\n');
    const r = await runCli(['src'], root);
    expect(r.code, r.stderr).toBe(0);
  });

  it('only looks at the target paths', async () => {
    const root = await repo();
    await writeFile(path.join(root, 'other/c.ts'), `${PLAIN_SOURCE}// edit\n`);
    const r = await runCli(['src'], root);
    expect(r.code).toBe(0);
  });

  it('--force overrides the refusal; --dry-run and --check never need it', async () => {
    const root = await repo();
    await writeFile(path.join(root, 'src/a.ts'), `${PLAIN_SOURCE}// edit\n`);
    expect((await runCli(['--force', 'src'], root)).code).toBe(0);
    expect((await runCli(['--dry-run', 'src'], root)).code).toBe(0);
    expect((await runCli(['--check', 'src'], root)).code).toBe(0);
  });

  it('works from a subdirectory and with a file path', async () => {
    const root = await repo();
    await writeFile(path.join(root, 'src/b.ts'), `${PLAIN_SOURCE}// edit\n`);
    const sub = await runCli(['.'], path.join(root, 'src'));
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/ M {2}b\.ts/);
    expect((await runCli(['src/a.ts'], root)).code).toBe(0);
    expect((await runCli(['src/b.ts'], root)).code).toBe(2);
  });

  it('outside a git work tree, in-place runs are allowed', async () => {
    const root = await tree({ 'a.ts': PLAIN_SOURCE });
    const r = await runCli(['.'], root, { GIT_CEILING_DIRECTORIES: path.dirname(root) });
    expect(r.code).toBe(0);
    expect(await readFile(path.join(root, 'a.ts'), 'utf8')).toBe(PLAIN_SOURCE);
  });
});

describe.concurrent('migrating for real', { timeout: 600_000 }, () => {
  it('writes in place keeping BOM, CRLF, the final-newline state, the shebang and the mode; creates files with 0644 and LF', async () => {
    const legacy = `#!/usr/bin/env node\n${LEGACY_SERVER.trimEnd()}`; // no final newline
    const root = await tree({ 'src/server.ts': Buffer.from(`\uFEFF${legacy.replace(/\n/g, '\r\n')}`), 'src/a.ts': PLAIN_SOURCE });
    await chmod(path.join(root, 'src/server.ts'), 0o755);
    const r = await runCli(['--json', '.'], root);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const server = report.files.find((f: { file: string }) => f.file === 'src/server.ts');
    expect(server).toMatchObject({ outcome: 'changed', written: true });
    const bytes = await readFile(path.join(root, 'src/server.ts'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.startsWith('#!/usr/bin/env node\r\n')).toBe(true);
    expect(text).not.toMatch(/[^\r]\n/);
    expect(text.endsWith('\n')).toBe(false);
    expect(text).not.toBe(legacy.replace(/\n/g, '\r\n'));
    expect((await stat(path.join(root, 'src/server.ts'))).mode & 0o7777).toBe(0o755);
    expect(await readFile(path.join(root, 'src/a.ts'), 'utf8')).toBe(PLAIN_SOURCE);
    for (const created of report.created as string[]) {
      const file = path.join(root, created);
      expect((await stat(file)).mode & 0o7777).toBe(0o644);
      expect(await readFile(file, 'utf8')).not.toContain('\r\n');
    }
  });

  it('a file the pipeline cannot parse stays byte-identical and is reported located (exit 3); the others are still migrated', async () => {
    const broken = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 'x', version: '1' });\nserver.tool('a', {}, async () => {\n  await server.server.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });\n  return { content: [ };\n});\n`;
    const root = await tree({ 'src/broken.ts': broken, 'src/server.ts': LEGACY_SERVER });
    const r = await runCli(['src'], root);
    expect(r.code).toBe(3);
    expect(await readFile(path.join(root, 'src/broken.ts'), 'utf8')).toBe(broken);
    expect(r.stderr).toMatch(/^src\/broken\.ts:\d+:\d+ {2}error {2}/m);
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).not.toBe(LEGACY_SERVER);
  });

  it('the --dry-run diff is a git patch that reproduces the in-place result', async () => {
    const files = { 'src/server.ts': LEGACY_SERVER, 'src/a.ts': PLAIN_SOURCE };
    const viaPatch = await tree(files);
    const inPlace = await tree(files);
    const dry = await runCli(['--dry-run', 'src'], viaPatch);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^diff --git a\/src\/server\.ts b\/src\/server\.ts$/m);
    expect(dry.stdout).toMatch(/^--- a\/src\/server\.ts$/m);
    expect(dry.stdout).not.toMatch(/\x1b\[/); // not a TTY: no colour
    await writeFile(path.join(viaPatch, 'patch.diff'), dry.stdout);
    await git(['init', '-q'], viaPatch);
    await git(['apply', 'patch.diff'], viaPatch);
    expect((await runCli(['src'], inPlace)).code).toBe(0);
    const { rm } = await import('node:fs/promises');
    await rm(path.join(viaPatch, 'patch.diff'));
    await rm(path.join(viaPatch, '.git'), { recursive: true, force: true });
    expect(await hashTree(viaPatch, { mtime: false })).toEqual(await hashTree(inPlace, { mtime: false }));
  });

  it('--color colours the diff even when stdout is not a terminal', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER });
    const r = await runCli(['--dry-run', '--color', 'src'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\x1b\[3[12]m/);
  });

  it('--no-upgrade is passed through: the v1-to-v2 codemod reports nothing', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER });
    const r = await runCli(['--json', '--dry-run', '--no-upgrade', 'src'], root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).upgrade).toEqual([]);
  });
});

/**
 * A legacy server whose upgrade changes the lines above its sites: imports over several lines, and
 * `server.tool(...)` calls over six lines that become one `registerTool(...)` line each. Two tools
 * hand their call to the same helper (marked for both), one is rewritten, a request in
 * `oninitialized` is marked, and a tool registered in a loop is left by the official codemod.
 */
const MOVING_LINES = `import {
  McpServer,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  z,
} from 'zod';

const server = new McpServer({ name: 'moving', version: '1.0.0' });

async function confirmed(id: string) {
  const answer = await server.server.elicitInput({
    message: \`Delete \${id}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return { content: [{ type: 'text' as const, text: answer.action }] };
}

server.tool(
  'delete_a',
  'Deletes a thing after the user confirms it',
  { id: z.string() },
  async ({ id }) => confirmed(id),
);
server.tool(
  'delete_b',
  'Deletes another thing after the user confirms it',
  { id: z.string() },
  async ({ id }) => confirmed(id),
);

server.tool(
  'greet',
  'Greets',
  { name: z.string() },
  async ({ name }) => {
    const answer = await server.server.elicitInput({
      message: \`How are you, \${name}?\`,
      requestedSchema: { type: 'object', properties: { mood: { type: 'string' } } },
    });
    return { content: [{ type: 'text', text: \`\${name}: \${answer.action}\` }] };
  },
);

for (const tool of [{ name: 'ping' }]) server.tool(tool.name, String(tool.name), async () => ({ content: [{ type: 'text', text: 'pong' }] }));

server.server.oninitialized = async () => {
  await server.server.listRoots();
};
`;

interface PositionedReport {
  sites: { file: string; line: number; column: number; outcome: string; kind: string; reason: string; handler?: string }[];
  codemodLeftovers: { file: string; line: number; column: number; message: string }[];
  upgrade: { file: string; line: number; message: string }[];
}
interface SarifLog {
  runs: {
    results: {
      ruleId: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }[];
    }[];
  }[];
}

/** `file:line:col` of each site left and each codemod leftover, as --json gives them. */
function jsonPlaces(r: PositionedReport): string[] {
  return [
    ...r.sites.filter(s => s.outcome !== 'rewritten').map(s => `${s.file}:${s.line}:${s.column}`),
    ...r.codemodLeftovers.map(l => `${l.file}:${l.line}:${l.column}`),
  ].sort();
}
/** The same places as the human report prints them. */
function textPlaces(stderr: string): string[] {
  return [...stderr.matchAll(/^(src\/\S+:\d+:\d+) {2}(?:elicitation|roots|connection|codemod) /gm)].map(m => m[1]!).sort();
}
/** The same places as the SARIF log gives them. */
function sarifPlaces(log: SarifLog): string[] {
  return log.runs[0]!.results.filter(r => r.ruleId !== 'migration-pending')
    .map(r => r.locations[0]!.physicalLocation)
    .map(l => `${l.artifactLocation.uri}:${l.region!.startLine}:${l.region!.startColumn}`)
    .sort();
}
const at = (text: string, line: number, column: number) => text.split('\n')[line - 1]!.slice(column - 1);

describe.concurrent('report positions', { timeout: 600_000 }, () => {
  it('under --dry-run and --check, point into the file as it is, the same in the text report, --json and SARIF', async () => {
    const root = await tree({ 'src/server.ts': MOVING_LINES });
    const [json, text, sarif, check] = await Promise.all([
      runCli(['--dry-run', '--json', 'src'], root),
      runCli(['--dry-run', 'src'], root),
      runCli(['--dry-run', '--format', 'sarif', 'src'], root),
      runCli(['--check', '--json', 'src'], root),
    ]);
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).toBe(MOVING_LINES);
    const report = JSON.parse(json.stdout) as PositionedReport;
    // The helper's request, asked where it is written for both tools; greet's in greet.
    const rewritten = report.sites.filter(s => s.outcome === 'rewritten');
    expect(rewritten.map(s => [s.handler, s.line, at(MOVING_LINES, s.line, s.column)])).toEqual([
      ['tools/call delete_a', 11, 'server.server.elicitInput({'],
      ['tools/call greet', 36, 'server.server.elicitInput({'],
    ]);
    const roots = report.sites.find(s => s.kind === 'roots')!;
    expect([roots.line, at(MOVING_LINES, roots.line, roots.column)]).toEqual([47, 'server.server.listRoots();']);
    const lifecycle = report.sites.find(s => s.kind === 'connection')!;
    expect([lifecycle.line, at(MOVING_LINES, lifecycle.line, lifecycle.column)]).toEqual([
      46,
      'server.server.oninitialized = async () => {',
    ]);
    expect(report.codemodLeftovers.map(l => [l.line, at(MOVING_LINES, l.line, l.column).slice(0, 18)])).toEqual([
      [44, 'for (const tool of'],
    ]);
    for (const u of report.upgrade.filter(u => /wrapped with z\.object/.test(u.message)))
      expect(at(MOVING_LINES, u.line, 1)).toBe('server.tool(');

    expect(textPlaces(text.stderr)).toEqual(jsonPlaces(report));
    expect(sarifPlaces(JSON.parse(sarif.stdout) as SarifLog)).toEqual(jsonPlaces(report));
    expect(jsonPlaces(JSON.parse(check.stdout) as PositionedReport)).toEqual(jsonPlaces(report));
  });

  it('after a run that writes, point into the file as written, the same in the text report, --json and SARIF', async () => {
    const [forJson, forText, forSarif] = await Promise.all([0, 1, 2].map(() => tree({ 'src/server.ts': MOVING_LINES })));
    const [json, text, sarif] = await Promise.all([
      runCli(['--json', 'src'], forJson!),
      runCli(['src'], forText!),
      runCli(['--format', 'sarif', 'src'], forSarif!),
    ]);
    expect([json.code, text.code, sarif.code]).toEqual([0, 0, 0]);
    const written = await readFile(path.join(forJson!, 'src/server.ts'), 'utf8');
    expect(written).not.toBe(MOVING_LINES);
    const lines = written.split('\n');
    const report = JSON.parse(json.stdout) as PositionedReport;
    for (const s of report.sites.filter(x => x.outcome === 'marked')) {
      // A marked site: its call, on the line below its marker.
      expect(lines[s.line - 2], `${s.line}`).toContain(`// mcp-migrate: ${s.reason}`);
      expect(at(written, s.line, s.column)).toMatch(/^server\.server\.(listRoots\(|oninitialized = )/);
    }
    // A rewritten request: where it stands in the file as written, now asked through the requestState module.
    for (const s of report.sites.filter(x => x.outcome === 'rewritten')) {
      expect(lines[s.line - 1]).toMatch(/ask\(server\.server(, '\w+')?\)\.elicitInput\(\{/);
    }
    expect(lines.filter(l => l.includes("resumable(server).registerTool('delete_")).length).toBe(2);
    for (const l of report.codemodLeftovers) {
      expect(lines[l.line - 2]).toContain('@mcp-codemod-error');
      expect(at(written, l.line, l.column)).toMatch(/^for \(const tool of/);
    }
    for (const u of report.upgrade.filter(u => /wrapped with z\.object/.test(u.message)))
      expect(lines[u.line - 1]).toMatch(/^(resumable\(server\)|server)\.registerTool\(/);

    expect(await readFile(path.join(forText!, 'src/server.ts'), 'utf8')).toBe(written);
    expect(textPlaces(text.stderr)).toEqual(jsonPlaces(report));
    expect(sarifPlaces(JSON.parse(sarif.stdout) as SarifLog)).toEqual(jsonPlaces(report));
  });
});
