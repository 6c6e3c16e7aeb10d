/**
 * Build step: emits the requestState module (mcp-migrate-state.ts beside this file, a real source file
 * typechecked with the rest) into dist/runtime in each flavour the tool writes into a project:
 * TypeScript as written, ESM and CommonJS JavaScript without types, and the declarations of those two
 * (.d.mts, .d.cts), which a project whose JavaScript TypeScript checks gets beside them. Run after tsc
 * (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { packageRoot, STATE_MODULE_BASENAME, stateModuleDeclarationFile, stateModuleFile, type ModuleFlavour } from '../stateModule.js';

const sourceFile = path.join(packageRoot(), 'src', 'runtime', `${STATE_MODULE_BASENAME}.ts`);
const source = fs.readFileSync(sourceFile, 'utf8');
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

/** The module's declarations, as tsc emits them (the SDK's types resolved from this package's dependencies). */
function declarations(): string {
  const options: ts.CompilerOptions = { declaration: true, emitDeclarationOnly: true, strict: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'] };
  let text: string | undefined;
  const result = ts.createProgram([sourceFile], options).emit(undefined, (_name, data) => (text = data));
  if (result.emitSkipped || text === undefined) throw new Error(`no declarations emitted for ${sourceFile}`);
  return text;
}

const declared = declarations();
const declarationBanner = `/** The types of ${STATE_MODULE_BASENAME} beside this file, for TypeScript checking the project's JavaScript: written with it by mcp-migrate; keep the two alike. */\n`;
for (const flavour of ['esm', 'cjs'] as const) fs.writeFileSync(stateModuleDeclarationFile(flavour), declarationBanner + declared);
