/**
 * Every fixture the tool rewrites completely is a runnable server: migrated here with the whole
 * pipeline, both versions served over stdio (test/support/serve-fixture.ts), or over Streamable HTTP
 * by the fixture's own entry when it has one, and run through
 * `verify` with the fixture's scenario (__testfixtures__/scenarios/<name>.json): a legacy client
 * against the input, a 2026-07-28 client and a legacy client (SDK shim) against the output, the
 * final results and the input requests compared call by call.
 *
 * Where a tool's side effects are part of the fixture (a counter, a list, a log), a tool of the fixture
 * reads them back, so that work replayed twice on the 2026-07-28 era shows as a difference. A fixture the
 * migrated server still answers otherwise than the original shows a bug of the tool: it is listed in KNOWN
 * with its symptom, and its check is an it.fails that holds only while that symptom is there.
 *
 * Each run's table is written to .tmp/verify-fixtures/<name>/verify.txt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateSources, type MigrateResult } from '../src/pipeline.js';
import {
  MODERN_PROTOCOL_VERSION,
  formatVerifyTable,
  parseScenario,
  runScenario,
  smokeScenario,
  verify,
  type Scenario,
} from '../src/verify/index.js';
import { check, type Known } from './support/expectations.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, '__testfixtures__');
const scenarios = path.join(fixtures, 'scenarios');
// Inside the repo, so the migrated modules resolve the real SDK packages from node_modules.
const work = path.join(root, '.tmp', 'verify-fixtures');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const serve = `${tsx} ${path.join(root, 'test', 'support', 'serve-fixture.ts')}`;
// One instance serves each server: it seals requestState with a key of its own (a shared key would need a shared store).
const env = { ...process.env };
delete env.MCP_REQUEST_STATE_KEY;

const inputs = fs
  .readdirSync(fixtures)
  .filter(f => /\.input\.[a-z]+$/.test(f))
  .map(f => ({ name: f.replace(/\.input\.[a-z]+$/, ''), ext: path.extname(f), input: path.join(fixtures, f) }));
const withScenario = new Set(
  fs
    .readdirSync(scenarios)
    .filter(f => f.endsWith('.json'))
    .map(f => f.replace(/\.json$/, '')),
);

/** Migrates one fixture into its own directory and writes the result (output and requestState module). */
async function migrate(name: string, ext: string, input: string): Promise<{ file: string; result: MigrateResult }> {
  const dir = path.join(work, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}${ext}`);
  const result = await migrateSources([{ path: file, text: fs.readFileSync(input, 'utf8') }], { cwd: dir });
  for (const change of result.changes) fs.writeFileSync(change.path, change.after);
  return { file, result };
}

function loadScenario(name: string): Scenario {
  return parseScenario(JSON.parse(fs.readFileSync(path.join(scenarios, `${name}.json`), 'utf8')));
}

const refuses = (answer: Record<string, unknown>) => answer.action === 'decline' || answer.action === 'cancel';

/**
 * The fixtures whose migrated server answers otherwise than the original, each for a bug of the tool (the
 * fixture's comment says which): the rows that differ, on the 2026-07-28 era only.
 */
const KNOWN: Record<string, Known> = {};

describe('every fully rewritten fixture passes verify on both eras', () => {
  it('has a scenario for each fixture it rewrites completely, and a fixture for each scenario', async () => {
    for (const name of withScenario)
      expect(
        inputs.map(i => i.name),
        `scenarios/${name}.json`,
      ).toContain(name);
    // Fixtures without a scenario must be ones the tool leaves (partly) unmigrated: nothing to verify.
    for (const { name, ext, input } of inputs.filter(i => !withScenario.has(i.name))) {
      const { result } = await migrate(name, ext, input);
      const sites = result.report.sites;
      expect(
        sites.length === 0 || sites.some(s => s.outcome !== 'rewritten'),
        `${name} is fully rewritten: add scenarios/${name}.json`,
      ).toBe(true);
    }
  }, 600_000);

  for (const { name, ext, input } of inputs.filter(i => withScenario.has(i.name))) {
    check(
      `${name}`,
      KNOWN[name],
      async () => {
        const scenario = loadScenario(name);
        const { file, result: migration } = await migrate(name, ext, input);
        expect(migration.report.sites.length, name).toBeGreaterThan(0);
        expect(
          migration.report.sites.filter(s => s.outcome !== 'rewritten'),
          name,
        ).toEqual([]);

        // A fixture with a Streamable HTTP entry serves itself on PORT: verify runs it over HTTP.
        const http = migration.report.sites.some(s => s.kind === 'entry');
        const servers = http
          ? { before: `${tsx} ${input}`, after: `${tsx} ${file}`, http: '/mcp' }
          : { before: `${serve} ${input}`, after: `${serve} ${file}` };
        const result = await verify({ ...servers, scenario, env, timeoutMs: 120_000 });
        const table = formatVerifyTable(result);
        fs.writeFileSync(path.join(work, name, 'verify.txt'), `${table}\n`);
        expect(result.ok, table).toBe(true);
        // The eras really differ: the migrated server speaks 2026-07-28 to the modern client only.
        expect(result.runs.modern.protocolVersion, table).toBe(MODERN_PROTOCOL_VERSION);
        expect(result.runs.before.protocolVersion, table).not.toBe(MODERN_PROTOCOL_VERSION);
        expect(result.runs.shim.protocolVersion, table).not.toBe(MODERN_PROTOCOL_VERSION);
        // On the modern era every request for input went out as input_required and came back on a retry.
        for (const call of result.runs.modern.calls) {
          if (call.requests.length > 0) expect(call.rounds, `${call.name}\n${table}`).toBeGreaterThan(1);
        }

        // A fixture that elicits answers at least one decline or cancel, delivered on every run.
        const elicits = result.runs.before.calls.some(c => c.requests.some(r => r.method === 'elicitation/create'));
        if (elicits) {
          const refused = scenario.calls.flatMap((call, index) => ((call.answers?.elicitation ?? []).some(refuses) ? [index] : []));
          expect(refused.length, `scenarios/${name}.json answers no elicitation with decline or cancel`).toBeGreaterThan(0);
          for (const index of refused) {
            for (const run of ['before', 'modern', 'shim'] as const) {
              expect(
                result.runs[run].calls[index]!.requests.some(r => r.method === 'elicitation/create'),
                `${scenario.calls[index]!.name} (${run})\n${table}`,
              ).toBe(true);
            }
            expect(
              result.rows.filter(r => r.index === index).map(r => r.ok),
              table,
            ).toEqual([true, true, true]);
          }
        }
      },
      600_000,
    );
  }

  it('lists only fixtures that have a scenario among the known failures', () => {
    expect(Object.keys(KNOWN).filter(name => !withScenario.has(name))).toEqual([]);
  });
});

describe('serve-fixture', () => {
  const call = { name: 'hello', method: 'tools/call' as const, params: { name: 'hello', arguments: {} }, answers: {} };

  it('serves a server the module builds at its top level but does not export', async () => {
    const dir = path.join(work, 'unexported');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'server.ts');
    fs.writeFileSync(
      file,
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "const hidden = new McpServer({ name: 'hidden', version: '1.0.0' });",
        "hidden.registerTool('hello', {}, async () => ({ content: [{ type: 'text', text: 'hi' }] }));",
        '',
      ].join('\n'),
    );
    const run = await runScenario({ command: `${serve} ${file}`, era: 'legacy', scenario: { calls: [call] }, timeoutMs: 120_000 });
    expect(run.fatal, run.stderr).toBeUndefined();
    expect(run.serverInfo?.name).toBe('hidden');
    expect(run.calls[0]!.result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
  }, 600_000);

  it('refuses a module that defines no MCP server, saying so', async () => {
    const look = inputs.find(i => i.name === 'look-alike')!;
    const run = await runScenario({ command: `${serve} ${look.input}`, era: 'legacy', scenario: { calls: [call] }, timeoutMs: 120_000 });
    expect(run.connected).toBe(false);
    expect(run.stderr).toMatch(
      /serve-fixture: .*look-alike\.input\.ts imports neither @modelcontextprotocol\/sdk nor @modelcontextprotocol\/server/,
    );
  }, 600_000);
});

describe('a client that declares no sampling capability', () => {
  it('reaches the catch of a migrated try/catch exactly as the legacy await did', async () => {
    const fixture = inputs.find(i => i.name === 'loops-and-try')!;
    const { file } = await migrate('loops-and-try-no-sampling', fixture.ext, fixture.input);
    const scenario: Scenario = {
      calls: [{ name: 'careful without sampling', method: 'tools/call', params: { name: 'careful' }, answers: {} }],
    };
    const capabilities = { elicitation: { form: {} }, roots: { listChanged: false } };
    const before = await runScenario({
      command: `${serve} ${fixture.input}`,
      era: 'legacy',
      scenario,
      capabilities,
      env,
      timeoutMs: 120_000,
    });
    const modern = await runScenario({ command: `${serve} ${file}`, era: 'modern', scenario, capabilities, env, timeoutMs: 120_000 });
    const expected = { content: [{ type: 'text', text: 'careful: no sampling (error)' }] };
    expect(before.calls[0]!.result).toEqual(expected);
    expect(modern.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(modern.calls[0]!.error, modern.stderr).toBeUndefined();
    expect(modern.calls[0]!.result).toMatchObject(expected);
    expect(modern.calls[0]!.requests).toEqual([]);
  }, 600_000);
});

describe('a client that declares no sampling capability, in a try/catch/finally', () => {
  it('reaches the catch as the legacy await did, and the finally runs once', async () => {
    const fixture = inputs.find(i => i.name === 'try-finally')!;
    const { file } = await migrate('try-finally-no-sampling', fixture.ext, fixture.input);
    const scenario: Scenario = {
      calls: [
        { name: 'publish without sampling', method: 'tools/call', params: { name: 'publish', arguments: { topic: 'rain' } }, answers: {} },
        { name: 'ledger', method: 'tools/call', params: { name: 'ledger' }, answers: {} },
      ],
    };
    const capabilities = { elicitation: { form: {} }, roots: { listChanged: false } };
    const before = await runScenario({
      command: `${serve} ${fixture.input}`,
      era: 'legacy',
      scenario,
      capabilities,
      env,
      timeoutMs: 120_000,
    });
    const modern = await runScenario({ command: `${serve} ${file}`, era: 'modern', scenario, capabilities, env, timeoutMs: 120_000 });
    expect(
      before.calls.map(c => c.error),
      before.stderr,
    ).toEqual([undefined, undefined]);
    // The legacy await's capability error, handled by the catch; the finally ran once, before any request.
    expect(before.calls[0]!.result).toEqual({ content: [{ type: 'text', text: 'rain not published: a request failed' }] });
    expect(before.calls[1]!.result).toEqual({ content: [{ type: 'text', text: 'publish rain: drafted' }] });
    expect(modern.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(
      modern.calls.map(c => c.error),
      modern.stderr,
    ).toEqual([undefined, undefined]);
    for (const [index, call] of modern.calls.entries()) expect(call.result, call.name).toMatchObject(before.calls[index]!.result as object);
    expect(modern.calls[0]!.requests).toEqual([]);
  }, 600_000);
});

describe('smoke mode', () => {
  it('lists a server that has prompts but no tools', async () => {
    const fixture = inputs.find(i => i.name === 'prompt-and-resource')!;
    const scenario = await smokeScenario({ command: `${serve} ${fixture.input}`, env }, { timeoutMs: 120_000 });
    expect(scenario.calls.map(c => `${c.method} ${String(c.params.name)}`)).toEqual(['prompts/get standup']);
  }, 600_000);
});
