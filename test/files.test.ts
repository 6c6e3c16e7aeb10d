import { mkdtemp, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscoveryError, discoverSources, expandBraces, isSourceFile } from '../src/files.js';

let root: string;

async function put(rel: string, text = 'export {};\n'): Promise<void> {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

async function found(paths: string[] = ['.'], opts: { include?: string[]; exclude?: string[] } = {}) {
  const d = await discoverSources(paths, { cwd: root, ...opts });
  return { files: d.files.map(f => path.relative(root, f).split(path.sep).join('/')), skipped: d.skipped, roots: d.roots };
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'mcp-migrate-files-')));
  await mkdir(path.join(root, '.git')); // the upward .gitignore search stops here
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('isSourceFile', () => {
  it('takes every source extension and no declaration file', () => {
    for (const f of ['a.ts', 'a.tsx', 'a.mts', 'a.cts', 'a.js', 'a.jsx', 'a.mjs', 'a.cjs', 'A.TS']) expect(isSourceFile(f)).toBe(true);
    for (const f of ['a.d.ts', 'a.d.mts', 'a.d.cts', 'a.json', 'a.ts.map', 'README.md', 'ts']) expect(isSourceFile(f)).toBe(false);
  });
});

describe('expandBraces', () => {
  it('expands alternatives, nested and repeated', () => {
    expect(expandBraces('src/**/*.{ts,js}')).toEqual(['src/**/*.ts', 'src/**/*.js']);
    expect(expandBraces('{a,b{c,d}}/x')).toEqual(['a/x', 'bc/x', 'bd/x']);
    expect(expandBraces('{a,b}/{c,d}')).toEqual(['a/c', 'a/d', 'b/c', 'b/d']);
    expect(expandBraces('plain')).toEqual(['plain']);
  });
});

describe('discoverSources', () => {
  it('lists sources sorted, skipping declaration files, other extensions and built-in directories', async () => {
    await put('src/z.ts');
    await put('src/a.mts');
    await put('src/B.cjs');
    await put('src/types.d.ts');
    await put('src/types.d.mts');
    await put('src/data.json', '{}');
    await put('node_modules/pkg/index.js');
    await put('src/node_modules/pkg/index.js');
    for (const d of ['dist', 'build', 'out', 'coverage']) await put(`${d}/x.js`);
    await put('.git/hooks/x.js');
    await put('lib/nested/deep.tsx');
    const { files, skipped } = await found();
    expect(files).toEqual(['lib/nested/deep.tsx', 'src/B.cjs', 'src/a.mts', 'src/z.ts']);
    expect(skipped).toEqual([]);
  });

  it('honours root and nested .gitignore files, with negation', async () => {
    await put('.gitignore', 'generated/\n*.gen.ts\n');
    await put('src/.gitignore', 'local-*.ts\n!local-keep.ts\n');
    await put('src/a.ts');
    await put('src/b.gen.ts');
    await put('src/local-x.ts');
    await put('src/local-keep.ts');
    await put('generated/g.ts');
    await put('src/generated/g.ts');
    await put('other/local-x.ts'); // the nested rule applies only under src/
    const { files } = await found();
    expect(files).toEqual(['other/local-x.ts', 'src/a.ts', 'src/local-keep.ts']);
  });

  it('applies .gitignore files above the given directory, up to the git top', async () => {
    await put('.gitignore', 'src/skip.ts\nvendor\n');
    await put('src/keep.ts');
    await put('src/skip.ts');
    await put('src/vendor/v.ts');
    const { files } = await found(['src']);
    expect(files).toEqual(['src/keep.ts']);
  });

  it('does not read .gitignore files above the git top', async () => {
    const outer = await realpath(await mkdtemp(path.join(tmpdir(), 'mcp-migrate-outer-')));
    try {
      await writeFile(path.join(outer, '.gitignore'), '*.ts\n');
      const repo = path.join(outer, 'repo');
      await mkdir(path.join(repo, '.git'), { recursive: true });
      await writeFile(path.join(repo, 'a.ts'), 'x\n');
      const d = await discoverSources(['.'], { cwd: repo });
      expect(d.files).toEqual([path.join(repo, 'a.ts')]);
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  });

  it('reports an explicitly named but gitignored file instead of dropping it silently', async () => {
    await put('.gitignore', 'ignored.ts\n');
    await put('ignored.ts');
    const { files, skipped } = await found(['ignored.ts']);
    expect(files).toEqual([]);
    expect(skipped).toEqual([{ path: path.join(root, 'ignored.ts'), reason: 'ignored by .gitignore' }]);
  });

  it('takes an explicitly named file even inside a built-in directory, and reports a named non-source', async () => {
    await put('dist/x.js');
    await put('x.d.ts');
    const { files, skipped } = await found(['dist/x.js', 'x.d.ts']);
    expect(files).toEqual(['dist/x.js']);
    expect(skipped.map(s => [path.basename(s.path), s.reason])).toEqual([['x.d.ts', 'declaration file']]);
  });

  it('does not follow symbolic links out of the roots, and reports them', async () => {
    const outside = await realpath(await mkdtemp(path.join(tmpdir(), 'mcp-migrate-outside-')));
    try {
      await writeFile(path.join(outside, 'evil.ts'), 'x\n');
      await mkdir(path.join(outside, 'dir'));
      await writeFile(path.join(outside, 'dir', 'in-dir.ts'), 'x\n');
      await put('src/a.ts');
      await symlink(path.join(outside, 'evil.ts'), path.join(root, 'src', 'link.ts'));
      await symlink(path.join(outside, 'dir'), path.join(root, 'src', 'linkdir'));
      await symlink(path.join(root, 'src', 'a.ts'), path.join(root, 'src', 'inside-link.ts'));
      await symlink(path.join(root, 'missing.ts'), path.join(root, 'src', 'broken.ts'));
      const { files, skipped } = await found(['src']);
      // The link inside the root resolves to the real file, listed once.
      expect(files).toEqual(['src/a.ts']);
      const reasons = Object.fromEntries(skipped.map(s => [path.basename(s.path), s.reason]));
      expect(reasons['link.ts']).toMatch(/symbolic link to a file outside the given paths/);
      expect(reasons['linkdir']).toMatch(/symbolic link to a directory outside the given paths/);
      expect(reasons['broken.ts']).toBe('broken symbolic link');
      expect(reasons['inside-link.ts']).toBeUndefined();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('filters with --include and --exclude globs, relative to the cwd or to the root', async () => {
    await put('src/a.ts');
    await put('src/a.test.ts');
    await put('src/gen/g.ts');
    await put('src/b.js');
    await put('scripts/s.ts');
    expect((await found(['.'], { exclude: ['**/*.test.ts', 'src/gen'] })).files).toEqual(['scripts/s.ts', 'src/a.ts', 'src/b.js']);
    expect((await found(['.'], { include: ['src/**/*.{ts,tsx}'] })).files).toEqual(['src/a.test.ts', 'src/a.ts', 'src/gen/g.ts']);
    expect((await found(['.'], { include: ['*.js'] })).files).toEqual(['src/b.js']);
    // Relative to the given root as well: `gen/**` under `src`.
    expect((await found(['src'], { exclude: ['gen/**', '*.test.ts'] })).files).toEqual(['src/a.ts', 'src/b.js']);
    // Excluded files are dropped silently.
    expect((await found(['.'], { exclude: ['src'] })).skipped).toEqual([]);
  });

  it('deduplicates overlapping roots and keeps the output sorted', async () => {
    await put('src/b.ts');
    await put('src/a.ts');
    const { files } = await found(['src', 'src/a.ts', '.']);
    expect(files).toEqual(['src/a.ts', 'src/b.ts']);
  });

  it('throws DiscoveryError for a path that does not exist', async () => {
    await expect(discoverSources(['nope'], { cwd: root })).rejects.toBeInstanceOf(DiscoveryError);
    await expect(discoverSources(['nope'], { cwd: root })).rejects.toThrow('nope: no such file or directory');
  });
});
