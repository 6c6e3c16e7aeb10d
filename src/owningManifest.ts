/**
 * Which package.json owns a file: read by the package.json edits (src/manifest.ts) and, before any analysis,
 * by the run's git guard (src/run.ts), which must not wait for the compiler manifest.ts loads.
 */
import path from 'node:path';

/** The nearest package.json at or above `file`'s directory, not above `cwd`. */
export function owningManifest(file: string, cwd: string, exists: (p: string) => boolean): string | undefined {
  const root = path.resolve(cwd);
  let dir = path.dirname(path.resolve(file));
  while (dir === root || dir.startsWith(root + path.sep)) {
    const candidate = path.join(dir, 'package.json');
    if (exists(candidate)) return candidate;
    if (dir === root) break;
    dir = path.dirname(dir);
  }
  return undefined;
}
