/**
 * The requestState module the tool writes once per project (never over an existing file): the
 * runtime side of every rewritten handler. Handlers import `resumeCall` (which binds the call once:
 * its `run` and `suspend`) and the answer readers from it; the server construction imports `verifyRequestState`. Its source is
 * src/runtime/mcp-migrate-state.ts, with src/runtime/mcp-migrate-state-seal.ts beside it (how the state
 * is sealed: key, codec, encryption, stores), which it imports and which is written with it; both are
 * emitted by the build into dist/runtime in each flavour (src/runtime/emit.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { restyled } from './restyle.js';
import { STATE_MODULE_BASENAME, STATE_SEAL_BASENAME, type StateRuntimeFile } from './stateModuleNames.js';

export {
  isStateModuleFile,
  STATE_KEY_ENV,
  STATE_MODULE_BASENAME,
  STATE_RUNTIME_FILES,
  STATE_SEAL_BASENAME,
  type StateRuntimeFile,
} from './stateModuleNames.js';

/** Names the module exports, in one place so the rewrite and the module cannot drift apart. */
export const stateExports = {
  verify: 'verifyRequestState',
  resume: 'resumeCall',
  elicit: 'elicitResult',
  sampling: 'samplingResult',
  roots: 'rootsResult',
  requireSupport: 'requireClientSupport',
  capabilities: 'clientCapabilities',
} as const;

/** Methods of the call `resumeCall` binds that the rewritten handlers use. */
export const boundCallMethods = { run: 'run', suspend: 'suspend', unknownStep: 'unknownStep' } as const;

export type ModuleFlavour = 'ts' | 'esm' | 'cjs';

const EMITTED_EXTENSION: Record<ModuleFlavour, string> = { ts: '.ts', esm: '.mjs', cjs: '.cjs' };

/** This package's root (the nearest package.json above this file, from src/ and dist/src/ alike). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return dir;
}

/** Where the build emitted the module (or its seal) in `flavour`. */
export function stateModuleFile(flavour: ModuleFlavour, base: StateRuntimeFile = STATE_MODULE_BASENAME): string {
  return path.join(packageRoot(), 'dist', 'runtime', base + EMITTED_EXTENSION[flavour]);
}

/** Where the build emitted the declarations of the JavaScript flavour. */
export function stateModuleDeclarationFile(flavour: Exclude<ModuleFlavour, 'ts'>, base: StateRuntimeFile = STATE_MODULE_BASENAME): string {
  return path.join(packageRoot(), 'dist', 'runtime', base + (flavour === 'cjs' ? '.d.cts' : '.d.mts'));
}

/** The declaration file TypeScript reads for the JavaScript file at `modulePath`. */
function declarationPath(modulePath: string): string {
  return modulePath.replace(/\.([cm]?)js$/, '.d.$1ts');
}

/** How the emitted module names its seal: `./mcp-migrate-state-seal.js`, in either quote (CommonJS output has double). */
const SEAL_SPECIFIER = new RegExp(`(['"])\\./${STATE_SEAL_BASENAME}\\.js\\1`, 'g');

/** `text` (the module or its declarations) naming its seal with `extension`: '' for a project whose relative imports have none. */
function namingSeal(text: string, extension: string): string {
  return text.replace(SEAL_SPECIFIER, (_m, quote: string) => `${quote}./${STATE_SEAL_BASENAME}${extension}${quote}`);
}

/** The module text in the project's flavour (TypeScript, or JavaScript, ESM or CommonJS, without types), as emitted. */
export function stateModuleText(flavour: ModuleFlavour, base: StateRuntimeFile = STATE_MODULE_BASENAME): string {
  return fs.readFileSync(stateModuleFile(flavour, base), 'utf8');
}

export function stateModuleExtension(flavour: ModuleFlavour): string {
  return flavour === 'ts' ? '.ts' : flavour === 'cjs' ? '.cjs' : '.js';
}

/** The seal of the module at `modulePath`: beside it, with its extension (TypeScript's always `.ts`, which `.js` and no extension both name). */
function sealPath(modulePath: string, flavour: ModuleFlavour): string {
  return path.join(path.dirname(modulePath), STATE_SEAL_BASENAME + (flavour === 'ts' ? '.ts' : path.extname(modulePath)));
}

export interface StateModuleOptions {
  /** A TypeScript module names its seal without extension, as the rewrite names the module in a project whose relative imports have none. */
  extensionless?: boolean;
  /** The JavaScript files get their declarations beside them (a project whose JavaScript TypeScript checks). */
  declarations?: boolean;
  /** The style of the project's files that import the module (indentation, quotes, semicolons): the files are written in it. */
  style?: Parameters<typeof restyled>[1];
}

/**
 * The files of the requestState module at `modulePath` in `flavour`: the module, its seal beside it (the
 * module naming it as the project's imports name files: the seal's own extension in JavaScript), and with
 * `declarations` the declaration files of JavaScript ones. The caller leaves out those that exist.
 */
export function stateModuleFiles(
  modulePath: string,
  flavour: ModuleFlavour,
  options: StateModuleOptions = {},
): { path: string; text: string }[] {
  const seal = sealPath(modulePath, flavour);
  const extension = flavour === 'ts' ? (options.extensionless ? '' : '.js') : path.extname(seal);
  const files = [
    { path: modulePath, text: namingSeal(stateModuleText(flavour), extension) },
    { path: seal, text: stateModuleText(flavour, STATE_SEAL_BASENAME) },
  ];
  if (flavour !== 'ts' && options.declarations) {
    const declared = (base: StateRuntimeFile) => namingSeal(fs.readFileSync(stateModuleDeclarationFile(flavour, base), 'utf8'), extension);
    files.push(
      { path: declarationPath(modulePath), text: declared(STATE_MODULE_BASENAME) },
      { path: declarationPath(seal), text: declared(STATE_SEAL_BASENAME) },
    );
  }
  const style = options.style;
  return style ? files.map(f => ({ path: f.path, text: restyled(f.text, style, f.path) })) : files;
}
