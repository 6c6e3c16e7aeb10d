/**
 * verify against real server processes and real SDK clients over stdio (no protocol mocks).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compareRuns,
  formatVerifyTable,
  parseScenario,
  runScenario,
  runVerifyCommand,
  smokeScenario,
  verify,
  type RunResult,
  type Scenario,
} from '../src/verify/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsx = `"${process.execPath}" "${join(root, 'node_modules/tsx/dist/cli.mjs')}"`;
const LEGACY = `${tsx} examples/legacy-server/src/server.ts`;
const HAND = `${tsx} test/reference/hand-migrated-server.ts`;
const BROKEN = `${tsx} test/reference/broken-migrated-server.ts`;
const env = { MCP_REQUEST_STATE_KEY: 'verify-test-key-0123456789abcdef0123456789' };
const server = (command: string) => ({ command, cwd: root, env });
const scenarioFile = join(root, 'test/reference/scenario.json');
const scenario: Scenario = parseScenario(JSON.parse(readFileSync(scenarioFile, 'utf8')));
const TIMEOUT = 20_000;

function text(result: unknown): string {
  const r = result as { content?: { text?: string }[]; messages?: { content: { text?: string } }[] };
  return (r.content ?? r.messages?.map(m => m.content) ?? []).map(c => c.text).join(' | ');
}

function call(run: RunResult, name: string) {
  const found = run.calls.find(c => c.name === name);
  if (!found) throw new Error(`no call ${name}`);
  return found;
}

describe('verify with the bundled example and the reference migrations', () => {
  // One process per run, shared by the tests below: the legacy baseline once, the two migrations on both eras.
  let runs: Record<'before' | 'handModern' | 'handShim' | 'brokenModern' | 'brokenShim', RunResult>;

  beforeAll(async () => {
    const [before, handModern, handShim, brokenModern, brokenShim] = await Promise.all([
      runScenario({ ...server(LEGACY), era: 'legacy', scenario, timeoutMs: TIMEOUT }),
      runScenario({ ...server(HAND), era: 'modern', scenario, timeoutMs: TIMEOUT }),
      runScenario({ ...server(HAND), era: 'legacy', scenario, timeoutMs: TIMEOUT }),
      runScenario({ ...server(BROKEN), era: 'modern', scenario, timeoutMs: TIMEOUT }),
      runScenario({ ...server(BROKEN), era: 'legacy', scenario, timeoutMs: TIMEOUT }),
    ]);
    runs = { before, handModern, handShim, brokenModern, brokenShim };
  }, 600_000);

  it('the legacy example answers the scenario on the 2025 era', () => {
    const { before } = runs;
    expect(before.fatal).toBeUndefined();
    expect(before.protocolVersion).toBe('2025-11-25');
    expect(text(call(before, 'greet accept').result)).toBe('Hello, Ada. You feel curious.');
    expect(text(call(before, 'greet decline').result)).toBe('Hello, Ada. No mood shared (decline).');
    expect(text(call(before, 'greet cancel').result)).toBe('Hello, Grace. No mood shared (cancel).');
    expect(text(call(before, 'summarize').result)).toBe('Summary: Servers ask, clients answer.');
    expect(text(call(before, 'count-roots').result)).toBe('2 roots: a, file:///b');
    expect(text(call(before, 'plan-trip two rounds').result)).toBe(
      'Plan for 3 days in Lisbon: trams, tiles, tarts | Planning started at day-6.',
    );
    expect(text(call(before, 'plan-trip declined').result)).toBe('Trip to Lisbon cancelled.');
    expect(text(call(before, 'review prompt').result)).toContain('focusing on naming');
    // Defaults: elicitation accepts with "test" for a string property.
    expect(text(call(before, 'review prompt defaults').result)).toContain('focusing on test');
    expect(call(before, 'plan-trip two rounds').rounds).toBe(3);
    expect(call(before, 'plan-trip two rounds').requests.map(r => r.method)).toEqual(['elicitation/create', 'sampling/createMessage']);
  });

  it('passes for the hand-migrated server on both eras', () => {
    const result = compareRuns({ before: runs.before, modern: runs.handModern, shim: runs.handShim });
    const table = formatVerifyTable(result);
    expect(result.ok, table).toBe(true);
    expect(result.rows).toHaveLength(scenario.calls.length * 3);
    expect(runs.handModern.protocolVersion).toBe('2026-07-28');
    expect(runs.handShim.protocolVersion).toBe('2025-11-25');
    // Modern rounds count the retries: one per sequential await of the legacy code, plus the final answer.
    expect(call(runs.handModern, 'plan-trip two rounds').rounds).toBe(3);
    expect(call(runs.handModern, 'plan-trip declined').rounds).toBe(2);
    expect(call(runs.handModern, 'count-roots').rounds).toBe(2);
    expect(table).toMatch(/OK: 27\/27 rows pass/);
  });

  it('the modern run of the hand-migrated server never sees a server→client request', () => {
    const modern = runs.handModern;
    expect(modern.fatal).toBeUndefined();
    expect(modern.violations).toEqual([]);
    for (const c of modern.calls) {
      expect(c.violations, c.name).toEqual([]);
      expect(c.error, c.name).toBeUndefined();
    }
    // The embedded requests still reached the client's handlers (through input_required), in the legacy order.
    expect(call(modern, 'plan-trip two rounds').requests.map(r => r.method)).toEqual(['elicitation/create', 'sampling/createMessage']);
  });

  it('fails for the broken migration, naming the call and the first difference', () => {
    const result = compareRuns({ before: runs.before, modern: runs.brokenModern, shim: runs.brokenShim });
    const table = formatVerifyTable(result);
    expect(result.ok).toBe(false);

    const failing = result.rows.filter(r => !r.ok).map(r => `${r.call}/${r.run}`);
    expect(failing).toEqual(
      expect.arrayContaining([
        'greet decline/modern',
        'greet decline/shim',
        'greet cancel/modern',
        'plan-trip two rounds/modern',
        'plan-trip two rounds/shim',
        'summarize/modern',
      ]),
    );
    expect(result.rows.find(r => r.call === 'greet accept' && r.run === 'modern')?.ok).toBe(true);

    const decline = result.rows.find(r => r.call === 'greet decline' && r.run === 'modern')!;
    expect(decline.difference).toMatchObject({
      in: 'result',
      path: 'result.content[0].text',
      before: 'Hello, Ada. No mood shared (decline).',
      after: 'Hello, Ada. You feel undefined.',
    });
    // Results are compared before requests, so the wrong variable shows in the final text first.
    const plan = result.rows.find(r => r.call === 'plan-trip two rounds' && r.run === 'modern')!;
    expect(plan.difference).toMatchObject({ in: 'result', path: 'result.content[0].text' });
    const summarize = result.rows.find(r => r.call === 'summarize' && r.run === 'shim')!;
    expect(summarize.difference).toMatchObject({ in: 'requests', path: 'requests[0].params.maxTokens', before: 100, after: 50 });

    expect(table).toContain('greet decline');
    expect(table).toContain('FAIL final result differs');
    expect(table).toContain('greet decline (after, modern client): final result at result.content[0].text');
    expect(table).toContain('before: "Hello, Ada. No mood shared (decline)."');
    expect(table).toContain('after:  "Hello, Ada. You feel undefined."');
    expect(table).toContain('summarize (after, legacy client): input requests at requests[0].params.maxTokens');
    expect(table).toMatch(/FAILED: \d+\/27 rows pass/);
  });
});

describe('verify failures', () => {
  it('reports an SDK 1.x server under a 2026-07-28 client as a failed connect', async () => {
    const run = await runScenario({
      ...server(LEGACY),
      era: 'modern',
      scenario: { calls: scenario.calls.slice(0, 1) },
      timeoutMs: TIMEOUT,
    });
    expect(run.connected).toBe(false);
    // The pinned v2 client opens with server/discover; the 1.x server answers -32601 and the pin has no fallback.
    expect(run.fatal).toMatch(/did not offer pinned protocol version 2026-07-28/);
    expect(run.fatal).toMatch(/answered server\/discover with error -32601 "Method not found"/);
    expect(run.calls[0]!.error?.message).toMatch(/^not run: connect failed \(modern client\)/);

    const result = compareRuns({ before: run, modern: run, shim: run });
    expect(result.ok).toBe(false);
    expect(formatVerifyTable(result)).toContain('Run failures:');
  }, 600_000);

  it('reports a server that exits immediately, with its stderr', async () => {
    const command = `"${process.execPath}" -e "console.error('boom: no config'); process.exit(3)"`;
    const [legacy, modern] = await Promise.all([
      runScenario({ command, era: 'legacy', scenario, timeoutMs: 120_000 }),
      runScenario({ command, era: 'modern', scenario, timeoutMs: 120_000 }),
    ]);
    for (const run of [legacy, modern]) {
      expect(run.connected).toBe(false);
      expect(run.fatal).toMatch(/connect failed/);
      expect(run.fatal).toContain('boom: no config');
      expect(run.exit?.code).toBe(3);
      expect(run.calls).toHaveLength(scenario.calls.length);
    }
  }, 600_000);

  it('reports a server that hangs, and one that writes garbage, within the timeout', async () => {
    const hang = `"${process.execPath}" -e "setInterval(() => {}, 1000)"`;
    const garbage = `"${process.execPath}" -e "console.log('listening on stdio...'); setInterval(() => {}, 1000)"`;
    const [legacy, modern, noisy] = await Promise.all([
      runScenario({ command: hang, era: 'legacy', scenario, timeoutMs: 10_000 }),
      runScenario({ command: hang, era: 'modern', scenario, timeoutMs: 10_000 }),
      runScenario({ command: garbage, era: 'legacy', scenario, timeoutMs: 10_000 }),
    ]);
    for (const run of [legacy, modern, noisy]) {
      expect(run.connected).toBe(false);
      expect(run.fatal).toMatch(/connect failed/i);
      expect(run.fatal).toMatch(/no reply to (initialize|server\/discover) within 10000 ms/);
    }
    expect(noisy.violations[0]).toMatch(/non-JSON-RPC line to stdout: "listening on stdio..."/);
    // The child is gone (killed with its process group).
    expect(legacy.exit).toBeDefined();
    expect(modern.exit).toBeDefined();
  }, 600_000);

  it('reports a server that crashes mid-call, with its exit code and stderr', async () => {
    const command = `"${process.execPath}" test/reference/raw-server.mjs crash-on-call`;
    const run = await runScenario({ command, cwd: root, era: 'legacy', scenario, timeoutMs: 120_000 });
    expect(run.connected).toBe(true);
    expect(run.calls[0]!.error?.message).toMatch(/server exited with code 7/);
    expect(run.fatal).toMatch(/server exited with code 7 during "greet accept"/);
    expect(run.fatal).toContain('fatal: tool handler blew up');
    expect(run.calls[1]!.error?.message).toMatch(/^not run:/);
  }, 600_000);

  it('ends a run that exceeds its overall timeout, even while a call waits', async () => {
    const command = `"${process.execPath}" test/reference/raw-server.mjs hang-on-call`;
    const run = await runScenario({ command, cwd: root, era: 'legacy', scenario, timeoutMs: 300_000, totalTimeoutMs: 20_000 });
    expect(run.connected).toBe(true);
    expect(run.fatal).toMatch(/run did not finish within 20000 ms/);
    expect(run.calls[0]!.error?.message).toMatch(/run did not finish within 20000 ms/);
    expect(run.calls).toHaveLength(scenario.calls.length);
    expect(run.exit).toBeDefined();
  }, 600_000);

  it('flags a server→client request on a 2026-07-28 connection and fails the call at once', async () => {
    const command = `"${process.execPath}" test/reference/raw-server.mjs push-on-modern`;
    const run = await runScenario({
      command,
      cwd: root,
      era: 'modern',
      scenario: { calls: scenario.calls.slice(0, 2) },
      timeoutMs: 20_000,
    });
    expect(run.connected).toBe(true);
    expect(run.protocolVersion).toBe('2026-07-28');
    for (const c of run.calls) {
      expect(c.violations).toEqual([
        expect.stringMatching(/server sent a JSON-RPC request \(elicitation\/create\) on a 2026-07-28 connection/),
      ]);
      expect(c.error).toBeDefined();
    }
    const result = compareRuns({ before: run, modern: run, shim: run });
    expect(result.ok).toBe(false);
    expect(formatVerifyTable(result)).toContain('FAIL protocol violation: server sent a JSON-RPC request (elicitation/create)');
  }, 600_000);
});

describe('smoke mode and the command', () => {
  it('smoke mode on the hand-migrated server covers every tool and prompt and passes against the example', async () => {
    const smoke = await smokeScenario(server(HAND));
    expect(smoke.calls.map(c => c.name).sort()).toEqual([
      'prompt review',
      'tool count-roots',
      'tool greet',
      'tool plan-trip',
      'tool summarize',
    ]);
    expect(smoke.calls.find(c => c.name === 'tool greet')?.params).toEqual({ name: 'greet', arguments: { name: 'test' } });
    expect(smoke.calls.find(c => c.name === 'prompt review')?.params).toEqual({ name: 'review', arguments: { code: 'test' } });

    const result = await verify({ before: LEGACY, after: HAND, scenario: smoke, cwd: root, env, timeoutMs: TIMEOUT });
    expect(result.ok, formatVerifyTable(result)).toBe(true);
  }, 600_000);

  it('the command exits 1 on a difference, with the table, and 2 on usage errors', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, cwd: root };
    const dir = await mkdtemp(join(tmpdir(), 'verify-'));
    const decline = join(dir, 'scenario.json');
    await writeFile(decline, JSON.stringify({ calls: [scenario.calls[1]] }));
    try {
      const code = await runVerifyCommand({ before: LEGACY, after: BROKEN, scenario: decline, timeout: TIMEOUT }, io);
      expect(code, err.join('')).toBe(1);
      expect(out.join('')).toContain('greet decline (after, modern client): final result at result.content[0].text');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    expect(await runVerifyCommand({ before: LEGACY }, io)).toBe(2);
    expect(err.join('')).toContain('--before and --after are required');
    expect(await runVerifyCommand({ before: LEGACY, after: HAND, scenario: join(root, 'nope.json') }, io)).toBe(2);
    expect(await runVerifyCommand({ before: LEGACY, after: HAND, timeout: -1 }, io)).toBe(2);
  }, 600_000);
});

describe('verify over Streamable HTTP', () => {
  const STATELESS = `${tsx} test/http-servers/express-stateless.ts`;

  it('gives the command a free PORT, connects over HTTP and lists the tools in smoke mode', async () => {
    const smoke = await smokeScenario({ ...server(STATELESS), http: '/mcp' }, { timeoutMs: TIMEOUT });
    expect(smoke.calls.map(c => c.name).sort()).toEqual(['tool confirm', 'tool echo']);
    const echo: Scenario = { calls: [{ name: 'echo', method: 'tools/call', params: { name: 'echo', arguments: { text: 'over http' } } }] };
    const run = await runScenario({ ...server(STATELESS), http: '/mcp', era: 'legacy', scenario: echo, timeoutMs: TIMEOUT });
    expect(run.fatal, run.stderr).toBeUndefined();
    expect(run.serverInfo?.name).toBe('express-stateless-fixture');
    expect(text(run.calls[0]!.result)).toBe('over http');
    expect(run.calls[0]!.rounds).toBe(1);
  }, 600_000);

  it('reports a server that exits before listening, and one that never listens on PORT', async () => {
    const exits = `"${process.execPath}" -e "console.error('no config'); process.exit(3)"`;
    const deaf = `"${process.execPath}" -e "setInterval(() => {}, 1000)"`;
    const [exited, silent] = await Promise.all([
      runScenario({ command: exits, http: '/mcp', era: 'modern', scenario, timeoutMs: 1_500 }),
      runScenario({ command: deaf, http: '/mcp', era: 'legacy', scenario, timeoutMs: 1_500 }),
    ]);
    expect(exited.connected).toBe(false);
    expect(exited.fatal).toMatch(/server exited with code 3 before listening on 127\.0\.0\.1:\d+/);
    expect(exited.fatal).toContain('no config');
    expect(silent.connected).toBe(false);
    expect(silent.fatal).toMatch(/did not listen on 127\.0\.0\.1:\d+ within 3000 ms \(is it reading PORT\?\)/);
    expect(silent.exit).toBeDefined();
  }, 600_000);

  it('the command takes --http and refuses a value that is not a path', async () => {
    const err: string[] = [];
    const io = { stdout: { write: () => undefined }, stderr: { write: (t: string) => err.push(t) }, cwd: root };
    expect(await runVerifyCommand({ before: STATELESS, after: STATELESS, http: 'localhost:3000' }, io)).toBe(2);
    expect(err.join('')).toContain('--http takes the path the servers serve MCP at, such as /mcp');
  });
});
