/**
 * The requestState module as the build emits it (src/runtime/mcp-migrate-state.ts and the seal it
 * imports, mcp-migrate-state-seal.ts, in the three flavours the tool writes): each loads and exports
 * every name the rewrite makes handlers import (read from the rewrite itself) and what deployments
 * configure; the TypeScript one typechecks under the strictest settings a project may use, erasable
 * syntax only (Node's type stripping runs it), and imports its seal as the project's imports are
 * written; a replayed handler written against it is typed by the SDK's own types. The headers a user
 * reads first name every setting the code reads, and the defaults the code has.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Project, ts } from 'ts-morph';
import { describe, expect, it, vi } from 'vitest';
import {
  isStateModuleFile,
  STATE_KEY_ENV,
  STATE_RUNTIME_FILES,
  STATE_SEAL_BASENAME,
  stateExports,
  stateModuleFiles,
  stateModuleText,
  type ModuleFlavour,
} from '../src/stateModule.js';

const root = path.resolve(import.meta.dirname, '..');
// Inside the repo, so the module resolves the SDK from node_modules.
const work = path.join(root, '.tmp', 'state-module');
const sourceOf = (base: string) => fs.readFileSync(path.join(root, 'src', 'runtime', `${base}.ts`), 'utf8');
const source = sourceOf('mcp-migrate-state');
const sealSource = sourceOf(STATE_SEAL_BASENAME);
const bannerOf = (text: string) => text.slice(0, text.indexOf('*/') + 2);

/** The names the rewrite imports from the module (`cx.use('state', ...)`), read from the rewrite's sources. */
function rewriteImports(): string[] {
  const dir = path.join(root, 'src', 'rewrite');
  const names = new Set<string>([stateExports.verify]);
  for (const file of fs.readdirSync(dir)) {
    for (const m of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/cx\.use\('state', '(\w+)'\)/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

/** Writes the module's files at `modulePath` in `flavour`, as a run writes them. */
function writeModule(modulePath: string, flavour: ModuleFlavour, options: Parameters<typeof stateModuleFiles>[2] = {}): string[] {
  fs.mkdirSync(path.dirname(modulePath), { recursive: true });
  const files = stateModuleFiles(modulePath, flavour, options);
  for (const file of files) fs.writeFileSync(file.path, file.text);
  return files.map(f => path.basename(f.path));
}

const diagnosticsOf = (project: Project) =>
  project
    .getPreEmitDiagnostics()
    .map(
      d =>
        `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`,
    );

/** A replayed handler as the rewrite leaves one: every name it imports in use, typed by the SDK. */
const HANDLER = `import { McpServer } from '@modelcontextprotocol/server';
import { ask, clientCapabilities, journaled, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'x', version: '1' }, { requestState: { verify: verifyRequestState } });
let created = 0;
resumable(server).registerTool('plan', { description: 'plans' }, async () => {
  const trip = await journaled(async () => ({ id: ++created }));
  try {
    const answer = await ask(server.server, 'days').elicitInput({ message: 'Days?', requestedSchema: { type: 'object', properties: { days: { type: 'number' } } } });
    // @ts-expect-error: an elicitation's action is a string
    const wrong: number = answer.action;
    void wrong;
    const roots = clientCapabilities(server.server)?.roots !== undefined ? (await ask(server.server).listRoots()).roots.length : 0;
    return { content: [{ type: 'text' as const, text: \`\${trip.id} \${answer.action} \${roots}\` }] };
  } finally {
    rethrowIfSuspended();
  }
});
`;

describe('the emitted requestState module', () => {
  it('is the source files themselves in TypeScript, and in every flavour each file starts with its one banner', () => {
    for (const base of STATE_RUNTIME_FILES) {
      const text = sourceOf(base);
      expect(stateModuleText('ts', base)).toBe(text);
      for (const flavour of ['ts', 'esm', 'cjs'] as const) {
        const emitted = stateModuleText(flavour, base);
        expect(emitted.startsWith(bannerOf(text)), `${base} ${flavour}`).toBe(true);
        expect(emitted.split(bannerOf(text)).length - 1, `${base} ${flavour}`).toBe(1);
      }
    }
  });

  it('says in its banners what a reader must know: the calls the handlers make, and every setting the seal reads with its default', () => {
    const banner = bannerOf(source);
    for (const name of rewriteImports().filter(n => n !== stateExports.verify)) expect(banner, name).toContain(name);
    expect(source).toContain(`from './${STATE_SEAL_BASENAME}.js';`);
    expect(sealSource).not.toContain('mcp-migrate-state.js');
    const sealBanner = bannerOf(sealSource);
    const read = new Set([...sealSource.matchAll(/\b(MCP_REQUEST_STATE_\w+)\b/g)].map(m => m[1]!));
    expect([...read].sort()).toEqual([
      'MCP_REQUEST_STATE_ENCRYPT',
      'MCP_REQUEST_STATE_KEY',
      'MCP_REQUEST_STATE_SINGLE_USE',
      'MCP_REQUEST_STATE_STORE',
      'MCP_REQUEST_STATE_USER_CLAIM',
    ]);
    for (const name of read) expect(sealBanner, name).toContain(name);
    // The defaults the banner states are the code's: on unless switched off, the memory store's bounds.
    expect(sealBanner).toMatch(/SINGLE_USE=0 .*\(each is accepted once by default\)/);
    expect(sealBanner).toMatch(/ENCRYPT=0 .*\(encrypted by default\)/);
    expect(sealSource).toMatch(/singleUse: !disabled\('MCP_REQUEST_STATE_SINGLE_USE'\)/);
    expect(sealSource).toMatch(/encrypt: !disabled\('MCP_REQUEST_STATE_ENCRYPT'\)/);
    expect(sealBanner).toContain('at most 10,000 entries and 64 MiB');
    expect(sealSource).toContain('options.maxEntries ?? 10_000');
    expect(sealSource).toContain('options.maxBytes ?? 64 * 1024 * 1024');
  });

  it('counts both files, in every flavour and with their declarations, as files a run writes (the dirty-tree guard, the @types/node note)', () => {
    for (const base of STATE_RUNTIME_FILES)
      for (const ext of ['.ts', '.mjs', '.cjs', '.js', '.d.mts', '.d.cts'])
        expect(isStateModuleFile(`src/${base}${ext}`), base + ext).toBe(true);
    for (const other of ['src/mcp-migrate-state-sealed.ts', 'src/mcp-migrate-states.ts', 'src/server.ts'])
      expect(isStateModuleFile(other), other).toBe(false);
  });

  it('exports, in ESM and CommonJS, every function the rewrite makes handlers import, and what deployments configure', async () => {
    const names = rewriteImports();
    expect(names).toEqual(['ask', 'clientCapabilities', 'journaled', 'resumable', 'rethrowIfSuspended', 'verifyRequestState']);
    const written = { esm: path.join(work, 'esm', 'mcp-migrate-state.mjs'), cjs: path.join(work, 'cjs', 'mcp-migrate-state.cjs') };
    expect(writeModule(written.esm, 'esm')).toEqual(['mcp-migrate-state.mjs', 'mcp-migrate-state-seal.mjs']);
    expect(writeModule(written.cjs, 'cjs')).toEqual(['mcp-migrate-state.cjs', 'mcp-migrate-state-seal.cjs']);
    // Each names its seal with the seal's own extension: Node resolves no other.
    expect(fs.readFileSync(written.esm, 'utf8')).toContain(`from './${STATE_SEAL_BASENAME}.mjs';`);
    expect(fs.readFileSync(written.cjs, 'utf8')).toContain(`require("./${STATE_SEAL_BASENAME}.cjs")`);
    const esm = (await import(written.esm)) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(written.cjs) as Record<string, unknown>;
    for (const name of [...names, 'configureRequestState', 'memoryStore', 'redisStore']) {
      expect(typeof esm[name], name).toBe('function');
      expect(typeof cjs[name], name).toBe('function');
    }
    expect(sealSource).toContain(`const KEY_ENV = '${STATE_KEY_ENV}';`);
  });

  it('memoryStore: capped in entries and bytes (keys counted), the oldest evicted and counted, expired ones dropped uncounted, one add of a key taken', async () => {
    const file = path.join(work, 'store', 'mcp-migrate-state.mjs');
    writeModule(file, 'esm');
    const { memoryStore } = (await import(file)) as {
      memoryStore: (o?: { maxEntries?: number; maxBytes?: number }) => {
        add(k: string, v: string, ttl: number): Promise<boolean>;
        get(k: string): Promise<string | undefined>;
        evicted: number;
        lostThrough?: number;
        local?: boolean;
      };
    };
    const made = Date.now();
    const store = memoryStore({ maxEntries: 2, maxBytes: 20 });
    expect(store.local).toBe(true);
    // nonces recorded before it was made are not in it
    expect(store.lostThrough).toBeGreaterThanOrEqual(made);
    const before = store.lostThrough!;
    expect(await Promise.all([store.add('a', '1', 600), store.add('a', '2', 600)])).toEqual([true, false]);
    expect(await store.add('b', '1', 600)).toBe(true);
    expect(store.evicted).toBe(0);
    expect(await store.add('c', '1', 600)).toBe(true);
    expect([await store.get('a'), await store.get('b'), await store.get('c')]).toEqual([undefined, '1', '1']);
    expect(store.evicted).toBe(1);
    expect(store.lostThrough).toBeGreaterThanOrEqual(before);
    // 20 bytes of keys and values: 'd' with 18 bytes leaves room for nothing else
    expect(await store.add('d', 'x'.repeat(18), 600)).toBe(true);
    expect([await store.get('b'), await store.get('c')]).toEqual([undefined, undefined]);
    expect(store.evicted).toBe(3);
    // an entry whose time is up is dropped without counting as an eviction
    const expiring = memoryStore({ maxEntries: 1 });
    expect(await expiring.add('e', '', 0)).toBe(true);
    expect(await expiring.get('e')).toBeUndefined();
    expect(await expiring.add('f', '', 600)).toBe(true);
    expect(expiring.evicted).toBe(0);
  });

  it('a state that reaches a handler unverified (a server built without verifyRequestState): the client is told only that requestState is not configured, the log once what to pass', async () => {
    const file = path.join(work, 'unverified', 'mcp-migrate-state.mjs');
    writeModule(file, 'esm');
    const module = (await import(file)) as { resumable<T>(server: T): T; ask<T>(target: T): T };
    let handler: ((ctx: unknown) => Promise<unknown>) | undefined;
    const server = { registerTool: (_name: string, _config: unknown, h: (ctx: unknown) => Promise<unknown>) => void (handler = h) };
    const low = { getClientCapabilities: () => undefined, request: () => Promise.reject(new Error('no push on 2026-07-28')) };
    module
      .resumable(server)
      .registerTool('t', {}, async () =>
        module
          .ask(low as unknown as { elicitInput(params: never): Promise<unknown> })
          .elicitInput({ message: 'q', requestedSchema: { type: 'object', properties: {} } } as never),
      );
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };
    // Without the verify hook the SDK hands the handler the client's string as it came.
    const ctx = {
      mcpReq: {
        id: 1,
        method: 'tools/call',
        envelope,
        requestState: () => 'v1.forged.mac',
        inputResponses: { elicitation: { action: 'accept', content: {} } },
      },
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (let i = 0; i < 2; i++) await expect(handler!(ctx)).rejects.toThrow(/^requestState is not configured on this server$/);
      expect(logged.mock.calls.map(c => String(c[0]))).toEqual([
        expect.stringMatching(
          /^requestState reached a handler unverified: pass requestState: \{ verify: verifyRequestState \} in the server options/,
        ),
      ]);
    } finally {
      logged.mockRestore();
    }
  });

  it('typechecks under the strictest settings a project may use, erasable syntax only, without the DOM library; a replayed handler is typed by the SDK', () => {
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
        noImplicitOverride: true,
        noFallthroughCasesInSwitch: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noPropertyAccessFromIndexSignature: true,
        verbatimModuleSyntax: true,
        erasableSyntaxOnly: true,
        isolatedModules: true,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts'],
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      skipAddingFilesFromTsConfig: true,
    });
    project.addSourceFileAtPath(file);
    project.addSourceFileAtPath(path.join(work, `${STATE_SEAL_BASENAME}.ts`));
    project.createSourceFile(path.join(work, 'handler.ts'), HANDLER, { overwrite: true });
    expect(diagnosticsOf(project)).toEqual([]);
  });

  it('imports its seal without extension where the handlers import it so, which a bundler-resolved project typechecks', () => {
    const dir = path.join(work, 'extensionless');
    const file = path.join(dir, 'mcp-migrate-state.ts');
    writeModule(file, 'ts', { extensionless: true });
    expect(fs.readFileSync(file, 'utf8')).toContain(`from './${STATE_SEAL_BASENAME}';`);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(`${STATE_SEAL_BASENAME}.js`);
    const project = new Project({
      compilerOptions: {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      skipAddingFilesFromTsConfig: true,
    });
    project.addSourceFileAtPath(file);
    project.createSourceFile(
      path.join(dir, 'handler.ts'),
      `import { configureRequestState, memoryStore, redisStore, type RedisClient } from './mcp-migrate-state';\nconfigureRequestState({ store: memoryStore({ maxEntries: 10 }), userClaims: ['login'] });\nexport const shared = (client: RedisClient) => configureRequestState({ store: redisStore(client) });\n${HANDLER.replace("'./mcp-migrate-state.js'", "'./mcp-migrate-state'")}`,
      { overwrite: true },
    );
    expect(diagnosticsOf(project)).toEqual([]);
  });

  it('passes a strict checkJs project in ESM and CommonJS with its declarations beside it, which type what JavaScript handlers read', () => {
    const dir = path.join(work, 'checkjs');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          allowJs: true,
          checkJs: true,
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
        },
        include: ['*'],
      }),
    );
    for (const [flavour, ext] of [
      ['esm', '.mjs'],
      ['cjs', '.cjs'],
    ] as const) {
      const d = `.d.${ext.slice(1, 2)}ts`;
      expect(writeModule(path.join(dir, `mcp-migrate-state${ext}`), flavour, { declarations: true })).toEqual([
        `mcp-migrate-state${ext}`,
        `${STATE_SEAL_BASENAME}${ext}`,
        `mcp-migrate-state${d}`,
        `${STATE_SEAL_BASENAME}${d}`,
      ]);
      // The module's declarations name the seal's, as the module names the seal.
      expect(fs.readFileSync(path.join(dir, `mcp-migrate-state${d}`), 'utf8')).toContain(`from './${STATE_SEAL_BASENAME}${ext}';`);
    }
    // A JavaScript handler: what journaled work returns keeps its type; an answer is the SDK's result.
    fs.writeFileSync(
      path.join(dir, 'handler.js'),
      `import { McpServer } from '@modelcontextprotocol/server';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.mjs';

const server = new McpServer({ name: 'x', version: '1' }, { requestState: { verify: verifyRequestState } });
resumable(server).registerTool('plan', { description: 'plans' }, async () => {
  const trip = await journaled(async () => ({ id: 1 }));
  const answer = await ask(server.server).elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
  /** @type {number} */
  const id = trip.id;
  // @ts-expect-error: an elicitation's action is a string
  /** @type {number} */ const wrong = answer.action;
  void wrong;
  return { content: [{ type: 'text', text: \`\${id} \${answer.action}\` }] };
});
`,
    );
    const project = new Project({ tsConfigFilePath: path.join(dir, 'tsconfig.json') });
    expect(diagnosticsOf(project)).toEqual([]);
  });
});
