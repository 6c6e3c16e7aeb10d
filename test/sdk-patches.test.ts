/**
 * patch-package patches of SDK 1.x stop applying once the server runs on the 2.x packages: each is found
 * where patch-package keeps it, reported as a note with the files it changes, and `--check` fails while one
 * is left. A project whose code stays off the 2.x packages is not told about them.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSdkPatches, runsOnV2Packages, sdkPatchNote } from '../src/sdkPatches.js';
import { assertBuilt, LEGACY_SERVER, makeTree, PLAIN_SOURCE, removeTree, runCli } from './cli-helpers.js';

/** A patch as patch-package writes it: one `diff --git` per file of the package it changes. */
function patchOf(pkg: string, files: string[]): string {
  return files
    .map(
      f =>
        `diff --git a/node_modules/${pkg}/${f} b/node_modules/${pkg}/${f}\nindex 1111111..2222222 100644\n--- a/node_modules/${pkg}/${f}\n+++ b/node_modules/${pkg}/${f}\n@@ -1,1 +1,1 @@\n-const limit = 10;\n+const limit = 100;\n`,
    )
    .join('');
}

const SDK_PATCH = patchOf('@modelcontextprotocol/sdk', ['dist/esm/server/index.js', 'dist/cjs/server/index.js']);
const PACKAGE_JSON = `${JSON.stringify({ name: 'patched', version: '1.0.0', type: 'module', scripts: { postinstall: 'patch-package' }, dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.2.0' }, devDependencies: { 'patch-package': '^8.0.0' } }, null, 2)}\n`;

const trees: string[] = [];
beforeAll(assertBuilt);
afterAll(async () => {
  await Promise.all(trees.map(removeTree));
});
async function tree(files: Record<string, string>): Promise<string> {
  const root = await makeTree(files);
  trees.push(root);
  return root;
}

describe('findSdkPatches', () => {
  it("finds the SDK 1.x patches in patches/ with the files each changes, and no other package's", async () => {
    const root = await tree({
      'package.json': PACKAGE_JSON,
      'package-lock.json': '{}\n',
      'patches/@modelcontextprotocol+sdk+1.17.0.patch': SDK_PATCH,
      'patches/@modelcontextprotocol+sdk+1.17.0+001+second-fix.patch': patchOf('@modelcontextprotocol/sdk', [
        'dist/esm/shared/protocol.js',
      ]),
      'patches/@modelcontextprotocol+server+2.4.0.patch': patchOf('@modelcontextprotocol/server', ['dist/index.mjs']),
      'patches/lodash+4.17.21.patch': patchOf('lodash', ['lodash.js']),
      'src/server.ts': LEGACY_SERVER,
    });
    const found = findSdkPatches([path.join(root, 'src')]);
    expect(found.map(p => [path.relative(root, p.file), p.version, p.touches])).toEqual([
      ['patches/@modelcontextprotocol+sdk+1.17.0+001+second-fix.patch', '1.17.0', ['dist/esm/shared/protocol.js']],
      ['patches/@modelcontextprotocol+sdk+1.17.0.patch', '1.17.0', ['dist/esm/server/index.js', 'dist/cjs/server/index.js']],
    ]);
    const note = sdkPatchNote(found[1]!, f => path.relative(root, f));
    expect(note).toMatch(
      /^patches\/@modelcontextprotocol\+sdk\+1\.17\.0\.patch \(patch-package\) changes dist\/esm\/server\/index\.js, dist\/cjs\/server\/index\.js of @modelcontextprotocol\/sdk 1\.17\.0; .*no longer takes effect: .*then delete this patch$/,
    );
  });

  it('in a workspace: the patches beside the lockfile above the server package, and a --patch-dir a script names', async () => {
    const root = await tree({
      'package.json': JSON.stringify({
        name: 'workspace',
        private: true,
        workspaces: ['packages/*'],
        scripts: { postinstall: 'patch-package --patch-dir tools/patches' },
      }),
      'package-lock.json': '{}\n',
      'tools/patches/@modelcontextprotocol+sdk+1.20.1.patch': SDK_PATCH,
      'packages/server/package.json': PACKAGE_JSON,
      'packages/server/src/server.ts': LEGACY_SERVER,
    });
    const found = findSdkPatches([path.join(root, 'packages/server/src')]);
    expect(found.map(p => path.relative(root, p.file))).toEqual(['tools/patches/@modelcontextprotocol+sdk+1.20.1.patch']);
    // Above where the install runs from (the lockfile's directory), nothing is looked at.
    const outer = await tree({
      'patches/@modelcontextprotocol+sdk+1.0.0.patch': SDK_PATCH,
      'inner/package-lock.json': '{}\n',
      'inner/src/server.ts': LEGACY_SERVER,
    });
    expect(findSdkPatches([path.join(outer, 'inner/src')])).toEqual([]);
  });

  it('runsOnV2Packages: an import or require of a 2.x package', () => {
    expect(runsOnV2Packages(["import { McpServer } from '@modelcontextprotocol/server';"])).toBe(true);
    expect(runsOnV2Packages(['const { serveStdio } = require("@modelcontextprotocol/server/stdio");'])).toBe(true);
    expect(runsOnV2Packages(["import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';", PLAIN_SOURCE])).toBe(false);
  });
});

describe('a project with a patch of SDK 1.x, migrated', { timeout: 600_000 }, () => {
  const PROJECT = {
    'package.json': PACKAGE_JSON,
    'patches/@modelcontextprotocol+sdk+1.17.0.patch': SDK_PATCH,
    'src/server.ts': LEGACY_SERVER,
  };

  it('--dry-run: a note names the patch and what it changes; --check fails on it, in the text and the JSON report', async () => {
    const root = await tree(PROJECT);
    const dry = await runCli(['--dry-run', 'src'], root);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(
      / {2}- patches\/@modelcontextprotocol\+sdk\+1\.17\.0\.patch \(patch-package\) changes dist\/esm\/server\/index\.js, dist\/cjs\/server\/index\.js of @modelcontextprotocol\/sdk 1\.17\.0/,
    );
    const check = await runCli(['--check', '--json', 'src'], root);
    expect(check.code, check.stderr).toBe(1);
    const report = JSON.parse(check.stdout);
    expect(report.summary.sdkPatches).toBe(1);
    expect(report.sdkPatches).toEqual([
      {
        file: 'patches/@modelcontextprotocol+sdk+1.17.0.patch',
        version: '1.17.0',
        touches: ['dist/esm/server/index.js', 'dist/cjs/server/index.js'],
      },
    ]);
    expect(check.stderr).toMatch(/check failed: .*1 patch of @modelcontextprotocol\/sdk that no longer applies/);
  });

  it('migrated and written, --check still fails while the patch is there, and passes once it is deleted', async () => {
    const root = await tree(PROJECT);
    expect((await runCli(['src'], root)).code).toBe(0);
    const check = await runCli(['--check', 'src'], root);
    expect(check.code, check.stderr).toBe(1);
    expect(check.stderr).toMatch(/check failed: 1 patch of @modelcontextprotocol\/sdk that no longer applies$/m);
    await rm(path.join(root, 'patches'), { recursive: true });
    const clean = await runCli(['--check', 'src'], root);
    expect(clean.code, clean.stderr).toBe(0);
  });

  it('code that does not run on the 2.x packages after the run: no note, --check unaffected', async () => {
    const root = await tree({
      'package.json': PACKAGE_JSON,
      'patches/@modelcontextprotocol+sdk+1.17.0.patch': SDK_PATCH,
      'src/plain.ts': PLAIN_SOURCE,
    });
    await mkdir(path.join(root, 'src', 'more'), { recursive: true });
    await writeFile(path.join(root, 'src', 'more', 'also.ts'), PLAIN_SOURCE);
    const check = await runCli(['--check', '--json', 'src'], root);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).sdkPatches).toEqual([]);
  });
});
