/**
 * The requestState module's file names: read by the run's git guard before any analysis, which must not wait
 * for the compiler the module's writer (src/stateModule.ts, through its restyling) loads.
 */
import path from 'node:path';

export const STATE_MODULE_BASENAME = 'mcp-migrate-state';
/** The module's second file, beside it: what seals the state. */
export const STATE_SEAL_BASENAME = 'mcp-migrate-state-seal';
export const STATE_RUNTIME_FILES = [STATE_MODULE_BASENAME, STATE_SEAL_BASENAME] as const;
export type StateRuntimeFile = (typeof STATE_RUNTIME_FILES)[number];
export const STATE_KEY_ENV = 'MCP_REQUEST_STATE_KEY';

/** A file the tool writes as the requestState module (either of its files), in any flavour, or a declaration beside one. */
export function isStateModuleFile(file: string): boolean {
  return STATE_RUNTIME_FILES.some(base => path.basename(file).startsWith(`${base}.`));
}
