/**
 * The composite GitHub Action (action.yml): its shape, and its script steps run locally as the runner
 * would run them (bash -eo pipefail, the step's env and working directory, `${{ }}` expressions
 * evaluated, GITHUB_OUTPUT read back), on a project with something left and on one with nothing left.
 * The `uses:` steps (setup-node, upload-sarif) belong to GitHub: only their inputs are checked.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, LEGACY_SERVER, makeTree, PLAIN_SOURCE, REPO, removeTree } from './cli-helpers.js';

interface Step {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  runs: { using: string; steps: Step[] };
  inputs: Record<string, { default?: string; description: string }>;
  outputs: Record<string, { value: string }>;
}

const action = parse(readFileSync(path.join(REPO, 'action.yml'), 'utf8')) as Action;

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string> }>;
  github: Record<string, string>;
}

/** The little of GitHub's expression language the action uses: paths, 'strings', ==, !=, &&, always(). */
function evaluate(expression: string, ctx: Context): string | boolean {
  const ands = expression.split('&&').map(s => s.trim());
  const truthy = (v: string | boolean) => v === true || (typeof v === 'string' && v !== '');
  if (ands.length > 1) return ands.every(part => truthy(evaluate(part, ctx)));
  const cmp = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(expression);
  if (cmp) {
    const [left, right] = [evaluate(cmp[1]!, ctx), evaluate(cmp[3]!, ctx)];
    return cmp[2] === '==' ? left === right : left !== right;
  }
  if (expression === 'always()') return true;
  const literal = /^'(.*)'$/.exec(expression);
  if (literal) return literal[1]!;
  const [root, ...rest] = expression.split('.');
  let value: unknown = (ctx as unknown as Record<string, unknown>)[root!];
  for (const key of rest) value = (value as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : '';
}

function substitute(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, e: string) => String(evaluate(e, ctx)));
}

function condition(step: Step, ctx: Context): boolean {
  if (!step.if) return true;
  const e = /^\$\{\{\s*([\s\S]+?)\s*\}\}$/.exec(step.if.trim())?.[1] ?? step.if;
  return evaluate(e, ctx) === true;
}

interface StepRun {
  name: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run the action's script steps in `workspace` with the given inputs, as a runner would. */
function runAction(workspace: string, inputs: Record<string, string>): { runs: StepRun[]; ctx: Context } {
  const defaults = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
  const ctx: Context = { inputs: { ...defaults, ...inputs }, steps: {}, github: { action_path: REPO, workspace } };
  const runs: StepRun[] = [];
  for (const step of action.runs.steps) {
    if (!step.run || !condition(step, ctx)) continue;
    const output = path.join(workspace, `.github-output-${runs.length}`);
    writeFileSync(output, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, ctx)]));
    const cwd = path.resolve(workspace, substitute(step['working-directory'] ?? '.', ctx));
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', substitute(step.run, ctx)], {
      cwd,
      env: { ...process.env, ...env, GITHUB_OUTPUT: output, GITHUB_WORKSPACE: workspace },
      encoding: 'utf8',
      timeout: 600_000,
    });
    runs.push({ name: step.name, status: r.status, stdout: r.stdout, stderr: r.stderr });
    const outputs = Object.fromEntries(
      readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(l => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    if (step.id) ctx.steps[step.id] = { outputs };
    if (r.status !== 0) break;
  }
  return { runs, ctx };
}

const trees: string[] = [];
beforeAll(assertBuilt);
afterAll(async () => {
  await Promise.all(trees.splice(0).map(removeTree));
});

describe('action.yml', () => {
  it('is a composite action that checks, uploads the SARIF log to code scanning and fails on what is left', () => {
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    const check = steps.find(s => s.id === 'check')!;
    expect(check.run).toContain('--check --format sarif');
    const upload = steps.find(s => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.with?.sarif_file).toBe('${{ steps.check.outputs.sarif-file }}');
    expect(upload.if).toContain('always()');
    expect(steps.findIndex(s => s === upload)).toBeGreaterThan(steps.findIndex(s => s === check));
    expect(action.outputs['exit-code']!.value).toBe('${{ steps.check.outputs.exit-code }}');
    for (const step of steps) if (step.run) expect(step.shell, step.name).toBe('bash');
  });

  it('on a project with a site left: writes a SARIF log with it, outputs exit code 1 and fails the job', { timeout: 600_000 }, async () => {
    const workspace = await makeTree({
      'src/server.ts': LEGACY_SERVER,
      'src/helper.ts':
        "import { McpServer } from '@modelcontextprotocol/server';\nexport async function ask(s: McpServer) {\n  return s.server.listRoots();\n}\n",
    });
    trees.push(workspace);
    const { runs, ctx } = runAction(workspace, { paths: 'src', args: '--exclude src/nothing/**' });
    expect(runs.map(r => [r.name, r.status])).toEqual([
      ['Build mcp-migrate', 0],
      ['mcp-migrate --check', 0],
      ['Fail when something is left to migrate', 1],
    ]);
    expect(ctx.steps.check!.outputs['exit-code']).toBe('1');
    const sarifFile = ctx.steps.check!.outputs['sarif-file']!;
    expect(sarifFile).toBe(path.join(workspace, 'mcp-migrate.sarif'));
    const sarif = JSON.parse(readFileSync(sarifFile, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain('helper-body');
    expect(runs[1]!.stderr).toContain('check failed');
    expect(runs[2]!.stdout).toContain('::error::mcp-migrate --check: something is left to migrate');
  });

  it('on a project with nothing left: exit code 0, the job passes; fail-on-left false never fails it', { timeout: 600_000 }, async () => {
    const workspace = await makeTree({ 'src/a.ts': PLAIN_SOURCE });
    trees.push(workspace);
    const { runs, ctx } = runAction(workspace, {});
    expect(runs.map(r => [r.name, r.status])).toEqual([
      ['Build mcp-migrate', 0],
      ['mcp-migrate --check', 0],
    ]);
    expect(ctx.steps.check!.outputs['exit-code']).toBe('0');
    expect(JSON.parse(readFileSync(path.join(workspace, 'mcp-migrate.sarif'), 'utf8')).runs[0].results).toEqual([]);

    const left = await makeTree({ 'src/server.ts': LEGACY_SERVER });
    trees.push(left);
    const relaxed = runAction(left, { 'fail-on-left': 'false', 'sarif-file': 'report.sarif' });
    expect(relaxed.runs.map(r => r.status)).toEqual([0, 0]);
    expect(relaxed.ctx.steps.check!.outputs['exit-code']).toBe('1');
  });

  it('stops with the exit code when mcp-migrate cannot run (exit 2), after writing its outputs', { timeout: 600_000 }, async () => {
    const workspace = await makeTree({ 'src/a.ts': PLAIN_SOURCE });
    trees.push(workspace);
    const { runs, ctx } = runAction(workspace, { paths: 'no-such-dir' });
    expect(runs.map(r => [r.name, r.status])).toEqual([
      ['Build mcp-migrate', 0],
      ['mcp-migrate --check', 2],
    ]);
    expect(ctx.steps.check!.outputs['exit-code']).toBe('2');
    const sarif = JSON.parse(readFileSync(path.join(workspace, 'mcp-migrate.sarif'), 'utf8'));
    expect(sarif.runs[0].invocations[0].executionSuccessful).toBe(false);
  });
});
