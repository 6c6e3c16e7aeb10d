/**
 * `--shard i/n` through the built CLI: shards 1..n of a tree are disjoint, together they are exactly the
 * unsharded run's files, the split does not change between runs, and a malformed shard is a usage error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseShard, shardOf } from '../src/files.js';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { assertBuilt, LEGACY_SERVER, makeTree, REPO, removeTree, runCli } from './cli-helpers.js';

let root: string;

beforeAll(async () => {
  assertBuilt();
  const files: Record<string, string> = { '.gitignore': 'ignored/\n', 'ignored/skip.ts': 'export const skip = 1;\n' };
  for (let i = 0; i < 60; i++) {
    const dir = ['src', 'src/lib', 'packages/a/src', 'packages/b/src/deep', 'tools'][i % 5];
    const ext = ['.ts', '.mts', '.js', '.tsx', '.cjs'][i % 5];
    files[`${dir}/file-${i}${ext}`] =
      i % 7 === 0
        ? `export class Chat${i} { async createMessage(t: string) { return t; } }\n` // passes the text pre-filter
        : `export const value${i} = ${i};\n`;
  }
  files['src/ünïcode name.ts'] = 'export const u = 1;\n';
  root = await makeTree(files);
});

afterAll(async () => {
  await removeTree(root);
});

async function filesOf(args: string[]): Promise<string[]> {
  const r = await runCli(['--dry-run', '--json', ...args, '.'], root);
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout) as { files: { file: string }[]; summary: { filesScanned: number } };
  expect(report.summary.filesScanned).toBe(report.files.length);
  return report.files.map(f => f.file);
}

describe('--shard i/n', () => {
  it('splits the files into disjoint shards whose union is the unsharded set', async () => {
    const all = await filesOf([]);
    expect(all).toHaveLength(61);
    expect(all).not.toContain('ignored/skip.ts');
    for (const n of [1, 3, 7]) {
      const shards = await Promise.all(Array.from({ length: n }, (_, i) => filesOf(['--shard', `${i + 1}/${n}`])));
      const union = shards.flat();
      expect(new Set(union).size).toBe(union.length); // disjoint
      expect([...union].sort()).toEqual([...all].sort()); // complete
      if (n === 3) for (const s of shards) expect(s.length).toBeGreaterThan(0);
    }
  });

  it('puts each file in the shard its path hashes to, the same on every run', async () => {
    const first = await filesOf(['--shard', '2/3']);
    const again = await filesOf(['--shard', '2/3']);
    expect(again).toEqual(first);
    for (const f of first) expect(shardOf(f, 3)).toBe(2);
  });

  it('places the requestState module where the unsharded run does, in every shard', async () => {
    // Servers in two packages: a shard that holds only one of them must not put the module beside it.
    const files: Record<string, string> = {};
    for (let i = 0; i < 8; i++) files[`packages/${i % 2 === 0 ? 'a' : 'b'}/src/server-${i}.ts`] = LEGACY_SERVER;
    const tree = await makeTree(files);
    await symlink(path.join(REPO, 'node_modules'), path.join(tree, 'node_modules'));
    try {
      const created = async (args: string[]) => {
        const r = await runCli(['--dry-run', '--json', ...args, 'packages'], tree);
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(r.stdout) as { created: string[] }).created;
      };
      const whole = await created([]);
      expect(whole).toEqual(['packages/mcp-migrate-state.ts', 'packages/mcp-migrate-state-seal.ts']);
      const shards = await Promise.all([1, 2, 3].map(i => created(['--shard', `${i}/3`])));
      // every shard that has servers names the same place; one with none creates nothing
      for (const c of shards) expect(c.length === 0 || c.join() === whole.join()).toBe(true);
      expect(shards.filter(c => c.length > 0).length).toBeGreaterThan(1);
    } finally {
      await removeTree(tree);
    }
  }, 600_000);

  it('refuses a malformed shard with a usage error', async () => {
    for (const bad of ['0/3', '4/3', '1/0', 'two/3', '1-3']) {
      const r = await runCli(['--dry-run', '--shard', bad, '.'], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--shard takes i\/n/);
    }
  });
});

describe('parseShard', () => {
  it('reads i/n and rejects the rest', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    for (const bad of ['', '1', '1/', '/2', '3/2', '0/1', '-1/2', '1.5/2']) expect(parseShard(bad)).toBeUndefined();
  });
});
