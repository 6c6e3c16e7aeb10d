/**
 * The requestState module as the build emits it (src/runtime/mcp-migrate-state.ts, in the three
 * flavours the tool writes): each loads and exports what the rewritten handlers import, the
 * TypeScript one typechecks under the strictest settings a project may use, and the names the
 * rewrite prints match the module's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Project, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { boundCallMethods, STATE_KEY_ENV, stateExports, stateModuleDeclaration, stateModuleText } from '../src/stateModule.js';

const root = path.resolve(import.meta.dirname, '..');
// Inside the repo, so the module resolves the SDK from node_modules.
const work = path.join(root, '.tmp', 'state-module');
const source = fs.readFileSync(path.join(root, 'src', 'runtime', 'mcp-migrate-state.ts'), 'utf8');

describe('the emitted requestState module', () => {
  it('is the source file itself in TypeScript, and in every flavour starts with its one banner', () => {
    expect(stateModuleText('ts')).toBe(source);
    const banner = source.slice(0, source.indexOf('*/') + 2);
    for (const flavour of ['ts', 'esm', 'cjs'] as const) {
      const text = stateModuleText(flavour);
      expect(text.startsWith(banner), flavour).toBe(true);
      expect(text.split('/**\n').length - 1, flavour).toBe(1);
    }
  });

  it('exports, in ESM and CommonJS, every function the rewritten handlers import', async () => {
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(path.join(work, 'state.mjs'), stateModuleText('esm'));
    fs.writeFileSync(path.join(work, 'state.cjs'), stateModuleText('cjs'));
    const esm = (await import(path.join(work, 'state.mjs'))) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(path.join(work, 'state.cjs')) as Record<string, unknown>;
    for (const name of Object.values(stateExports)) {
      expect(typeof esm[name], name).toBe('function');
      expect(typeof cjs[name], name).toBe('function');
    }
    expect(source).toContain(`const KEY_ENV = '${STATE_KEY_ENV}';`);
    // The methods of the bound call the handlers use, declared on it and implemented where it is made.
    for (const method of Object.values(boundCallMethods)) {
      expect(source).toMatch(new RegExp(`^    ${method}(<R>)?\\(`, 'm'));
      expect(source).toMatch(new RegExp(`^        (async )?${method}\\(`, 'm'));
    }
  });

  it('typechecks under the strictest settings a project may use, without the DOM library', () => {
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    const file = path.join(work, 'mcp-migrate-state.ts');
    fs.writeFileSync(file, stateModuleText('ts'));
    const project = new Project({
      compilerOptions: {
        strict: true,
        noUnusedLocals: true,
        noUnusedParameters: true,
        noImplicitReturns: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noPropertyAccessFromIndexSignature: true,
        verbatimModuleSyntax: true,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts'],
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        noEmit: true,
        types: ['node']
      },
      skipAddingFilesFromTsConfig: true
    });
    project.addSourceFileAtPath(file);
    // A handler's declared steps type what it resumes with: a misspelt local does not compile.
    project.createSourceFile(path.join(work, 'handler.ts'), `import type { ServerContext } from '@modelcontextprotocol/server';
import { resumeCall } from './mcp-migrate-state.js';

export function noteOf(ctx: ServerContext) {
  type ToolStep = { step: 'awaiting-answer'; note: string };
  const call = resumeCall<ToolStep>(ctx, 'tool', {});
  return call.run(async resumed => {
    if (resumed.step === 'start') return call.suspend({ step: 'awaiting-answer', note: 'kept' }, {});
    if (resumed.step === 'awaiting-answer') {
      // @ts-expect-error: the step carries no such local
      void resumed.notes;
      const note = resumed.note;
      return { note };
    }
    throw call.unknownStep(resumed);
  });
}
`, { overwrite: true });
    const diagnostics = project.getPreEmitDiagnostics().map(d => `${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });

  it('passes a strict checkJs project in ESM and CommonJS with its declarations beside it, which type what JavaScript handlers read', () => {
    const dir = path.join(work, 'checkjs');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowJs: true, checkJs: true, strict: true, noEmit: true, skipLibCheck: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'] }, include: ['*'] }));
    for (const [flavour, ext] of [['esm', '.mjs'], ['cjs', '.cjs']] as const) {
      const module = path.join(dir, `mcp-migrate-state${ext}`);
      fs.writeFileSync(module, stateModuleText(flavour));
      const declaration = stateModuleDeclaration(module, flavour);
      expect(path.basename(declaration.path)).toBe(`mcp-migrate-state.d.${ext.slice(1, 2)}ts`);
      fs.writeFileSync(declaration.path, declaration.text);
    }
    // A handler that runs its phases through the bound call: a step that is a string, never any, and a
    // result that is the handler's own or an input_required round, never the bound call's continuation.
    fs.writeFileSync(path.join(dir, 'handler.js'), `import { resumeCall } from './mcp-migrate-state.mjs';
/**
 * @param {import('@modelcontextprotocol/server').ServerContext} ctx
 * @returns {Promise<{ step: string } | import('@modelcontextprotocol/server').InputRequiredResult>}
 */
export function stepOf(ctx) {
  const call = resumeCall(ctx, 'tool', {});
  return call.run(async resumed => {
    if (resumed.step === 'start') return call.suspend({ step: 'awaiting-answer', note: 'kept' }, {});
    /** @type {string} */
    const step = resumed.step;
    if (resumed.step === 'awaiting-answer') return { step: \`\${step} \${String(resumed.note)}\` };
    throw call.unknownStep(resumed);
  });
}
`);
    const project = new Project({ tsConfigFilePath: path.join(dir, 'tsconfig.json') });
    const diagnostics = project.getPreEmitDiagnostics().map(d => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });
});
