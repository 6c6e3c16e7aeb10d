/**
 * Where the requestState module of a run goes: one per package (the nearest package.json within the run),
 * in the common directory of that package's files that name a request, so that it sits inside the package's
 * own sources (its tsconfig's rootDir, its module kind) and never in a directory above several packages.
 * Decided once per run, as plain data, so that every group and thread of the run agrees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { STATE_MODULE_BASENAME, stateModuleExtension, type ModuleFlavour } from './stateModule.js';
import { COMMONJS_EXPORTS, TRIGGER_PATTERN } from './triggers.js';

export interface StateModulePlace {
  path: string;
  exists: boolean;
  flavour: ModuleFlavour;
  /** The package directory the module serves (the run's root when no package.json is found). */
  packageDir: string;
  /** A JavaScript module in a package TypeScript checks (a tsconfig.json or jsconfig.json): its declarations go beside it. */
  declarations: boolean;
}

export interface StateModules {
  places: StateModulePlace[];
}

/**
 * The place serving a file: that of the innermost package holding it; for a CommonJS file in a package
 * whose module is TypeScript or an ES module, the CommonJS one beside it (require() cannot load the other).
 */
export function stateModuleFor(modules: StateModules, file: string): StateModulePlace {
  const holding = modules.places.filter(p => file.startsWith(p.packageDir + path.sep) || file === p.packageDir);
  const innermost = holding.sort((a, b) => b.packageDir.length - a.packageDir.length).filter(p => p.packageDir === holding[0]?.packageDir);
  const commonJs = isCommonJsFile(file);
  return innermost.find(p => (p.flavour === 'cjs') === commonJs) ?? innermost[0] ?? modules.places[0]!;
}

/** A `.cjs` file: CommonJS whatever its package says. */
function isCommonJsFile(file: string): boolean {
  return file.endsWith('.cjs');
}

/**
 * One place per package of `candidates` (the files of the run worth analysing): judged on the files as given,
 * those naming a request, else all of the package's candidates (a handler whose helper is in another file).
 */
export function placeStateModules(candidates: { path: string; text: string }[], cwd: string): StateModules {
  const packageOf = packageDirs(cwd);
  const byPackage = new Map<string, { path: string; text: string }[]>();
  for (const f of candidates) {
    const dir = packageOf(f.path);
    byPackage.set(dir, [...(byPackage.get(dir) ?? []), f]);
  }
  if (byPackage.size === 0) byPackage.set(path.resolve(cwd), []);
  const places = [...byPackage].flatMap(([packageDir, files]) => {
    const handlerFiles = files.filter(f => TRIGGER_PATTERN.test(f.text));
    const main = place(packageDir, handlerFiles.length > 0 ? handlerFiles : files);
    // .cjs handlers in a package whose module is not CommonJS get a CommonJS module of their own beside them.
    const commonJs = handlerFiles.filter(f => isCommonJsFile(f.path));
    return main.flavour === 'cjs' || commonJs.length === 0 ? [main] : [main, place(packageDir, commonJs, 'cjs')];
  });
  return { places };
}

function place(packageDir: string, files: { path: string; text: string }[], only?: ModuleFlavour): StateModulePlace {
  const dirs = files.map(f => path.dirname(f.path));
  let common = dirs[0] ?? packageDir;
  for (const d of dirs)
    while (!(d + path.sep).startsWith(common + path.sep) && common !== path.dirname(common)) common = path.dirname(common);
  const flavour = only ?? flavourOf(packageDir, files);
  const declarations = flavour !== 'ts' && ['tsconfig.json', 'jsconfig.json'].some(config => fs.existsSync(path.join(packageDir, config)));
  for (const ext of only === 'cjs' ? ['.cjs'] : ['.ts', '.mts', '.js', '.mjs', '.cjs']) {
    const candidate = path.join(common, STATE_MODULE_BASENAME + ext);
    if (fs.existsSync(candidate) || files.some(a => a.path === candidate))
      return { path: candidate, exists: true, flavour, packageDir, declarations };
  }
  const ext = flavour === 'esm' ? '.mjs' : stateModuleExtension(flavour);
  return { path: path.join(common, STATE_MODULE_BASENAME + ext), exists: false, flavour, packageDir, declarations };
}

/**
 * TypeScript when the handlers are, or some are and the package is a TypeScript project (a tsconfig.json: its
 * JavaScript files are compiled with it, and a TypeScript file importing an untyped .mjs fails under strict);
 * CommonJS when a JavaScript handler requires or exports as CommonJS does; ES modules otherwise.
 */
function flavourOf(packageDir: string, files: { path: string; text: string }[]): ModuleFlavour {
  const typeScript = files.filter(f => /\.[mc]?tsx?$/.test(f.path));
  if (typeScript.length === files.length || (typeScript.length > 0 && fs.existsSync(path.join(packageDir, 'tsconfig.json')))) return 'ts';
  return files.some(f => f.path.endsWith('.cjs') || /\brequire\(/.test(f.text) || COMMONJS_EXPORTS.test(f.text)) ? 'cjs' : 'esm';
}

/** The directory of the nearest package.json above a file, within `cwd` (else `cwd`), read once per directory. */
function packageDirs(cwd: string): (file: string) => string {
  const root = path.resolve(cwd);
  const known = new Map<string, string>();
  const of = (dir: string): string => {
    const cached = known.get(dir);
    if (cached !== undefined) return cached;
    const parent = path.dirname(dir);
    const found =
      fs.existsSync(path.join(dir, 'package.json')) || dir === root || parent === dir || !dir.startsWith(root + path.sep)
        ? dir
        : of(parent);
    known.set(dir, found);
    return found;
  };
  return file => {
    const dir = of(path.dirname(path.resolve(file)));
    return dir.startsWith(root + path.sep) || dir === root ? dir : root;
  };
}
