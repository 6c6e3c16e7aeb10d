/**
 * Build step: emits the requestState module (mcp-migrate-state.ts beside this file, a real source file
 * typechecked with the rest) into dist/runtime in each flavour the tool writes into a project:
 * TypeScript as written, ESM and CommonJS JavaScript without types. Run after tsc (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { packageRoot, STATE_MODULE_BASENAME, stateModuleFile, type ModuleFlavour } from '../stateModule.js';

const source = fs.readFileSync(path.join(packageRoot(), 'src', 'runtime', `${STATE_MODULE_BASENAME}.ts`), 'utf8');
/** The file's leading comment, kept first in every flavour (CommonJS output would put its export list above it). */
const banner = /^\/\*\*[\s\S]*?\*\/\n/.exec(source)![0];

function flavourText(flavour: ModuleFlavour): string {
  if (flavour === 'ts') return source;
  const { outputText } = ts.transpileModule(source.slice(banner.length), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: flavour === 'cjs' ? ts.ModuleKind.CommonJS : ts.ModuleKind.ES2022, removeComments: false }
  });
  return banner + outputText;
}

for (const flavour of ['ts', 'esm', 'cjs'] as const) {
  const file = stateModuleFile(flavour);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, flavourText(flavour));
}
