/**
 * Splitting a run's candidates into groups that can be analysed apart, in worker threads.
 *
 * The analysis follows a server, a handler or a helper from one candidate into another through imports;
 * a file outside its group is seen by the type checker only as it is on disk (not upgraded, not inlined),
 * so two candidates that import one another must share a group. Groups are the connected parts of the
 * import graph between candidates: relative imports, imports of a workspace package by its name
 * (which joins the importer to every candidate of that package), and imports through a tsconfig.json
 * `paths` alias. Text only, like the pre-filter: no source is parsed (only the tsconfig.json files an alias needs).
 */
import { bareImports, importsAmong, PackageNames } from './triggers.js';

/**
 * At most `count` groups of `files`, each closed under the imports between files, balanced by size.
 * Deterministic: the same files give the same groups, each in the order of `files`, largest first.
 */
export function partitionCandidates<F extends { path: string; text: string }>(files: F[], count: number): F[][] {
  const index = new Map(files.map((f, i) => [f.path, i]));
  const parent = files.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };

  const known = new Set(index.keys());
  const packages = new PackageNames();
  const byPackage = new Map<string, number[]>();
  files.forEach((f, i) => {
    // A relative import, or a tsconfig.json paths alias (`@shared/ask.js`): one file.
    for (const target of importsAmong(f, known)) union(i, index.get(target)!);
    const name = packages.nameOf(f.path);
    if (name === undefined) return;
    const members = byPackage.get(name);
    if (members) members.push(i);
    else byPackage.set(name, [i]);
  });
  // Which file a package name resolves to is not known without resolving it: the importer joins them all.
  files.forEach((f, i) => {
    for (const name of bareImports(f)) for (const other of byPackage.get(name) ?? []) union(i, other);
  });

  const components = new Map<number, number[]>();
  files.forEach((_, i) => {
    const root = find(i);
    const members = components.get(root);
    if (members) members.push(i);
    else components.set(root, [i]);
  });
  const size = (members: number[]) => members.reduce((n, i) => n + files[i]!.text.length, 0);
  const bins = Array.from({ length: Math.max(1, Math.min(count, components.size)) }, () => ({ load: 0, members: [] as number[] }));
  for (const members of [...components.values()].sort((a, b) => size(b) - size(a) || a[0]! - b[0]!)) {
    const bin = bins.reduce((least, b) => (b.load < least.load ? b : least));
    bin.load += size(members);
    bin.members.push(...members);
  }
  return bins
    .filter(b => b.members.length > 0)
    .sort((a, b) => b.load - a.load)
    .map(b => b.members.sort((x, y) => x - y).map(i => files[i]!));
}
