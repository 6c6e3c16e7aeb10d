/**
 * The official conformance tool (@modelcontextprotocol/conformance, run on Node 22: test/support/node22.ts)
 * against a legacy SDK 1.x server written to the tool's server contract (test/conformance), migrated
 * by mcp-migrate into a project under the system's temp directory and served three ways: stateless
 * Streamable HTTP, sessionful Streamable HTTP, and stdio through a stdio-to-HTTP bridge. Each runs
 * the 2026-07-28 requirement set once; over stateless HTTP the 2025-11-25 set runs too, against the
 * original and the migrated server, and every check the original passes the migrated one must pass.
 *
 * Every check of the 14 input-required-result scenarios must pass, with no failure and no warning
 * (a first call that already carries the answers completes in that request); the rest of the set
 * must pass over HTTP except what the original server never had, each named. Through the bridge
 * only the input-required scenarios are judged: the others test HTTP itself (headers, streams, Host
 * checks), which the bridge does not carry.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';
import { freeLoopbackPort, waitForPort } from '../src/verify/http.js';
import { node22 } from './support/node22.js';
import { stdioBridge, type Bridge } from './support/stdio-bridge.js';

const root = path.resolve(import.meta.dirname, '..');
const tsxCli = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const conformanceCli = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const REVISION = '2026-07-28';
// One instance serves each server: it seals requestState with a key of its own (a shared key would need a shared store).
const env = { ...process.env };
delete env.MCP_REQUEST_STATE_KEY;

/** The scenarios the requirement set scores for a server (its frozen `server:` list). */
const required = (() => {
  const yaml = fs.readFileSync(
    path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'requirements', `${REVISION}.yaml`),
    'utf8',
  );
  return /^server:\n((?:  - .+\n)+)/m
    .exec(yaml)![1]!
    .split('\n')
    .map(l => l.replace(/^ {2}- /, '').trim())
    .filter(Boolean);
})();
const inputRequired = required.filter(s => s.startsWith('input-required-result-'));

/** Checks that do not pass because the original 1.x server never had what they test. */
const ORIGINAL_LACKS: Record<string, string> = {
  'server-stateless:sep-2575-server-rejects-undeclared-capability': 'the diagnostic tool test_missing_capability',
  'server-stateless:sep-2575-missing-capability-http-400': 'the diagnostic tool test_missing_capability',
  'server-stateless:sep-2575-http-server-no-independent-requests-on-stream': 'the diagnostic tool test_streaming_elicitation',
  'server-stateless:sep-2575-server-sends-prompts-list-changed-on-subscription':
    'a prompt list that changes (a SHOULD, reported as a warning)',
  'server-stateless:sep-2575-server-sends-tools-list-changed-on-subscription': 'a tool list that changes (a SHOULD, reported as a warning)',
  'dns-rebinding-protection:localhost-host-rebinding-rejected': 'Host and Origin checks on its HTTP entry',
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let project: string;
let node: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  node = node22();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-conformance-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(project, 'node_modules'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  const sources = path.join(root, 'test', 'conformance');
  const files = fs.readdirSync(sources).map(f => ({ path: path.join(project, f), text: fs.readFileSync(path.join(sources, f), 'utf8') }));
  const result = await migrateSources(files, { cwd: project });
  expect(result.report.sites.filter(s => s.outcome !== 'rewritten')).toEqual([]);
  for (const change of result.changes) fs.writeFileSync(change.path, change.after);
}, 900_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/** Serves an HTTP entry of the migrated project (or of `dir`, the original) on a free port. */
async function serveHttp(entry: string, dir = project): Promise<string> {
  const port = await freeLoopbackPort();
  const child: ChildProcess = spawn(process.execPath, [tsxCli, entry], {
    cwd: dir,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanups.push(() => child.kill());
  let stderr = '';
  child.stderr!.on('data', chunk => (stderr += chunk));
  let exited: string | undefined;
  child.on('exit', code => (exited = `${entry} exited with ${code}: ${stderr}`));
  await waitForPort(port, 20_000, () => exited);
  return `http://127.0.0.1:${port}/mcp`;
}

/** Runs a requirement set against `url`; every check of every scenario, by `scenario:check`. */
async function conformance(url: string, revision = REVISION): Promise<Map<string, Check>> {
  const out = fs.mkdtempSync(path.join(project, 'results-'));
  const child = spawn(node, [conformanceCli, 'server', '--url', url, '--requirements', revision, '-o', out], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', chunk => (output += chunk));
  child.stderr.on('data', chunk => (output += chunk));
  await new Promise(resolve => child.on('exit', resolve));
  const checks = new Map<string, Check>();
  for (const dir of fs.readdirSync(out)) {
    const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
    const file = path.join(out, dir, 'checks.json');
    // a scenario that ended without checks is not counted as run
    if (!fs.existsSync(file)) continue;
    for (const check of JSON.parse(fs.readFileSync(file, 'utf8')) as Check[]) checks.set(`${scenario}:${check.id}`, check);
  }
  expect(checks.size, output).toBeGreaterThan(0);
  return checks;
}

/** The checks of `scenarios` that failed or warned (INFO and SKIPPED judge nothing), with why. */
function notPassed(checks: Map<string, Check>, scenarios: string[]): Record<string, string> {
  const failed: Record<string, string> = {};
  for (const [key, check] of checks) {
    if (['FAILURE', 'WARNING'].includes(check.status) && scenarios.includes(key.slice(0, key.indexOf(':'))))
      failed[key] = `${check.status}: ${check.errorMessage ?? ''}`;
  }
  return failed;
}

/** Each of the 14 input-required scenarios ran, and every one of their checks succeeded: no failure, no warning. */
function expectInputRequiredPass(checks: Map<string, Check>): void {
  const ran = new Set([...checks.keys()].map(k => k.slice(0, k.indexOf(':'))));
  expect(inputRequired.filter(s => !ran.has(s))).toEqual([]);
  const other = [...checks].filter(([key, check]) => inputRequired.includes(key.slice(0, key.indexOf(':'))) && check.status !== 'SUCCESS');
  expect(Object.fromEntries(other.map(([key, check]) => [key, `${check.status}: ${check.errorMessage ?? ''}`]))).toEqual({});
}

/** Each scenario ran, and every listed exception is the one expected (nothing else fails). */
function expectOnly(checks: Map<string, Check>, scenarios: string[], exceptions: Record<string, string>): void {
  const ran = new Set([...checks.keys()].map(k => k.slice(0, k.indexOf(':'))));
  expect(scenarios.filter(s => !ran.has(s))).toEqual([]);
  const failed = notPassed(checks, scenarios);
  expect(Object.keys(failed).sort(), JSON.stringify(failed, null, 2)).toEqual(
    Object.keys(exceptions)
      .filter(k => scenarios.includes(k.slice(0, k.indexOf(':'))))
      .sort(),
  );
}

describe(`the conformance tool's ${REVISION} requirement set against the migrated legacy server`, () => {
  it('lists 14 input-required-result scenarios in the set', () => {
    expect(inputRequired).toHaveLength(14);
  });

  for (const entry of ['http-stateless.ts', 'http-sessionful.ts']) {
    it(`over ${entry.replace(/\.ts$/, '').replace('http-', '')} Streamable HTTP: all 14 input-required scenarios with no warning, and the set but for what the original lacked`, async () => {
      const checks = await conformance(await serveHttp(entry));
      expectInputRequiredPass(checks);
      expectOnly(checks, required, ORIGINAL_LACKS);
    }, 900_000);
  }

  it('over stateless Streamable HTTP, the 2025-11-25 set: every check the original server passes, the migrated one passes', async () => {
    // The original, as written for SDK 1.x, beside the migrated project.
    const original = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-conformance-original-'));
    cleanups.push(() => fs.rmSync(original, { recursive: true, force: true }));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(original, 'node_modules'));
    fs.writeFileSync(path.join(original, 'package.json'), JSON.stringify({ type: 'module' }));
    for (const f of fs.readdirSync(path.join(root, 'test', 'conformance')))
      fs.copyFileSync(path.join(root, 'test', 'conformance', f), path.join(original, f));
    const before = await conformance(await serveHttp('http-stateless.ts', original), '2025-11-25');
    const after = await conformance(await serveHttp('http-stateless.ts'), '2025-11-25');
    const passed = [...before].filter(([, check]) => check.status === 'SUCCESS').map(([key]) => key);
    expect(passed.length).toBeGreaterThan(0);
    const lost = Object.fromEntries(
      passed
        .filter(key => after.get(key)?.status !== 'SUCCESS')
        .map(key => [key, `${after.get(key)?.status ?? 'not run'}: ${after.get(key)?.errorMessage ?? ''}`]),
    );
    expect(lost).toEqual({});
  }, 900_000);

  it('over stdio through the bridge: all 14 input-required scenarios, with no warning', async () => {
    const bridge: Bridge = await stdioBridge(process.execPath, [tsxCli, 'stdio.ts'], { cwd: project, env });
    cleanups.push(() => bridge.close());
    const checks = await conformance(bridge.url);
    expectInputRequiredPass(checks);
  }, 900_000);
});
