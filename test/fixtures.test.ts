/**
 * The transform's input/output pairs (jscodeshift's __testfixtures__ convention), run through the
 * whole pipeline (official v1-to-v2 codemod, analysis, rewrite). Every output must typecheck
 * against the real @modelcontextprotocol/server 2.x types and be a fixed point of the tool.
 *
 * UPDATE_FIXTURES=1 rewrites the .output files from the current tool (review the diff!).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';
import { stateModuleText } from '../src/stateModule.js';
import { countByShape } from '../src/report.js';
import { causeOf } from '../src/tables/causes.js';
import { FRAMEWORK_IMPORT } from '../src/tables/frameworks.js';
import { markEsm, typecheckFiles, typeScriptFilesIn } from './support/typecheck.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, '__testfixtures__');
// Migrated outside the repository with nothing installed, as a project that has not installed its
// dependencies yet: what the tool finds must not depend on what the project has installed.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-fixtures-'));
// Typechecked inside the repository, so the outputs resolve the real SDK 2.x packages from node_modules.
const checkWork = path.join(root, '.tmp', 'fixtures');
const names = fs
  .readdirSync(fixtures)
  .filter(f => /\.input\.[a-z]+$/.test(f))
  .map(f => ({ name: f.replace(/\.input\.[a-z]+$/, ''), ext: path.extname(f) }));

interface Outcome {
  name: string;
  ext: string;
  input: string;
  output: string;
  result: MigrateResult;
  dir: string;
}
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  for (const { name, ext } of names) {
    const dir = path.join(work, name);
    fs.mkdirSync(dir, { recursive: true });
    const input = fs.readFileSync(path.join(fixtures, `${name}.input${ext}`), 'utf8');
    const file = path.join(dir, `${name}${ext}`);
    const result = await migrateSources([{ path: file, text: input }], { cwd: dir });
    const output = result.changes.find(c => c.path === file)?.after ?? input;
    for (const c of result.changes) fs.writeFileSync(c.path, c.after);
    if (!result.changes.some(c => c.path === file)) fs.writeFileSync(file, input);
    outcomes.set(name, { name, ext, input, output, result, dir });
    if (process.env.UPDATE_FIXTURES) fs.writeFileSync(path.join(fixtures, `${name}.output${ext}`), output);
  }
  // Minutes on a loaded machine: never a reason to fail.
}, 900_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('__testfixtures__', () => {
  for (const { name, ext } of names) {
    it(`${name}: output matches ${name}.output${ext}`, () => {
      const expected = fs.readFileSync(path.join(fixtures, `${name}.output${ext}`), 'utf8');
      expect(outcomes.get(name)!.output).toBe(expected);
    });
  }

  it('rewrites every site of the positive fixtures and leaves none silently', () => {
    for (const o of outcomes.values()) {
      for (const site of o.result.report.sites) {
        if (site.outcome === 'marked') expect(o.output, `${o.name}: ${site.file}:${site.line}`).toContain(`// mcp-migrate: ${site.reason}`);
        else expect(site.outcome).toBe('rewritten');
      }
    }
    const rewritten = ['elicit-form', 'sampling', 'roots', 'extra-send-request', 'v2-push-style', 'if-else', 'promise-all', 'low-level-server', 'prompt-and-resource', 'aliased-import', 'javascript-esm', 'loops-and-try', 'try-finally', 'for-in-and-await', 'switch-dispatch', 'http-stateless', 'http-sessionful', 'awaits-in-expressions'];
    for (const name of rewritten) {
      const sites = outcomes.get(name)!.result.report.sites;
      expect(sites.length, name).toBeGreaterThan(0);
      expect(sites.every(s => s.outcome === 'rewritten'), name).toBe(true);
    }
  });

  it('leaves look-alike methods on non-MCP objects byte-identical', () => {
    const o = outcomes.get('look-alike')!;
    expect(o.result.changes).toEqual([]);
    expect(o.result.report.sites).toEqual([]);
  });

  it('marks what it cannot migrate, with the reason', () => {
    const reasons = (name: string) => outcomes.get(name)!.result.report.sites.map(s => s.reason).join('\n');
    expect(reasons('not-a-handler')).toMatch(/oninitialized/);
    expect(reasons('not-a-handler')).toMatch(/helper askAge\(\)/);
    // askName is only called from a handler: inlined there, migrated, and removed.
    expect(outcomes.get('not-a-handler')!.result.report.notes).toContainEqual(expect.stringMatching(/askName\(\) removed: every call to it was inlined/));
    expect(outcomes.get('not-a-handler')!.output).not.toMatch(/function askName/);
    // A recursive helper: marked at the call with the cycle, never unrolled.
    const insist = outcomes.get('not-a-handler')!.result.report.sites.find(s => s.handler === 'tools/call insist');
    expect(insist).toMatchObject({ outcome: 'marked', kind: 'elicitation', call: 'askUntilYes(...)', shape: 'helper' });
    expect(insist!.reason).toMatch(/^askUntilYes\(\) → askUntilYes\(\) is a cycle of helpers: not inlined/);
    expect(outcomes.get('not-a-handler')!.output).toMatch(/const ready = await askUntilYes\(3\);/);
    expect(reasons('http-entry')).toMatch(/NodeStreamableHTTPServerTransport is not moved to createMcpHandler: a sessionful transport is made for each request without looking the session up/);
    expect(reasons('http-entry')).toMatch(/the server "server" is set up inside the request handler/);
    expect(reasons('http-entry')).toMatch(/one transport, made at startup, serves every request/);
    expect(reasons('http-entry')).toMatch(/the server is built from req, a value of the request handler \(a factory is declared outside it; it gets the request as ctx\.requestInfo/);
    expect(reasons('http-entry')).toMatch(/handleRequest reads the request body from the stream/);
    expect(reasons('http-entry')).toMatch(/checks hosts or origins \(enableDnsRebindingProtection, allowedHosts\), which createMcpHandler leaves to the caller/);
    // A server class declaring SDK 1.x's tool() again: the codemod's registerTool() skips it, so its callback is no SDK handler.
    expect(reasons('server-subclass-tool-override')).toMatch(/registerTool\(\) on an instance of LoggingServer, which declares tool\(\) of its own: SDK 2\.x's McpServer has no tool\(\)/);
    // A result schema of the project: migrated, the answer would be read as the SDK's ElicitResult, its checks dropped.
    expect(reasons('request-custom-result-schema')).toMatch(/the answer is parsed with ConfirmResultSchema, not the SDK's ElicitResultSchema imported by name/);
    expect(reasons('unsupported-shapes')).toMatch(/"started" \(a Date\)/);
    expect(reasons('unsupported-shapes')).toMatch(/cleanup this roots request is left as it is \(2025-era clients only\): the await is inside a finally block/);
    expect(reasons('unsupported-shapes')).toMatch(/in a callback passed to map\(\)/);
    expect(reasons('unsupported-shapes')).toMatch(/two server-initiated requests are awaited in one statement/);
    expect(reasons('unsupported-shapes')).toMatch(/mixed this elicitation request is left as it is \(2025-era clients only\): the await is inside a for await\.\.\.of over an iterable of type AsyncGenerator<string, void, unknown>, not an array/);
    expect(reasons('generator-and-callbacks')).toMatch(/elicitation request in generator askAll\(\): a generator hands out its results one yield at a time/);
    expect(reasons('generator-and-callbacks')).toMatch(/sampling request in a callback passed to run\(\)/);
    expect(outcomes.get('generator-and-callbacks')!.result.report.sites.every(s => s.outcome === 'marked')).toBe(true);
    // The SDK's resources/list and completion callbacks are said to answer those requests.
    expect(outcomes.get('request-in-sdk-callbacks')!.result.report.sites.map(s => `${s.outcome} ${causeOf(s).id} ${s.reason.split(':')[0]}`)).toEqual([
      'marked other-request-handler roots request in the list callback of a ResourceTemplate, which answers resources/list, not tools/call, prompts/get or resources/read',
      'marked other-request-handler roots request in the completion callback of completable(), which answers completion/complete, not tools/call, prompts/get or resources/read',
    ]);
    // A table entry's context, typed by the table through an alias of RequestHandlerExtra: its request is found and marked.
    expect(outcomes.get('table-entry-typed-context')!.result.report.sites.map(s => `${s.outcome} ${s.kind} ${s.call}`)).toEqual(['marked elicitation extra.sendRequest(...)']);
    // A request whose arguments change a local the round carries: rewritten, its request built before its state is sealed.
    expect(outcomes.get('request-arguments-change-local')!.result.report.sites.map(s => s.outcome)).toEqual(['rewritten']);
    // A Promise.all awaiting a load after its request: rewritten, the load awaited where the round suspends and its value carried.
    expect(outcomes.get('promise-all-other-element')!.result.report.sites.map(s => s.outcome)).toEqual(['rewritten']);
    // A Promise executor and a function called where it is written: said to be callbacks, not helpers.
    expect(outcomes.get('request-in-inline-functions')!.result.report.sites.map(s => `${s.outcome} ${causeOf(s).id} ${s.reason.split(':')[0]}`)).toEqual([
      'marked callback elicitation request in a callback passed to new Promise()',
      'marked callback elicitation request in a function called where it is written ((async () => { ... })())',
    ]);
    // A rewritten request's options are dropped, and the report says so.
    expect(outcomes.get('request-options-dropped')!.result.report.notes).toContainEqual(
      expect.stringMatching(/request-options-dropped\.ts:\d+: tools\/call confirm: the options of server\.server\.elicitInput\(\.\.\.\) \(\{ timeout: 30_000, signal: ctx\.mcpReq\.signal \}\) are dropped/)
    );
    // A request in a class's getter is said to be there, not at module level.
    const accessor = outcomes.get('request-in-class-accessor')!.result.report.sites;
    expect(accessor.map(s => `${s.outcome} ${causeOf(s).id}`)).toEqual(['marked class-member']);
    expect(accessor[0]!.reason).toMatch(/^elicitation request in the getter confirmation of class Confirmer, not in a handler: /);
    const mixed = outcomes.get('unsupported-shapes')!.result.report.sites.filter(s => s.handler === 'tools/call mixed');
    expect(mixed.map(s => s.outcome).sort()).toEqual(['marked', 'rewritten']);
  });

  it("marks each request sent through a framework's own API with that framework's guidance, never a look-alike", () => {
    const marked = (name: string) => outcomes.get(name)!.result.report.sites.map(s => `${s.outcome} ${s.kind} ${s.call} ${causeOf(s).id}`);
    expect(marked('framework-fastmcp')).toEqual([
      'marked elicitation context.elicit(...) fastmcp-request',
      'marked elicitation elicit(...) fastmcp-request',
      'marked sampling session.requestSampling(...) fastmcp-request',
      'marked elicitation context.elicit(...) fastmcp-request',
    ]);
    expect(marked('framework-mcp-framework')).toEqual(['marked sampling this.samplingRequest(...) mcp-framework-request', 'marked elicitation this.elicit(...) mcp-framework-request']);
    expect(marked('framework-mcp-use')).toEqual(['marked sampling ctx.sample(...) mcp-use-request', 'marked elicitation ctx.elicit(...) mcp-use-request']);
    expect(marked('framework-mcp-agent')).toEqual(['marked elicitation this.server.server.elicitInput(...) mcp-agent-request', 'marked elicitation this.elicitInput(...) mcp-agent-request']);
    // A framework's own source: the base-class helpers are the API to redesign, each subclass call is reported.
    expect(marked('framework-base-class')).toEqual([
      'marked sampling this.server.createMessage(...) framework-helper',
      'marked elicitation this.server.elicitInput(...) framework-helper',
      'marked sampling this.samplingRequest(...) framework-helper-call',
      'marked elicitation this.confirm(...) framework-helper-call',
    ]);
    // What the framework offers for 2026-07-28, in the marker.
    expect(outcomes.get('framework-fastmcp')!.output).toMatch(/mcp-migrate: .*no fastmcp release serves MCP 2026-07-28 yet/);
    expect(outcomes.get('framework-mcp-use')!.output).toMatch(/mcp-migrate: .*mcp-use 2\.x serves MCP 2026-07-28/);
    // An McpAgent runs an SDK 1.x server only: its file is not upgraded to 2.x.
    const agent = outcomes.get('framework-mcp-agent')!;
    expect(agent.output).toContain("from '@modelcontextprotocol/sdk/server/mcp.js'");
    expect(agent.result.report.notes).toContainEqual(expect.stringMatching(/left on SDK 1\.x, not upgraded: McpAgent runs an SDK 1\.x McpServer only/));
  });

  it('takes only a recursion that reaches a request for a site: a recursive walk beside a request is left alone', () => {
    const o = outcomes.get('recursion')!;
    const sites = o.result.report.sites;
    expect(sites.filter(s => s.handler === 'tools/call tree').map(s => `${s.outcome} ${s.call}`)).toEqual(['rewritten server.server.elicitInput(...)']);
    expect(o.output).not.toMatch(/mcp-migrate: (isEven|isOdd|depth|countNodes)\(\)/);
    const prune = sites.find(s => s.handler === 'tools/call prune');
    expect(prune).toMatchObject({ outcome: 'marked', call: 'confirmEach(...)', shape: 'helper' });
    expect(prune!.reason).toMatch(/^confirmEach\(\) → confirmEach\(\) is a cycle of helpers: not inlined/);
  });

  it('warns at generation time about carried values whose size the type does not bound', () => {
    const notes = outcomes.get('loops-and-try')!.result.report.notes;
    expect(notes.some(n => /tools\/call survey carries "answers" \(an array\) in requestState; a state over 16 KiB is kept in the server's store/.test(n))).toBe(true);
    expect(outcomes.get('elicit-form')!.result.report.notes.some(n => /carries/.test(n))).toBe(false);
  });

  it("keeps the official codemod's @mcp-codemod-error markers and reports them", () => {
    const o = outcomes.get('codemod-markers')!;
    expect(o.output).toMatch(/\/\* @mcp-codemod-error Destructuring of context parameter in signature/);
    expect(o.result.report.upgrade.some(n => /Destructuring of context parameter/.test(n.message))).toBe(true);
  });

  it('counts sites per control-flow shape', () => {
    expect(countByShape(outcomes.get('loops-and-try')!.result.report)).toEqual({
      loop: { rewritten: 3, marked: 0, skipped: 0 },
      try: { rewritten: 1, marked: 0, skipped: 0 }
    });
    expect(countByShape(outcomes.get('try-finally')!.result.report)).toEqual({ try: { rewritten: 5, marked: 0, skipped: 0 } });
    expect(countByShape(outcomes.get('for-in-and-await')!.result.report)).toEqual({
      loop: { rewritten: 2, marked: 0, skipped: 0 },
      try: { rewritten: 1, marked: 0, skipped: 0 }
    });
    expect(countByShape(outcomes.get('unsupported-shapes')!.result.report).try).toEqual({ rewritten: 0, marked: 1, skipped: 0 });
  });

  it('hoists awaits inside expressions and counts them as their own shape', () => {
    const o = outcomes.get('awaits-in-expressions')!;
    expect(countByShape(o.result.report)).toEqual({ expression: { rewritten: 11, marked: 0, skipped: 0 } });
    // Reported where they were written: each line and column holds the call.
    const lines = o.input.split('\n');
    for (const site of o.result.report.sites) expect(lines[site.line - 1]!.slice(site.column - 1), `${site.line}:${site.column}`).toMatch(/^server\.server\.(elicitInput|createMessage|listRoots)\(/);
    // Two requests of one expression go out in one round.
    expect(o.output).toMatch(/call\.suspend\([^\n]*\{\n\s+answer: inputRequired\.elicit\([^\n]*\n\s+sample: inputRequired\.createMessage\(/);
    // The effect before the request runs in the first phase only; the one after it in the resuming phase.
    expect(o.output).toMatch(/const tickResult = tick\(\);\n\s+return call\.suspend/);
    expect(o.output).toMatch(/const summary = \[tickResult, answer\.action, tick\(\)\];/);
  });

  it('migrates requests in callbacks awaited through the project\'s own pass-through wrappers, and says what to review', () => {
    const split = outcomes.get('awaited-callback-split')!;
    expect(split.result.report.sites.map(s => `${s.outcome} ${s.shape}`)).toEqual(['rewritten callback', 'rewritten callback']);
    expect(split.result.report.notes).toContainEqual(expect.stringMatching(/^awaited-callback-split\.ts:\d+: tools\/call archive: span\(\) now runs once per round/));
    expect(split.output).toMatch(/\/\/ mcp-migrate: span\(\) now runs once per round[^\n]*\n\s+return tracer\.span\('archive', async span => \{\n\s+\/\/ mcp-migrate: input_required phases/);
    const unwrap = outcomes.get('awaited-callback-unwrap')!;
    expect(unwrap.result.report.notes).toContainEqual(expect.stringMatching(/^awaited-callback-unwrap\.ts:\d+: tools\/call deploy: withTimeout\(\) no longer surrounds this question/));
    expect(unwrap.output).not.toMatch(/withTimeout\(async/);
    const causes = outcomes.get('awaited-callbacks-refused')!.result.report.sites.map(s => `${s.outcome} ${causeOf(s).id}`);
    expect(causes).toEqual(['marked callback-under-lock', 'marked callback-wrapper-not-pass-through', 'marked callback-parameter-changed', 'marked callback-result-not-returned']);
  });

  it('batches independent requests into one round', () => {
    const out = outcomes.get('promise-all')!.output;
    // roots and sampling from Promise.all go out together; the two adjacent elicitations too.
    expect(out).toMatch(/call\.suspend\([^\n]*\{\n\s+rootsResult: [\s\S]*?sample: /);
    expect(out).toMatch(/call\.suspend\([^\n]*\{\n\s+first: [\s\S]*?second: /);
    expect(out.match(/resumed\.step === '[\w-]+'/g)).toEqual(["resumed.step === 'start'", "resumed.step === 'awaiting-roots-result-and-sample'", "resumed.step === 'awaiting-first-and-second'"]);
  });

  it('every output typechecks against the real SDK 2.x types (but for manual changes the official codemod asks for)', () => {
    fs.rmSync(checkWork, { recursive: true, force: true });
    fs.cpSync(work, checkWork, { recursive: true });
    markEsm(checkWork);
    // Except where the official codemod itself asks for a manual change (its @mcp-codemod-error marker), or
    // a marker of ours says a request left as it is fails on SDK 2.x.
    // Frameworks built on the SDK (fastmcp, mcp-framework...) are not installed here: their fixtures are left out.
    const checked = [...outcomes.values()].filter(o => !o.output.includes('@mcp-codemod-error') && !/\/\/ mcp-migrate: .*fails on SDK 2\.x/.test(o.output) && !FRAMEWORK_IMPORT.test(o.output));
    expect(typecheckFiles(typeScriptFilesIn(checked.map(o => path.join(checkWork, o.name))), checkWork)).toEqual([]);
  }, 600_000);

  it('says so when an existing requestState module, made by an earlier version, lacks a helper the rewrite imports', async () => {
    const o = outcomes.get('capability-guard')!;
    const dir = path.join(work, 'capability-guard-old-module');
    fs.mkdirSync(dir, { recursive: true });
    // (as the build emits it, in four spaces: the run wrote it in the fixture's two)
    const module = stateModuleText('ts');
    const without = module
      .replace(/\/\*\* The client's capabilities for this request[\s\S]*?\n}\n/, '')
      .replace(/\n *\/\*\* What to throw for a step[^\n]*\n *unknownStep\(resumed: Step\)[^\n]*/, '')
      .replace(/\n *unknownStep\(resumed\) \{[\s\S]*?\n {8}\}/, '');
    expect(without).not.toContain('clientCapabilities');
    expect(without).not.toContain('unknownStep');
    fs.writeFileSync(path.join(dir, 'mcp-migrate-state.ts'), without);
    // With the seal the module imports: an earlier run wrote both.
    fs.copyFileSync(path.join(o.dir, 'mcp-migrate-state-seal.ts'), path.join(dir, 'mcp-migrate-state-seal.ts'));
    const file = path.join(dir, 'capability-guard.ts');
    const result = await migrateSources([{ path: file, text: o.input }], { cwd: dir });
    expect(result.report.created).toEqual([]);
    expect(result.report.notes).toContainEqual(expect.stringMatching(/^mcp-migrate-state\.ts has no clientCapabilities, the bound call's unknownStep method, which the rewritten handlers use: .*delete it and run again/));
    // One from before named steps (its calls resume numbered phases): deleting it would break the handlers it serves, and the note says so.
    fs.writeFileSync(path.join(dir, 'mcp-migrate-state.ts'), without.replace(/\n( *)async run\(phases\)/, '\n$1unknownPhase(resumed) {\n$1    return invalid(String(resumed));\n$1},\n$1async run(phases)'));
    expect(fs.readFileSync(path.join(dir, 'mcp-migrate-state.ts'), 'utf8')).toMatch(/^ *unknownPhase\(resumed\) \{$/m);
    const numbered = await migrateSources([{ path: file, text: o.input }], { cwd: dir });
    expect(numbered.report.notes).toContainEqual(expect.stringMatching(/^mcp-migrate-state\.ts comes from an mcp-migrate before named steps: .*have the earlier handlers dispatch on steps too/));
    // With the module as this version writes it, nothing is said.
    fs.writeFileSync(path.join(dir, 'mcp-migrate-state.ts'), module);
    const current = await migrateSources([{ path: file, text: o.input }], { cwd: dir });
    expect(current.report.notes.filter(n => n.includes(' has no '))).toEqual([]);
  });

  it('is idempotent: running on its own output changes nothing', async () => {
    for (const o of outcomes.values()) {
      const file = path.join(o.dir, `${o.name}${o.ext}`);
      const again = await migrateSources([{ path: file, text: o.output }], { cwd: o.dir });
      expect(again.changes.filter(c => c.path === file), o.name).toEqual([]);
    }
  }, 900_000);
});
