/**
 * Where the requestState module goes (src/stateModulePlaces.ts): one per package, inside it, in the flavour
 * its handlers can import.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { placeStateModules, stateModuleFor } from '../src/stateModulePlaces.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-places-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const HANDLER = "server.server.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });\n";

describe('the requestState module', () => {
  it('is CommonJS beside the TypeScript one for a .cjs handler of a TypeScript package (require() cannot load the other)', () => {
    const dir = project('mixed', {
      'package.json': '{"name":"mixed","type":"module"}',
      'tsconfig.json': '{}',
      'src/server.ts': HANDLER,
      'src/legacy.cjs': HANDLER,
    });
    const files = ['src/server.ts', 'src/legacy.cjs'].map(f => ({ path: path.join(dir, f), text: HANDLER }));
    const modules = placeStateModules(files, dir);
    expect(modules.places.map(p => `${path.relative(dir, p.path)} ${p.flavour}`).sort()).toEqual([
      'src/mcp-migrate-state.cjs cjs',
      'src/mcp-migrate-state.ts ts',
    ]);
    expect(path.relative(dir, stateModuleFor(modules, files[0]!.path).path)).toBe('src/mcp-migrate-state.ts');
    expect(path.relative(dir, stateModuleFor(modules, files[1]!.path).path)).toBe('src/mcp-migrate-state.cjs');
  });

  it('goes into each package of a workspace, never into the directory above them', () => {
    const dir = project('workspace', {
      'package.json': '{"private":true,"workspaces":["packages/*"]}',
      'packages/a/package.json': '{"name":"a"}',
      'packages/a/src/server.ts': HANDLER,
      'packages/b/package.json': '{"name":"b"}',
      'packages/b/src/tools/ask.ts': HANDLER,
      'packages/b/src/tools/other.ts': HANDLER,
    });
    const files = ['packages/a/src/server.ts', 'packages/b/src/tools/ask.ts', 'packages/b/src/tools/other.ts'].map(f => ({
      path: path.join(dir, f),
      text: HANDLER,
    }));
    const modules = placeStateModules(files, dir);
    expect(modules.places.map(p => path.relative(dir, p.path)).sort()).toEqual([
      'packages/a/src/mcp-migrate-state.ts',
      'packages/b/src/tools/mcp-migrate-state.ts',
    ]);
    expect(path.relative(dir, stateModuleFor(modules, files[1]!.path).path)).toBe('packages/b/src/tools/mcp-migrate-state.ts');
  });

  it('is TypeScript in a TypeScript project that has a JavaScript handler too', () => {
    const dir = project('mixed', { 'package.json': '{"type":"module"}', 'tsconfig.json': '{}', 'src/a.ts': HANDLER, 'src/b.js': HANDLER });
    const modules = placeStateModules(
      [
        { path: path.join(dir, 'src/a.ts'), text: HANDLER },
        { path: path.join(dir, 'src/b.js'), text: HANDLER },
      ],
      dir,
    );
    expect(modules.places.map(p => [path.relative(dir, p.path), p.flavour])).toEqual([['src/mcp-migrate-state.ts', 'ts']]);
  });

  it('is an ES module beside JavaScript handlers, CommonJS beside ones that require', () => {
    const esm = project('esm', { 'package.json': '{"type":"module"}', 'src/a.js': HANDLER });
    expect(placeStateModules([{ path: path.join(esm, 'src/a.js'), text: HANDLER }], esm).places[0]).toMatchObject({
      flavour: 'esm',
      exists: false,
    });
    const cjs = project('cjs', { 'package.json': '{}', 'src/a.js': `const x = require('y');\n${HANDLER}` });
    expect(
      placeStateModules([{ path: path.join(cjs, 'src/a.js'), text: `const x = require('y');\n${HANDLER}` }], cjs).places[0]!.path,
    ).toBe(path.join(cjs, 'src', 'mcp-migrate-state.cjs'));
  });

  it('is CommonJS beside a JavaScript handler that only exports as CommonJS does (module.exports, exports.x)', () => {
    for (const exporting of ['module.exports = { confirm };', 'exports.confirm = confirm;', 'module.exports.confirm = confirm;']) {
      const text = `${HANDLER}\n${exporting}\n`;
      const dir = project('cjs-exports', { 'package.json': '{}', 'src/a.js': text });
      expect(placeStateModules([{ path: path.join(dir, 'src/a.js'), text }], dir).places[0]!.flavour, exporting).toBe('cjs');
    }
    for (const notExporting of ['const same = module.exports === x;', 'export const confirm = 1;']) {
      const text = `${HANDLER}\n${notExporting}\n`;
      const dir = project('esm-look-alike', { 'package.json': '{"type":"module"}', 'src/a.js': text });
      expect(placeStateModules([{ path: path.join(dir, 'src/a.js'), text }], dir).places[0]!.flavour, notExporting).toBe('esm');
    }
  });

  it('has its declarations beside it when it is JavaScript in a package TypeScript checks', () => {
    const plain = project('plain-js', { 'package.json': '{"type":"module"}', 'src/a.js': HANDLER });
    expect(placeStateModules([{ path: path.join(plain, 'src/a.js'), text: HANDLER }], plain).places[0]).toMatchObject({
      flavour: 'esm',
      declarations: false,
    });
    const checked = project('checked-js', {
      'package.json': '{"type":"module"}',
      'jsconfig.json': '{"compilerOptions":{"checkJs":true}}',
      'src/a.js': HANDLER,
    });
    expect(placeStateModules([{ path: path.join(checked, 'src/a.js'), text: HANDLER }], checked).places[0]).toMatchObject({
      flavour: 'esm',
      declarations: true,
    });
    const typeScript = project('ts-only', { 'package.json': '{"type":"module"}', 'tsconfig.json': '{}', 'src/a.ts': HANDLER });
    expect(placeStateModules([{ path: path.join(typeScript, 'src/a.ts'), text: HANDLER }], typeScript).places[0]).toMatchObject({
      flavour: 'ts',
      declarations: false,
    });
  });
});
