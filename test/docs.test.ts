/**
 * The documentation cannot drift: the shape pages and the causes page are what `npm run docs` makes
 * from the fixtures and the causes table; the README stays short, starts with its two set-up commands
 * (which exist), lists every option `--help` has; and every relative link resolves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocs, SHAPES_DIR } from '../scripts/docs.js';
import { assertBuilt, REPO, runCli } from './cli-helpers.js';

const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');

/** Written by another part of the work; linked before it lands. */
const LINKED_AHEAD = new Set(['docs/deployment.md']);

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith('.md'))
    .map(f => path.posix.join(dir, f.split(path.sep).join('/')));
}

describe('generated pages', () => {
  it('match the fixtures and the causes table (run `npm run docs` after changing either)', () => {
    const pages = renderDocs();
    const stale: string[] = [];
    for (const [file, text] of pages) if (!existsSync(path.join(REPO, file)) || read(file) !== text) stale.push(file);
    const extra = markdownFiles(SHAPES_DIR).filter(f => !pages.has(f));
    expect({ stale, extra }, 'the docs are out of date: run `npm run docs` and commit the result').toEqual({ stale: [], extra: [] });
  });

  it('say what every shape shows', () => {
    const table = read(`${SHAPES_DIR}/README.md`);
    const undescribed = table.split('\n').filter(line => /^\| \[[\w-]+\]\([\w-]+\.md\) \| +\|$/.test(line));
    expect(undescribed, 'a fixture with no comment at its top: give it one, or an entry in ABOUT of scripts/docs.ts').toEqual([]);
  });

  it('show every fixture pair, input beside output', () => {
    const fixtures = readdirSync(path.join(REPO, '__testfixtures__')).filter(f => /\.input\.[cm]?[jt]sx?$/.test(f));
    expect(fixtures.length).toBeGreaterThan(20);
    for (const f of fixtures) {
      const name = f.replace(/\.input\..*$/, '');
      const page = read(`${SHAPES_DIR}/${name}.md`);
      expect(page).toContain(read(`__testfixtures__/${f}`).trimEnd());
      expect(page).toContain(read(`__testfixtures__/${f.replace('.input.', '.output.')}`).trimEnd());
    }
  });
});

describe('README', () => {
  const readme = read('README.md');

  it('is at most about 150 lines and starts with the two set-up commands, which exist', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    const lines = readme.split('\n');
    expect(lines[0]).toBe('# mcp-migrate');
    expect(lines.slice(2, 6).join('\n')).toMatch(/^```sh\nnpm ci && npm run demo {3}# .+\nnpm ci && npm test {7}# .+\n```$/);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.demo).toBeDefined();
    expect(scripts.test).toBeDefined();
    expect(read('.ci/run')).toContain('npm test');
  });

  it('shows the example of __testfixtures__/readme-example as it is, before and after', () => {
    const [before, after] = [...readme.split('<!-- example: __testfixtures__/readme-example')[1]!.matchAll(/```ts\n([\s\S]*?)\n```/g)].map(
      m => m[1]!,
    );
    // The handler of each side of the fixture, from the line of its registration to the file's end.
    const handler = (file: string) =>
      read(file)
        .slice(read(file).search(/^.*\.registerTool\('greet'/m))
        .trimEnd();
    expect(before).toBe(handler('__testfixtures__/readme-example.input.ts'));
    expect(after).toBe(handler('__testfixtures__/readme-example.output.ts'));
  });

  it('lists every option --help has', async () => {
    assertBuilt();
    const help = (await runCli(['--help'], REPO)).stdout;
    const options = [...help.matchAll(/^\s+(--[a-z-]+)/gm)].map(m => m[1]!).filter(o => !['--help', '--version'].includes(o));
    expect(options.length).toBeGreaterThan(8);
    for (const option of options) expect(readme, option).toContain(option === '--upgrade' ? '--no-upgrade' : option);
  });

  it('and every page of docs/ link only to files that exist', () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...markdownFiles('docs')]) {
      for (const m of read(file).matchAll(/\]\(([^)\s]+)\)|href="([^"]+)"/g)) {
        const target = (m[1] ?? m[2])!.split('#')[0]!;
        if (!target || /^[a-z]+:/.test(target)) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        if (!existsSync(path.join(REPO, resolved)) && !LINKED_AHEAD.has(resolved)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
