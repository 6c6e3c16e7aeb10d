/**
 * The `verify` command: `mcp-migrate verify --before "<cmd>" --after "<cmd>" [--scenario file.json]
 * [--timeout ms] [--json]`. Exit code 0 when every call agrees, 1 on a difference, 2 on a usage or fatal error.
 */
import { readFile } from 'node:fs/promises';
import type { Argv, CommandModule } from 'yargs';
import { parseScenario, ScenarioError, type Scenario } from './scenario.js';
// smoke.js and verify.js load both SDK clients: imported when the command runs, so that a migration run
// (the same binary) does not pay for them at start-up.

export interface VerifyCommandArgs {
  before?: string;
  after?: string;
  scenario?: string;
  timeout?: number;
  json?: boolean;
  http?: string;
}

export interface CommandIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

const USAGE = 'usage: mcp-migrate verify --before "<cmd>" --after "<cmd>" [--scenario file.json] [--http /path] [--timeout ms] [--json]';

/** The command's body, apart from yargs: returns the exit code. */
export async function runVerifyCommand(
  args: VerifyCommandArgs,
  io: CommandIO = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() },
): Promise<number> {
  const fail = (message: string): number => {
    io.stderr.write(`mcp-migrate verify: ${message}\n`);
    return 2;
  };
  if (!args.before || !args.after) return fail(`--before and --after are required\n${USAGE}`);
  if (args.timeout !== undefined && (!Number.isFinite(args.timeout) || args.timeout <= 0)) {
    return fail(`--timeout must be a positive number of milliseconds, got ${String(args.timeout)}`);
  }
  const timeoutMs = args.timeout;
  if (args.http !== undefined && !/^\/\S*$/.test(args.http))
    return fail(`--http takes the path the servers serve MCP at, such as /mcp; got ${JSON.stringify(args.http)}`);
  const http = args.http !== undefined ? { http: args.http } : {};
  let scenario: Scenario;
  if (args.scenario) {
    let text: string;
    try {
      text = await readFile(args.scenario, 'utf8');
    } catch (error) {
      return fail(`cannot read scenario ${args.scenario}: ${(error as Error).message}`);
    }
    try {
      scenario = parseScenario(JSON.parse(text));
    } catch (error) {
      const what = error instanceof ScenarioError ? error.message : `invalid JSON: ${(error as Error).message}`;
      return fail(`${args.scenario}: ${what}`);
    }
  } else {
    const { smokeScenario } = await import('./smoke.js');
    try {
      scenario = await smokeScenario(args.before, { cwd: io.cwd, ...http, ...(timeoutMs ? { timeoutMs } : {}) });
    } catch (error) {
      return fail(`smoke mode could not list the before server's tools and prompts: ${(error as Error).message}`);
    }
    if (!args.json) io.stderr.write(`No scenario given: smoke mode, ${scenario.calls.length} calls from the before server's listings.\n`);
  }
  if (scenario.calls.length === 0) return fail('the scenario has no calls: nothing to verify');

  const { formatVerifyTable, verify } = await import('./verify.js');
  let result;
  try {
    result = await verify({ before: args.before, after: args.after, scenario, cwd: io.cwd, ...http, ...(timeoutMs ? { timeoutMs } : {}) });
  } catch (error) {
    return fail(`verify failed: ${(error as Error).stack ?? String(error)}`);
  }
  if (args.json) io.stdout.write(JSON.stringify({ ok: result.ok, rows: result.rows, runs: result.runs }, null, 2) + '\n');
  else io.stdout.write(formatVerifyTable(result) + '\n');
  return result.ok ? 0 : 1;
}

export const verifyCommand: CommandModule<object, VerifyCommandArgs> = {
  command: 'verify',
  describe: 'Check that a migrated server answers like the original, on both protocol eras',
  builder: (yargs: Argv<object>) =>
    yargs
      .option('before', { type: 'string', describe: 'Shell command that starts the original server on stdio (or HTTP, see --http)' })
      .option('after', { type: 'string', describe: 'Shell command that starts the migrated server on stdio (or HTTP, see --http)' })
      .option('scenario', { type: 'string', describe: 'Scenario JSON file (default: smoke mode from the listings)' })
      .option('http', {
        type: 'string',
        describe: 'The servers speak Streamable HTTP at this path (e.g. /mcp): each command gets PORT, a free loopback port, to listen on',
      })
      .option('timeout', { type: 'number', describe: 'Timeout per round in milliseconds (default 10000)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }) as unknown as Argv<VerifyCommandArgs>,
  handler: async args => {
    process.exitCode = await runVerifyCommand(args);
  },
};
