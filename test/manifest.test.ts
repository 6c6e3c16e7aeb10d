/**
 * package.json edits (src/manifest.ts): which manifest, which packages, and formatting kept byte for byte
 * outside the edited dependency object.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editSection, importedMcpPackages, owningManifest, planManifestChanges } from '../src/manifest.js';
import { migrateSources } from '../src/pipeline.js';

const root = path.resolve(import.meta.dirname, '..');

describe('editSection', () => {
  it('replaces the SDK in place in a sorted two-space object and keeps the rest byte for byte', () => {
    const before =
      '{\n  "name": "x",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.2.0",\n    "zod": "^4.2.0"\n  },\n  "files": ["dist"]\n}\n';
    const added = editSection(before, 'dependencies', { add: { '@modelcontextprotocol/server': '^2.4.0' } });
    const after = editSection(added, 'dependencies', { remove: ['@modelcontextprotocol/sdk'] });
    expect(after).toBe(
      '{\n  "name": "x",\n  "dependencies": {\n    "@modelcontextprotocol/server": "^2.4.0",\n    "zod": "^4.2.0"\n  },\n  "files": ["dist"]\n}\n',
    );
  });

  it('keeps tabs, CRLF and a missing final newline', () => {
    const before = '{\r\n\t"dependencies": {\r\n\t\t"a": "1"\r\n\t}\r\n}';
    expect(editSection(before, 'dependencies', { add: { b: '2' } })).toBe(
      '{\r\n\t"dependencies": {\r\n\t\t"a": "1",\r\n\t\t"b": "2"\r\n\t}\r\n}',
    );
  });

  it('appends to an unsorted object instead of sorting it', () => {
    const before = '{\n  "dependencies": {\n    "zod": "^4",\n    "express": "^5"\n  }\n}\n';
    expect(editSection(before, 'dependencies', { add: { '@modelcontextprotocol/server': '^2.4.0' } })).toBe(
      '{\n  "dependencies": {\n    "zod": "^4",\n    "express": "^5",\n    "@modelcontextprotocol/server": "^2.4.0"\n  }\n}\n',
    );
  });

  it('keeps a one-line object on one line and does not touch a same-named key nested elsewhere', () => {
    const before = '{\n  "overrides": { "dependencies": { "a": "1" } },\n  "dependencies": { "a": "1" }\n}\n';
    expect(editSection(before, 'dependencies', { add: { b: '2' } })).toBe(
      '{\n  "overrides": { "dependencies": { "a": "1" } },\n  "dependencies": { "a": "1", "b": "2" }\n}\n',
    );
  });

  it('creates a missing section at the end, and leaves the text alone when there is nothing to do', () => {
    const before = '{\n    "name": "x"\n}\n';
    expect(editSection(before, 'dependencies', { add: { a: '1' } })).toBe(
      '{\n    "name": "x",\n    "dependencies": {\n        "a": "1"\n    }\n}\n',
    );
    expect(editSection(before, 'dependencies', { remove: ['a'] })).toBe(before);
  });
});

describe('importedMcpPackages', () => {
  it('sees static, type-only, dynamic imports, re-exports and require, not comments or strings', () => {
    const text = [
      "import { McpServer } from '@modelcontextprotocol/server';",
      "import type { X } from '@modelcontextprotocol/core/types';",
      "export * from '@modelcontextprotocol/node';",
      "const c = require('@modelcontextprotocol/client/stdio');",
      "const l = await import('@modelcontextprotocol/sdk/server/mcp.js');",
      "// import { Server } from '@modelcontextprotocol/express';",
      'const s = \'from "@modelcontextprotocol/server-legacy"\';',
    ].join('\n');
    expect([...importedMcpPackages(text)].sort()).toEqual([
      '@modelcontextprotocol/client',
      '@modelcontextprotocol/core',
      '@modelcontextprotocol/node',
      '@modelcontextprotocol/sdk',
      '@modelcontextprotocol/server',
    ]);
  });

  it("sees import('…') types, those of JSDoc too (checked JavaScript resolves them), not other comments", () => {
    const text = [
      "/** @param {import('@modelcontextprotocol/sdk/made/up.js').Thing} thing */",
      'export function f(thing) {}',
      "export type T = import('@modelcontextprotocol/node').NodeStreamableHTTPServerTransport;",
      "// a mention of import('@modelcontextprotocol/express').X",
    ].join('\n');
    expect([...importedMcpPackages(text)].sort()).toEqual(['@modelcontextprotocol/node', '@modelcontextprotocol/sdk']);
  });
});

describe('planManifestChanges', () => {
  const files = new Map<string, string>();
  const readFile = (p: string) => files.get(p) ?? null;
  const pkg = (deps: Record<string, string>, section = 'dependencies') => `${JSON.stringify({ name: 'p', [section]: deps }, null, 2)}\n`;

  it('edits the nearest package.json within the cwd, never one above it, never a lockfile', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1' }));
    files.set('/w/app/package.json', pkg({ '@modelcontextprotocol/sdk': '^1' }));
    files.set('/w/app/package-lock.json', '{}\n');
    const server = { path: '/w/app/src/server.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    expect(owningManifest(server.path, '/w/app/src', p => files.has(p))).toBeUndefined();
    const out = planManifestChanges({ cwd: '/w', files: [server], changed: [server.path], readFile, listSources: () => [] });
    expect(out.changes.map(c => c.path)).toEqual(['/w/app/package.json']);
    expect(JSON.parse(out.changes[0]!.after).dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(out.notes.join('\n')).toMatch(
      /app\/package\.json: added @modelcontextprotocol\/server@\^2\.4\.0 to dependencies; removed @modelcontextprotocol\/sdk from dependencies; run your package manager's install/,
    );
  });

  it('says to add @types/node where a TypeScript requestState module is written and the package declares none', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1' }));
    const server = { path: '/w/src/server.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    const state = { path: '/w/src/mcp-migrate-state.ts', text: "import { inputRequired } from '@modelcontextprotocol/server';\n" };
    const plan = (withTypes: boolean) => {
      if (withTypes)
        files.set(
          '/w/package.json',
          `${JSON.stringify({ dependencies: { '@modelcontextprotocol/sdk': '^1' }, devDependencies: { '@types/node': '^20' } })}\n`,
        );
      return planManifestChanges({ cwd: '/w', files: [server, state], changed: [server.path, state.path], readFile, listSources: () => [] })
        .notes;
    };
    expect(plan(false)).toContainEqual(
      expect.stringMatching(
        /^package\.json: the requestState module uses Node's crypto, process and Buffer, and the package declares no @types\/node: add it to devDependencies/,
      ),
    );
    expect(plan(true).join('\n')).not.toMatch(/@types\/node/);
  });

  it("moves a library's peer and dev dependencies on the SDK both, and says where", () => {
    files.clear();
    files.set(
      '/w/package.json',
      `${JSON.stringify({ name: 'lib', peerDependencies: { '@modelcontextprotocol/sdk': '>=1.20' }, devDependencies: { '@modelcontextprotocol/sdk': '^1.25.0' } }, null, 2)}\n`,
    );
    const migrated = { path: '/w/src/a.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    const out = planManifestChanges({ cwd: '/w', files: [migrated], changed: [migrated.path], readFile, listSources: () => [] });
    const json = JSON.parse(out.changes[0]!.after);
    expect(json.peerDependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(json.devDependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(out.notes[0]).toBe(
      "package.json: added @modelcontextprotocol/server@^2.4.0 to devDependencies and peerDependencies; removed @modelcontextprotocol/sdk from devDependencies and peerDependencies; run your package manager's install to update the lockfile",
    );
  });

  it('adds every 2.x package the output imports (the Express adapter, the legacy package), and names one it has no version for', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1' }));
    const text = [
      "import { createMcpExpressApp } from '@modelcontextprotocol/express';",
      "import { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';",
      "import { x } from '@modelcontextprotocol/made-up';",
    ].join('\n');
    const migrated = { path: '/w/src/a.ts', text };
    const out = planManifestChanges({ cwd: '/w', files: [migrated], changed: [migrated.path], readFile, listSources: () => [] });
    expect(JSON.parse(out.changes[0]!.after).dependencies).toEqual({
      '@modelcontextprotocol/express': '^2.0.2',
      '@modelcontextprotocol/server-legacy': '^2.3.1',
    });
    expect(out.notes).toContain(
      'package.json: the code imports @modelcontextprotocol/made-up, which mcp-migrate has no version for: add it to package.json',
    );
  });

  it('keeps the SDK while another file of the package (in the run or only on disk) still imports it', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1' }));
    files.set('/w/test/old.test.ts', "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n");
    const migrated = { path: '/w/src/a.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    const out = planManifestChanges({
      cwd: '/w',
      files: [migrated],
      changed: [migrated.path],
      readFile,
      listSources: () => ['/w/test/old.test.ts'],
    });
    expect(JSON.parse(out.changes[0]!.after).dependencies).toEqual({
      '@modelcontextprotocol/sdk': '^1',
      '@modelcontextprotocol/server': '^2.4.0',
    });
    // a file in a nested package does not count for the outer one
    files.set('/w/test/package.json', pkg({}));
    const nested = planManifestChanges({
      cwd: '/w',
      files: [migrated],
      changed: [migrated.path],
      readFile,
      listSources: () => ['/w/test/old.test.ts'],
    });
    expect(JSON.parse(nested.changes[0]!.after).dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
  });

  it('adds the client when client code imports it, keeps devDependencies as the section, and raises zod 3 to the 4 SDK 2.x needs', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1', zod: '^3.25.0' }, 'devDependencies'));
    const a = {
      path: '/w/a.ts',
      text: "import { McpServer } from '@modelcontextprotocol/server';\nimport { Client } from '@modelcontextprotocol/client';\n",
    };
    const out = planManifestChanges({ cwd: '/w', files: [a], changed: [a.path], readFile, listSources: () => [] });
    const json = JSON.parse(out.changes[0]!.after);
    expect(json.dependencies).toBeUndefined();
    expect(json.devDependencies).toEqual({
      '@modelcontextprotocol/client': '^2.4.0',
      '@modelcontextprotocol/server': '^2.4.0',
      zod: '^4.2.0',
    });
    expect(out.notes.join('\n')).toMatch(/zod "\^3\.25\.0" raised to "\^4\.2\.0" in devDependencies/);
    expect(out.zodToRaise).toEqual(['/w/package.json']);
  });

  it('leaves zod 3 where a dependency declares it as its peer, and names that dependency in the note', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1', 'zod-helpers': '^1.0.0', zod: '^3.25.0' }));
    files.set('/w/node_modules/zod-helpers/package.json', JSON.stringify({ name: 'zod-helpers', peerDependencies: { zod: '^3.20.0' } }));
    const a = { path: '/w/a.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    const out = planManifestChanges({ cwd: '/w', files: [a], changed: [a.path], readFile, listSources: () => [] });
    expect(JSON.parse(out.changes[0]!.after).dependencies.zod).toBe('^3.25.0');
    expect(out.notes.join('\n')).toMatch(
      /zod "\^3\.25\.0" stays on 3\.x: zod-helpers declares zod 3 as a peer dependency; but @modelcontextprotocol\/server 2\.x needs zod >= 4\.2; raise it/,
    );
  });

  // A workspace's packages declare no zod of their own and import the root's, which npm hoists: that zod 3 would
  // stay, and SDK 2.x refuses the schemas it makes.
  it("raises the zod a workspace's root declares where a package moving to SDK 2.x imports it and declares none", () => {
    files.clear();
    files.set(
      '/w/package.json',
      JSON.stringify({ name: 'w', private: true, workspaces: ['packages/*'], dependencies: { zod: '^3.25.0' } }),
    );
    files.set('/w/packages/core/package.json', pkg({ '@modelcontextprotocol/sdk': '^1' }));
    files.set('/w/packages/docs/package.json', pkg({ '@modelcontextprotocol/sdk': '^1' }));
    const core = {
      path: '/w/packages/core/a.ts',
      text: "import { McpServer } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\n",
    };
    // Moves to SDK 2.x too, but imports no zod: the root's is not its concern.
    const docs = { path: '/w/packages/docs/b.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    const out = planManifestChanges({ cwd: '/w', files: [core, docs], changed: [core.path, docs.path], readFile, listSources: () => [] });
    const rootChange = out.changes.find(c => c.path === '/w/package.json');
    expect(JSON.parse(rootChange!.after).dependencies).toEqual({ zod: '^4.2.0' });
    expect(out.notes).toContain(
      'package.json: zod "^3.25.0" raised to "^4.2.0" in dependencies: @modelcontextprotocol/server 2.x needs zod >= 4.2 (the zod 3 calls zod 4 reads otherwise were repaired, or marked where they could not be); packages/core/package.json declares no zod and uses this one',
    );
    expect(out.notes).toContain("package.json: run your package manager's install to update the lockfile");
    expect(out.zodToRaise.sort()).toEqual(['/w/package.json', '/w/packages/core/package.json']);
    // A root that moves to SDK 2.x itself raises its zod once, with one note.
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1', zod: '^3.25.0' }));
    const main = { path: '/w/main.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    const both = planManifestChanges({ cwd: '/w', files: [main, core], changed: [main.path, core.path], readFile, listSources: () => [] });
    expect(JSON.parse(both.changes.find(c => c.path === '/w/package.json')!.after).dependencies.zod).toBe('^4.2.0');
    expect(both.notes.filter(n => n.startsWith('package.json: zod'))).toHaveLength(1);
    expect(both.zodToRaise.sort()).toEqual(['/w/package.json', '/w/packages/core/package.json']);
    // Above the run's root, it is never edited.
    const inner = planManifestChanges({ cwd: '/w/packages', files: [core], changed: [core.path], readFile, listSources: () => [] });
    expect(inner.changes.map(c => c.path)).toEqual(['/w/packages/core/package.json']);
  });

  it("keeps the SDK of a package whose code imports no MCP package (only markers changed it): it is a framework's peer", () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1.29.0', 'mcp-framework': '^0.2.22', zod: '^3.25.76' }));
    const tool = { path: '/w/src/tool.ts', text: "import { MCPTool } from 'mcp-framework';\n// mcp-migrate: a marker\n" };
    expect(planManifestChanges({ cwd: '/w', files: [tool], changed: [tool.path], readFile, listSources: () => [] })).toEqual({
      changes: [],
      notes: [],
      zodToRaise: [],
      unowned: [],
    });
  });

  it('keeps the SDK beside the 2.x packages while a dependency declares it as a peer, and says which', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/sdk': '^1.29.0', 'mcp-framework': '^0.2.22' }));
    files.set(
      '/node_modules/mcp-framework/package.json',
      JSON.stringify({ name: 'mcp-framework', peerDependencies: { '@modelcontextprotocol/sdk': '^1.29.0' } }),
    );
    const migrated = { path: '/w/src/a.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    const out = planManifestChanges({ cwd: '/w', files: [migrated], changed: [migrated.path], readFile, listSources: () => [] });
    expect(JSON.parse(out.changes[0]!.after).dependencies).toEqual({
      '@modelcontextprotocol/sdk': '^1.29.0',
      '@modelcontextprotocol/server': '^2.4.0',
      'mcp-framework': '^0.2.22',
    });
    expect(out.notes).toContain('package.json: @modelcontextprotocol/sdk stays: mcp-framework declares it as a peer dependency');
  });

  it('leaves a package whose files changed but already declares what they import', () => {
    files.clear();
    files.set('/w/package.json', pkg({ '@modelcontextprotocol/server': '^2.4.0' }));
    const a = { path: '/w/a.ts', text: "import { McpServer } from '@modelcontextprotocol/server';\n" };
    expect(planManifestChanges({ cwd: '/w', files: [a], changed: [a.path], readFile, listSources: () => [] })).toEqual({
      changes: [],
      notes: [],
      zodToRaise: [],
      unowned: [],
    });
  });
});

describe('migrateSources and the package.json', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-manifest-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('returns the package.json edit as a FileChange beside the rewritten sources, with an install note', async () => {
    const manifest =
      '{\n  "name": "legacy",\n  "type": "module",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2",\n    "zod": "^4.2.0"\n  }\n}\n';
    fs.writeFileSync(path.join(dir, 'package.json'), manifest);
    fs.writeFileSync(path.join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
    const file = path.join(dir, 'src', 'server.ts');
    const text = fs.readFileSync(path.join(root, 'examples', 'legacy-server', 'src', 'server.ts'), 'utf8');
    const result = await migrateSources([{ path: file, text }], { cwd: dir });
    const change = result.changes.find(c => c.path === path.join(dir, 'package.json'));
    expect(change?.before).toBe(manifest);
    expect(change?.after).toBe(manifest.replace('"@modelcontextprotocol/sdk": "^1.32.2"', '"@modelcontextprotocol/server": "^2.4.0"'));
    expect(result.changes.some(c => c.path.endsWith('package-lock.json'))).toBe(false);
    expect(
      result.report.notes.some(n =>
        /package\.json: added @modelcontextprotocol\/server@\^2\.4\.0 to dependencies; removed @modelcontextprotocol\/sdk from dependencies; run your package manager's install/.test(
          n,
        ),
      ),
    ).toBe(true);
    expect(result.report.notes.some(n => /add it to package\.json and install/.test(n))).toBe(false);
  });

  it('asks for the server package only where no package.json owns the migrated code, not where one declares it already', async () => {
    const text = fs.readFileSync(path.join(root, 'examples', 'legacy-server', 'src', 'server.ts'), 'utf8');
    const declared = path.join(dir, 'declared');
    fs.mkdirSync(path.join(declared, 'src'), { recursive: true });
    const manifest = JSON.stringify({
      name: 'declared',
      type: 'module',
      dependencies: { '@modelcontextprotocol/server': '^2.4.0', zod: '^4.2.0' },
    });
    fs.writeFileSync(path.join(declared, 'package.json'), manifest);
    const owned = await migrateSources([{ path: path.join(declared, 'src', 'server.ts'), text }], { cwd: declared });
    expect(owned.changes.some(c => c.path.endsWith('package.json'))).toBe(false);
    expect(owned.report.notes.filter(n => /add it to package\.json/.test(n))).toEqual([]);

    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-no-manifest-'));
    try {
      const unowned = await migrateSources([{ path: path.join(bare, 'server.ts'), text }], { cwd: bare });
      expect(unowned.report.notes).toContain(
        'the migrated code imports @modelcontextprotocol/server 2.x: add it to package.json and install',
      );
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});
