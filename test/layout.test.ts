/**
 * The layout reads as a pipeline: analysis, plan, rewrite, report, with every import pointing one way. A module
 * that needs what imports it is handed it (src/analysis/registrations.ts's RegistrationLookup) instead of
 * importing it back. Type-only imports count: a circle of types is a circle a reader follows all the same.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { unitCatalogue, unitModule, unitTestOf } from '../scripts/docs.js';
import { ANALYSES } from '../src/analysis/units/index.js';
import { REWRITES } from '../src/rewrite/units.js';
import { REPO } from './cli-helpers.js';

const ROOTS = ['src', 'transforms', 'bench', 'scripts'];

/** Each TypeScript module of the project's own code → the project's modules it imports or re-exports from. */
function importGraph(): Map<string, string[]> {
  const files = ROOTS.flatMap(root =>
    readdirSync(path.join(REPO, root), { recursive: true, encoding: 'utf8' })
      .filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map(f => path.join(REPO, root, f)),
  );
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    // TypeScript's own scanner: every import and export-from, `import type` included.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(i => i.fileName)
      .filter(s => s.startsWith('.'))
      .map(s => path.resolve(path.dirname(file), s).replace(/\.js$/, '.ts'))
      .filter(t => known.has(t));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one module (Tarjan): the import circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(path.relative(REPO, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the import graph', () => {
  it('has no circle, type-only imports counted', () => {
    const found = circles(importGraph());
    expect(
      found.map(c => c.join(', ')),
      'modules that import each other',
    ).toEqual([]);
  });

  it('finds a circle where there is one (the test sees what it guards)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(circles(graph).map(c => c.length)).toEqual([3]);
  });
});

describe('the units of each stage', () => {
  it('each live in the module their id names, which exports what they apply', async () => {
    const misplaced: string[] = [];
    for (const unit of unitCatalogue().filter(u => u.module !== undefined)) {
      const file = path.join(REPO, unit.module!);
      if (!existsSync(file)) {
        misplaced.push(`${unit.stage} ${unit.id}: no ${unit.module}`);
        continue;
      }
      if (unit.stage === 'upgrade') {
        if (unit.module !== unitModule('src/upgrade/repairs', unit.id)) misplaced.push(`${unit.stage} ${unit.id}: in ${unit.module}`);
        continue;
      }
      const table = unit.stage === 'analysis' ? ANALYSES : REWRITES;
      const apply = table.find(u => u.id === unit.id)!.apply;
      const exported = Object.values((await import(file)) as Record<string, unknown>);
      if (!exported.includes(apply)) misplaced.push(`${unit.stage} ${unit.id}: ${unit.module} does not export its apply`);
    }
    expect(misplaced).toEqual([]);
  });

  it('name every repair of the upgrade (the docs read them from their modules)', () => {
    const repairs = unitCatalogue().filter(u => u.stage === 'upgrade' && u.module !== undefined);
    const declared = readdirSync(path.join(REPO, 'src/upgrade/repairs')).filter(f =>
      /\bapply: /.test(readFileSync(path.join(REPO, 'src/upgrade/repairs', f), 'utf8')),
    );
    expect(declared.filter(f => !repairs.some(r => r.module!.endsWith(`/${f}`)))).toEqual([]);
  });

  it("have their tests beside their name: each module of the upgrade's repairs, a test file of its own", () => {
    const modules = readdirSync(path.join(REPO, 'src/upgrade/repairs')).filter(f => f.endsWith('.ts'));
    const untested = modules.filter(f => !existsSync(path.join(REPO, 'test/upgrade/repairs', f.replace(/\.ts$/, '.test.ts'))));
    expect(untested).toEqual([]);
  });

  it("and every unit of the three stages, in a test file at its module's path under test/", () => {
    const units = unitCatalogue().filter(u => u.module !== undefined);
    const untested = units.map(u => unitTestOf(u.module!)).filter(test => !existsSync(path.join(REPO, test)));
    expect(untested).toEqual([]);
  });
});
