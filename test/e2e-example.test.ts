/**
 * The bundled legacy example, migrated by mcp-migrate, served over stdio and called by real SDK
 * clients: the migrated server must give a 2026-07-28 client (and a 2025 client, through the
 * SDK's legacy shim) the same final results the unmigrated server gives a legacy client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';
import { formatVerifyTable, parseScenario, runScenario, verify } from '../src/verify/index.js';

const root = path.resolve(import.meta.dirname, '..');
const legacy = path.join(root, 'examples', 'legacy-server', 'src', 'server.ts');
const work = path.join(root, '.tmp', 'e2e-example');
const migrated = path.join(work, 'server.ts');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const env = { ...process.env, MCP_REQUEST_STATE_KEY: 'test-key-for-request-state-0123456789abcdef' };
const scenario = parseScenario(JSON.parse(fs.readFileSync(path.join(root, 'test', 'reference', 'scenario.json'), 'utf8')));

beforeAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const result = await migrateSources([{ path: migrated, text: fs.readFileSync(legacy, 'utf8') }], { cwd: work });
  for (const change of result.changes) fs.writeFileSync(change.path, change.after);
  expect(result.report.sites.length).toBeGreaterThan(0);
  expect(result.report.sites.every(s => s.outcome === 'rewritten')).toBe(true);
}, 600_000);

describe('bundled example, migrated', () => {
  it('gives the same final results on both eras as the legacy server gives a legacy client', async () => {
    const result = await verify({ before: `${tsx} ${legacy}`, after: `${tsx} ${migrated}`, scenario, env, timeoutMs: 120_000 });
    const table = formatVerifyTable(result);
    expect(result.ok, table).toBe(true);
    // decline and cancel reach the migrated handler as the legacy await returned them
    expect(table).toMatch(/greet decline\s+after, modern client\s+2\s+pass/);
    expect(table).toMatch(/greet cancel\s+after, modern client\s+2\s+pass/);
  }, 600_000);

  it('never sends a server-initiated request on the 2026-07-28 era', async () => {
    const run = await runScenario({ command: `${tsx} ${migrated}`, era: 'modern', scenario, env, timeoutMs: 120_000 });
    expect(run.fatal).toBeUndefined();
    expect(run.protocolVersion).toBe('2026-07-28');
    expect(run.violations).toEqual([]);
    for (const call of run.calls) expect(call.violations, call.name).toEqual([]);
    // plan-trip asks twice: three rounds of tools/call on the modern era
    expect(run.calls.find(c => c.name === 'plan-trip two rounds')?.rounds).toBe(3);
  }, 600_000);

  it('serves stdio without a requestState key: every round comes back to the same process, sealed with its own key', async () => {
    const noKey = { ...process.env };
    delete noKey.MCP_REQUEST_STATE_KEY;
    const result = await verify({ before: `${tsx} ${legacy}`, after: `${tsx} ${migrated}`, scenario, env: noKey, timeoutMs: 120_000 });
    expect(result.ok, formatVerifyTable(result)).toBe(true);
  }, 600_000);
});
