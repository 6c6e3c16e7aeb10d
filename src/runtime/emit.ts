/**
 * Build step: emits the requestState module (mcp-migrate-state.ts and the mcp-migrate-state-seal.ts it
 * imports, beside this file, real source files typechecked with the rest) into dist/runtime in each
 * flavour the tool writes into a project: TypeScript as written, ESM and CommonJS JavaScript without
 * types, and the declarations of those two (.d.mts, .d.cts), which a project whose JavaScript TypeScript
 * checks gets beside them. The import of the seal keeps its `.js` here: the tool gives it the extension
 * of the project it writes into (src/stateModule.ts). Run after tsc (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { packageRoot, STATE_RUNTIME_FILES, stateModuleDeclarationFile, stateModuleFile, type ModuleFlavour, type StateRuntimeFile } from '../stateModule.js';

const sourceFile = (base: StateRuntimeFile) => path.join(packageRoot(), 'src', 'runtime', `${base}.ts`);

function flavourText(source: string, flavour: ModuleFlavour): string {
  if (flavour === 'ts') return source;
  /** The file's leading comment, kept first in every flavour (CommonJS output would put its export list above it). */
  const banner = /^\/\*\*[\s\S]*?\*\/\n/.exec(source)![0];
  const { outputText } = ts.transpileModule(source.slice(banner.length), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: flavour === 'cjs' ? ts.ModuleKind.CommonJS : ts.ModuleKind.ES2022, removeComments: false }
  });
  return banner + outputText;
}

/** The files' declarations, as tsc emits them (the SDK's types resolved from this package's dependencies). */
function declarations(): Map<StateRuntimeFile, string> {
  const options: ts.CompilerOptions = { declaration: true, emitDeclarationOnly: true, strict: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'] };
  const texts = new Map<StateRuntimeFile, string>();
  const result = ts.createProgram(STATE_RUNTIME_FILES.map(sourceFile), options).emit(undefined, (name, data) => {
    const base = STATE_RUNTIME_FILES.find(b => path.basename(name) === `${b}.d.ts`);
    if (base !== undefined) texts.set(base, data);
  });
  const missing = STATE_RUNTIME_FILES.filter(b => !texts.has(b));
  if (result.emitSkipped || missing.length > 0) throw new Error(`no declarations emitted for ${missing.join(', ') || 'the requestState module'}`);
  return texts;
}

const declared = declarations();
for (const base of STATE_RUNTIME_FILES) {
  const source = fs.readFileSync(sourceFile(base), 'utf8');
  for (const flavour of ['ts', 'esm', 'cjs'] as const) {
    const file = stateModuleFile(flavour, base);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, flavourText(source, flavour));
  }
  // One banner per file: the declarations' own, not the module's (which tsc keeps above a first statement it keeps).
  const declarationBanner = `/** The types of ${base} beside this file, for TypeScript checking the project's JavaScript: written with it by mcp-migrate; keep the two alike. */\n`;
  const types = declared.get(base)!.replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
  for (const flavour of ['esm', 'cjs'] as const) fs.writeFileSync(stateModuleDeclarationFile(flavour, base), declarationBanner + types);
}
