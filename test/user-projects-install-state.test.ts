/**
 * The same project gives the same migration whatever it has installed: SDK 1.x only (its lockfile, the
 * normal state before migrating), SDK 2.x only, both, or nothing yet. Each state is laid out in turn at
 * the same path under the temp directory, committed, and migrated by one CLI run; the report (stdout),
 * the exit status and every file the run leaves must be byte-identical across the four.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { check, type Known } from './support/expectations.js';
import {
  commitAll,
  copyInstalled,
  copySources,
  isolatedDir,
  npm,
  REPO_ROOT,
  runCli,
  treeDigest,
  type CliRun,
} from './support/userProject.js';

const STATES = ['SDK 1.x only', 'SDK 2.x only', 'both', 'nothing installed'] as const;
type State = (typeof STATES)[number];

interface Migration {
  cli: CliRun;
  tree: Record<string, string>;
}

const PROJECTS: { name: string; known?: Known }[] = [
  // A server held in a class and reached through a getter and this.ensureServer(): found only through types.
  { name: 'holder-getter' },
  // A helper using node:fs and node:path inlined into a file importing readFileSync: Node's types matter too.
  { name: 'cross-file-builtins' },
];

/** Installs each state's node_modules once, in a staging directory of its own. */
async function stage(base: string, source: string): Promise<Record<State, string | undefined>> {
  const v1 = path.join(base, 'stage-v1');
  copySources(source, v1);
  const ci = await npm(v1, ['ci']);
  if (ci.status !== 0) throw new Error(`npm ci: ${ci.stderr}`);
  const both = path.join(base, 'stage-both');
  await copyInstalled(v1, both);
  const add = await npm(both, ['install', '--no-save', '@modelcontextprotocol/server@^2.4.0']);
  if (add.status !== 0) throw new Error(`npm install (both): ${add.stderr}`);
  // 2.x only: what the migrated package.json asks for, and the same development tools.
  const v2 = path.join(base, 'stage-v2');
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  fs.mkdirSync(v2);
  fs.writeFileSync(
    path.join(v2, 'package.json'),
    JSON.stringify({
      name: 'stage',
      private: true,
      type: 'module',
      dependencies: { '@modelcontextprotocol/server': '^2.4.0', zod: '^4.2.0' },
      devDependencies: manifest.devDependencies,
    }),
  );
  const only2 = await npm(v2, ['install']);
  if (only2.status !== 0) throw new Error(`npm install (2.x only): ${only2.stderr}`);
  return { 'SDK 1.x only': v1, 'SDK 2.x only': v2, both, 'nothing installed': undefined };
}

for (const project of PROJECTS) {
  describe(`install state: ${project.name}`, () => {
    const source = path.join(REPO_ROOT, 'test', 'user-projects', project.name);
    let base: string;
    const results = new Map<State, Migration>();

    beforeAll(async () => {
      base = isolatedDir(`state-${project.name}`);
      const stages = await stage(base, source);
      const dir = path.join(base, 'project');
      for (const state of STATES) {
        fs.rmSync(dir, { recursive: true, force: true });
        copySources(source, dir);
        const installed = stages[state];
        if (installed) await copyInstalled(path.join(installed, 'node_modules'), path.join(dir, 'node_modules'));
        await commitAll(dir, 'original');
        const cli = await runCli(dir, ['.', '--json']);
        results.set(state, { cli, tree: treeDigest(dir) });
      }
    }, 1_200_000);
    afterAll(() => {
      if (base) fs.rmSync(base, { recursive: true, force: true });
    });

    check(
      'the report, exit status and written files are byte-identical with SDK 1.x, 2.x, both or nothing installed',
      project.known,
      () => {
        const sites = STATES.map(s => `${s}: ${results.get(s)!.cli.report?.sites.length ?? 'no report'}`);
        const first = results.get(STATES[0])!;
        expect(first.cli.report, first.cli.stderr).toBeDefined();
        const counts = new Set(STATES.map(s => results.get(s)!.cli.report?.sites.length));
        expect(counts.size, `sites found differ (${sites.join(', ')})`).toBe(1);
        for (const state of STATES.slice(1)) {
          const other = results.get(state)!;
          expect(other.cli.stdout, `report differs between ${STATES[0]} and ${state} (sites: ${sites.join(', ')})`).toBe(first.cli.stdout);
          expect(other.cli.status, `exit status differs between ${STATES[0]} and ${state}`).toBe(first.cli.status);
          const files = [...new Set([...Object.keys(first.tree), ...Object.keys(other.tree)])].filter(f => first.tree[f] !== other.tree[f]);
          expect(files, `written files differ between ${STATES[0]} and ${state}: ${files.join(', ')}`).toEqual([]);
        }
      },
    );
  });
}
