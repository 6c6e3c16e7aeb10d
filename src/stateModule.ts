/**
 * The requestState module the tool writes once per project (never over an existing file): the
 * runtime side of every rewritten handler. Handlers import `resumeCall` (which binds the call once:
 * its `run` and `suspend`) and the answer readers from it; the server construction imports `verifyRequestState`. Its source is
 * src/runtime/mcp-migrate-state.ts, emitted by the build into dist/runtime in each flavour
 * (src/runtime/emit.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const STATE_MODULE_BASENAME = 'mcp-migrate-state';
export const STATE_KEY_ENV = 'MCP_REQUEST_STATE_KEY';

/** A file the tool writes as the requestState module, in any flavour, or a declaration beside one. */
export function isStateModuleFile(file: string): boolean {
  return path.basename(file).startsWith(`${STATE_MODULE_BASENAME}.`);
}

/** Names the module exports, in one place so the rewrite and the module cannot drift apart. */
export const stateExports = {
  verify: 'verifyRequestState',
  resume: 'resumeCall',
  elicit: 'elicitResult',
  sampling: 'samplingResult',
  roots: 'rootsResult',
  requireSupport: 'requireClientSupport',
  capabilities: 'clientCapabilities'
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

/** Where the build emitted the module in `flavour`. */
export function stateModuleFile(flavour: ModuleFlavour): string {
  return path.join(packageRoot(), 'dist', 'runtime', STATE_MODULE_BASENAME + EMITTED_EXTENSION[flavour]);
}

/** Where the build emitted the declarations of the JavaScript flavour. */
export function stateModuleDeclarationFile(flavour: Exclude<ModuleFlavour, 'ts'>): string {
  return path.join(packageRoot(), 'dist', 'runtime', STATE_MODULE_BASENAME + (flavour === 'cjs' ? '.d.cts' : '.d.mts'));
}

/** The declaration file TypeScript reads for the JavaScript module at `modulePath`, and its text. */
export function stateModuleDeclaration(modulePath: string, flavour: Exclude<ModuleFlavour, 'ts'>): { path: string; text: string } {
  return { path: modulePath.replace(/\.([cm]?)js$/, '.d.$1ts'), text: fs.readFileSync(stateModuleDeclarationFile(flavour), 'utf8') };
}

/** The module text in the project's flavour: TypeScript, or JavaScript (ESM or CommonJS) without types. */
export function stateModuleText(flavour: ModuleFlavour): string {
  return fs.readFileSync(stateModuleFile(flavour), 'utf8');
}

export function stateModuleExtension(flavour: ModuleFlavour): string {
  return flavour === 'ts' ? '.ts' : flavour === 'cjs' ? '.cjs' : '.js';
}
