/**
 * The requestState module as the build emits it (src/runtime/mcp-migrate-state.ts and the seal it
 * imports, mcp-migrate-state-seal.ts, in the three flavours the tool writes): each loads and exports
 * what the rewritten handlers import, the TypeScript one typechecks under the strictest settings a
 * project may use (and imports its seal as the project's imports are written), and the names the
 * rewrite prints match the module's. The module a reviewer reads first stays short.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Project, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { boundCallMethods, isStateModuleFile, STATE_KEY_ENV, STATE_RUNTIME_FILES, STATE_SEAL_BASENAME, stateExports, stateModuleFiles, stateModuleText, type ModuleFlavour } from '../src/stateModule.js';

const root = path.resolve(import.meta.dirname, '..');
// Inside the repo, so the module resolves the SDK from node_modules.
const work = path.join(root, '.tmp', 'state-module');
const sourceOf = (base: string) => fs.readFileSync(path.join(root, 'src', 'runtime', `${base}.ts`), 'utf8');
const source = sourceOf('mcp-migrate-state');
const sealSource = sourceOf(STATE_SEAL_BASENAME);

/** Writes the module's files at `modulePath` in `flavour`, as a run writes them. */
function writeModule(modulePath: string, flavour: ModuleFlavour, options: Parameters<typeof stateModuleFiles>[2] = {}): string[] {
  fs.mkdirSync(path.dirname(modulePath), { recursive: true });
  const files = stateModuleFiles(modulePath, flavour, options);
  for (const file of files) fs.writeFileSync(file.path, file.text);
  return files.map(f => path.basename(f.path));
}

describe('the emitted requestState module', () => {
  it('is the source files themselves in TypeScript, and in every flavour each file starts with its one banner', () => {
    for (const base of STATE_RUNTIME_FILES) {
      const text = sourceOf(base);
      expect(stateModuleText('ts', base)).toBe(text);
      const banner = text.slice(0, text.indexOf('*/') + 2);
      for (const flavour of ['ts', 'esm', 'cjs'] as const) {
        const emitted = stateModuleText(flavour, base);
        expect(emitted.startsWith(banner), `${base} ${flavour}`).toBe(true);
        expect(emitted.split('/**\n').length - 1, `${base} ${flavour}`).toBe(1);
      }
    }
  });

  it('is short where a reviewer starts: the module the handlers import, the sealing beside it', () => {
    expect(source.split('\n').length - 1).toBeLessThan(150);
    expect(source).toContain(`from './${STATE_SEAL_BASENAME}.js';`);
    expect(sealSource).not.toContain('mcp-migrate-state.js');
  });

  it('counts both files, in every flavour and with their declarations, as files a run writes (the dirty-tree guard, the @types/node note)', () => {
    for (const base of STATE_RUNTIME_FILES) for (const ext of ['.ts', '.mjs', '.cjs', '.js', '.d.mts', '.d.cts']) expect(isStateModuleFile(`src/${base}${ext}`), base + ext).toBe(true);
    for (const other of ['src/mcp-migrate-state-sealed.ts', 'src/mcp-migrate-states.ts', 'src/server.ts']) expect(isStateModuleFile(other), other).toBe(false);
  });

  it('exports, in ESM and CommonJS, every function the rewritten handlers import, and what deployments configure', async () => {
    const written = { esm: path.join(work, 'esm', 'mcp-migrate-state.mjs'), cjs: path.join(work, 'cjs', 'mcp-migrate-state.cjs') };
    expect(writeModule(written.esm, 'esm')).toEqual(['mcp-migrate-state.mjs', 'mcp-migrate-state-seal.mjs']);
    expect(writeModule(written.cjs, 'cjs')).toEqual(['mcp-migrate-state.cjs', 'mcp-migrate-state-seal.cjs']);
    // Each names its seal with the seal's own extension: Node resolves no other.
    expect(fs.readFileSync(written.esm, 'utf8')).toContain(`from './${STATE_SEAL_BASENAME}.mjs';`);
    expect(fs.readFileSync(written.cjs, 'utf8')).toContain(`require("./${STATE_SEAL_BASENAME}.cjs")`);
    const esm = (await import(written.esm)) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(written.cjs) as Record<string, unknown>;
    for (const name of [...Object.values(stateExports), 'configureRequestState', 'memoryStore', 'redisStore']) {
      expect(typeof esm[name], name).toBe('function');
      expect(typeof cjs[name], name).toBe('function');
    }
    expect(sealSource).toContain(`const KEY_ENV = '${STATE_KEY_ENV}';`);
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
    writeModule(file, 'ts');
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
    project.addSourceFileAtPath(path.join(work, `${STATE_SEAL_BASENAME}.ts`));
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

  it('imports its seal without extension where the handlers import it so, which a bundler-resolved project typechecks', () => {
    const dir = path.join(work, 'extensionless');
    const file = path.join(dir, 'mcp-migrate-state.ts');
    writeModule(file, 'ts', { extensionless: true });
    expect(fs.readFileSync(file, 'utf8')).toContain(`from './${STATE_SEAL_BASENAME}';`);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(`${STATE_SEAL_BASENAME}.js`);
    const project = new Project({
      compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, noEmit: true, types: ['node'] },
      skipAddingFilesFromTsConfig: true
    });
    project.addSourceFileAtPath(file);
    project.createSourceFile(path.join(dir, 'handler.ts'), `import { configureRequestState, memoryStore, resumeCall } from './mcp-migrate-state';\nconfigureRequestState({ store: memoryStore() });\nexport { resumeCall };\n`, { overwrite: true });
    const diagnostics = project.getPreEmitDiagnostics().map(d => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });

  it('passes a strict checkJs project in ESM and CommonJS with its declarations beside it, which type what JavaScript handlers read', () => {
    const dir = path.join(work, 'checkjs');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowJs: true, checkJs: true, strict: true, noEmit: true, skipLibCheck: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'] }, include: ['*'] }));
    for (const [flavour, ext] of [['esm', '.mjs'], ['cjs', '.cjs']] as const) {
      const d = `.d.${ext.slice(1, 2)}ts`;
      expect(writeModule(path.join(dir, `mcp-migrate-state${ext}`), flavour, { declarations: true })).toEqual([`mcp-migrate-state${ext}`, `${STATE_SEAL_BASENAME}${ext}`, `mcp-migrate-state${d}`, `${STATE_SEAL_BASENAME}${d}`]);
      // The module's declarations name the seal's, as the module names the seal.
      expect(fs.readFileSync(path.join(dir, `mcp-migrate-state${d}`), 'utf8')).toContain(`from './${STATE_SEAL_BASENAME}${ext}';`);
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
