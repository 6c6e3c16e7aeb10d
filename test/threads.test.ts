/**
 * The analysis across threads (`--jobs`): groups closed under the imports between candidates
 * (src/partition.ts), and through the built CLI the same report and the same diff as one thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { partitionCandidates } from '../src/partition.js';
import { assertBuilt, LEGACY_SERVER, makeTree, PLAIN_SOURCE, removeTree, REPO, runCli } from './cli-helpers.js';

const SERVER_MODULE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server = new McpServer({ name: 'shared', version: '1.0.0' });
`;

/** Registers on a server built in another file, reached by a relative import or by package name. */
const toolsOn = (from: string, tool: string) => `import { server } from '${from}';

server.registerTool('${tool}', { description: 'Asks the model' }, async () => {
  const reply = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
    maxTokens: 20,
  });
  return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : 'no text' }] };
});
`;

const TREE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'monorepo', private: true, workspaces: ['packages/*'] }, null, 2) + '\n',
  'packages/a/package.json':
    JSON.stringify({ name: '@acme/a', types: 'src/index.ts', dependencies: { '@modelcontextprotocol/sdk': '^1.20.0' } }, null, 2) + '\n',
  'packages/a/src/server.ts': SERVER_MODULE,
  'packages/a/src/index.ts': `export { server } from './server.js';\n`,
  'packages/a/src/tools.ts': toolsOn('./server.js', 'ask-a'),
  'packages/b/package.json': JSON.stringify({ name: '@acme/b', dependencies: { '@modelcontextprotocol/sdk': '^1.20.0' } }, null, 2) + '\n',
  'packages/c/package.json': JSON.stringify({ name: '@acme/c', dependencies: { '@acme/a': '*' } }, null, 2) + '\n',
  'packages/c/src/more-tools.ts': toolsOn('@acme/a', 'ask-c'),
};
for (let i = 0; i < 4; i++) TREE[`packages/b/src/greet-${i}.ts`] = LEGACY_SERVER.replace("name: 'legacy'", `name: 'legacy-${i}'`);
for (let i = 0; i < 12; i++) TREE[`packages/${'abc'[i % 3]}/src/plain-${i}.ts`] = PLAIN_SOURCE;

describe('partitionCandidates', () => {
  const root = '/repo';
  const file = (rel: string) => ({ path: path.join(root, rel), text: TREE[rel]! });
  const candidates = Object.keys(TREE)
    .filter(p => p.endsWith('.ts') && !p.includes('plain'))
    .map(file);

  it('keeps files that import one another in one group and spreads the rest, within the count', () => {
    const groups = partitionCandidates(candidates, 3);
    expect(groups).toHaveLength(3);
    expect(
      groups
        .flat()
        .map(f => f.path)
        .sort(),
    ).toEqual(candidates.map(f => f.path).sort());
    const groupOf = (rel: string) => groups.findIndex(g => g.some(f => f.path === path.join(root, rel)));
    // Relative imports: server.ts, index.ts (re-export) and tools.ts.
    expect(groupOf('packages/a/src/tools.ts')).toBe(groupOf('packages/a/src/server.ts'));
    expect(groupOf('packages/a/src/index.ts')).toBe(groupOf('packages/a/src/server.ts'));
    // Package names resolve through package.json files on disk, which /repo does not have; see the CLI test below.
    for (const g of groups) expect(g.length).toBeGreaterThan(0);
  });

  it('is deterministic and never makes more groups than asked or than there are parts', () => {
    expect(partitionCandidates(candidates, 3)).toEqual(partitionCandidates([...candidates], 3));
    expect(partitionCandidates(candidates, 1)).toHaveLength(1);
    expect(partitionCandidates(candidates, 64).length).toBeLessThanOrEqual(candidates.length);
    expect(partitionCandidates([], 4)).toEqual([]);
  });
});

describe('--jobs', () => {
  let root: string;
  beforeAll(async () => {
    assertBuilt();
    root = await makeTree(TREE);
    // Servers reached across files are known by their types: the SDK must resolve, and the workspace
    // package by its name, as in a real install.
    await mkdir(path.join(root, 'node_modules', '@acme'), { recursive: true });
    for (const entry of await readdir(path.join(REPO, 'node_modules'))) {
      await symlink(path.join(REPO, 'node_modules', entry), path.join(root, 'node_modules', entry), 'dir');
    }
    await symlink(path.join(root, 'packages', 'a'), path.join(root, 'node_modules', '@acme', 'a'), 'dir');
  });
  afterAll(async () => {
    await removeTree(root);
  });

  it('joins a file to the workspace package it imports by name', async () => {
    const { readFileSync } = await import('node:fs');
    const read = (rel: string) => ({ path: path.join(root, rel), text: readFileSync(path.join(root, rel), 'utf8') });
    const groups = partitionCandidates(
      ['packages/a/src/server.ts', 'packages/c/src/more-tools.ts', 'packages/b/src/greet-0.ts'].map(read),
      3,
    );
    expect(groups).toHaveLength(2);
    expect(
      groups
        .find(g => g.length === 2)!
        .map(f => path.relative(root, f.path))
        .sort(),
    ).toEqual(['packages/a/src/server.ts', 'packages/c/src/more-tools.ts']);
  });

  it('gives the same report and the same diff in three threads as in one, with no thread failing', async () => {
    const [oneJson, threeJson, oneDiff, threeDiff] = await Promise.all([
      runCli(['--dry-run', '--json', '--jobs', '1', '.'], root),
      runCli(['--dry-run', '--json', '--jobs', '3', '.'], root),
      runCli(['--dry-run', '--no-color', '-j', '1', '.'], root),
      runCli(['--dry-run', '--no-color', '-j', '3', '.'], root),
    ]);
    for (const r of [oneJson, threeJson, oneDiff, threeDiff]) expect(r.code, r.stderr).toBe(0);
    expect(threeJson.stdout).toBe(oneJson.stdout);
    expect(threeDiff.stdout).toBe(oneDiff.stdout);
    const report = JSON.parse(threeJson.stdout) as { sites: { file: string; outcome: string }[]; notes: string[]; created: string[] };
    expect(report.notes.filter(n => /analysis thread failed/.test(n))).toEqual([]);
    const rewritten = new Set(report.sites.filter(s => s.outcome === 'rewritten').map(s => s.file));
    expect([...rewritten].sort()).toEqual([
      'packages/a/src/tools.ts',
      ...[0, 1, 2, 3].map(i => `packages/b/src/greet-${i}.ts`),
      'packages/c/src/more-tools.ts',
    ]);
    // One requestState module (with its seal) per workspace package with a migrated handler.
    expect(report.created.map(f => f.split('/').slice(0, 2).join('/')).sort()).toEqual([
      'packages/a',
      'packages/a',
      'packages/b',
      'packages/b',
      'packages/c',
      'packages/c',
    ]);
    for (const file of report.created) expect(file).toMatch(/\/mcp-migrate-state(-seal)?\.[cm]?[jt]s$/);
  });

  it('refuses a --jobs that is not a whole number from 1 to 64', async () => {
    for (const bad of ['0', '2.5', '65', 'many']) {
      const r = await runCli(['--dry-run', '--jobs', bad, '.'], root);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--jobs takes a whole number/);
    }
  });
});
