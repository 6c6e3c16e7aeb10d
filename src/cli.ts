#!/usr/bin/env node
/**
 * `mcp-migrate [paths..]`: the command line. Argument parsing, output and exit codes; the run itself is in run.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { formatDiffs, shouldColor } from './diff.js';
import { parseShard } from './files.js';
import { formatHuman, formatJson, type RunMode } from './format-report.js';
import { verifyCommand } from './verify/command.js';

export const EXIT_OK = 0;
export const EXIT_SITES_LEFT = 1;
export const EXIT_ERROR = 2;

class UsageError extends Error {}

interface MigrateArgs {
  paths?: string[];
  dryRun?: boolean;
  json?: boolean;
  check?: boolean;
  include?: string | string[];
  exclude?: string | string[];
  force?: boolean;
  upgrade?: boolean;
  color?: boolean;
  quiet?: boolean;
  shard?: string;
  jobs?: number;
}

function packageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'mcp-migrate' && pkg.version) return pkg.version;
      } catch {
        /* keep looking */
      }
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]).map(String);

const EPILOG = `Exit codes:
  0  done (with --check: nothing left to migrate, nothing would change)
  1  --check only: sites are left to migrate, or files would change
  2  usage error or fatal error (bad path, dirty git tree, pipeline failure)

Files that cannot be read, are binary, minified, not UTF-8 or too large,
and files the migration reports as errors, are left byte-identical and
reported; the other files are still migrated.
Globs use .gitignore syntax ({a,b} allowed), matched against paths
relative to the current directory or to the given path.`;

async function migrateHandler(argv: MigrateArgs): Promise<void> {
  const mode: RunMode = argv.check ? 'check' : argv.dryRun ? 'dry-run' : 'write';
  const cwd = process.cwd();
  const quiet = argv.quiet === true;
  const shard = argv.shard === undefined ? undefined : parseShard(String(argv.shard));
  if (argv.shard !== undefined && !shard) throw new UsageError(`--shard takes i/n with 1 <= i <= n (e.g. --shard 2/4), not ${JSON.stringify(String(argv.shard))}`);
  if (argv.jobs !== undefined && !(Number.isInteger(argv.jobs) && argv.jobs >= 1 && argv.jobs <= 64)) {
    throw new UsageError(`--jobs takes a whole number from 1 to 64, not ${JSON.stringify(String(argv.jobs))}`);
  }
  // Loaded here, not at the top: the pipeline is heavy and --help or a usage error should not wait for it.
  const { RunRefused, runMigration } = await import('./run.js');
  let result;
  try {
    result = await runMigration({
      paths: argv.paths?.length ? argv.paths : ['.'],
      cwd,
      mode,
      include: list(argv.include),
      exclude: list(argv.exclude),
      force: argv.force === true,
      upgradeV1: argv.upgrade !== false,
      progressStream: process.stderr,
      quiet,
      shard,
      threads: argv.jobs ?? (process.env.MCP_MIGRATE_IN_PROCESS === '1' ? 1 : undefined),
    });
  } catch (err) {
    if (err instanceof RunRefused) {
      process.stderr.write(`${err.message.startsWith('mcp-migrate') ? '' : 'mcp-migrate: '}${err.message}\n`);
    } else {
      const e = err as Error;
      process.stderr.write(`mcp-migrate: fatal: ${e?.message ?? String(err)}; no file was written\n`);
      if (process.env.MCP_MIGRATE_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
    }
    process.exitCode = EXIT_ERROR;
    return;
  }

  const { report, changes } = result;
  if (argv.json) {
    process.stdout.write(formatJson(report));
  } else if (mode !== 'write' && argv.dryRun) {
    process.stdout.write(formatDiffs(changes, { cwd, color: shouldColor(process.stdout, argv.color) }));
  }
  const human = formatHuman(report, { color: shouldColor(process.stderr, argv.color), quiet });
  if (human) process.stderr.write(human);
  process.exitCode = report.exitCode;
}

export async function main(argv: string[]): Promise<void> {
  // A closed pipe (`mcp-migrate --dry-run | head`) is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });

  const parser = yargs(argv)
    .scriptName('mcp-migrate')
    .usage('$0 [paths..]\n\nMigrate MCP servers from server-initiated requests to input_required results, in place.')
    .command<MigrateArgs>(
      '$0 [paths..]',
      'Migrate the sources under the given files or directories (default: .)',
      y =>
        y
          .positional('paths', { type: 'string', array: true, describe: 'Files or directories', default: undefined })
          .option('dry-run', { type: 'boolean', describe: 'Print the diff, write nothing' })
          .option('check', { type: 'boolean', describe: 'Write nothing; exit 1 if sites are left to migrate or files would change' })
          .option('json', { type: 'boolean', describe: 'Print the machine-readable report on stdout (and nothing else there)' })
          .option('include', { type: 'string', describe: 'Only files matching this glob (repeatable)' })
          .option('exclude', { type: 'string', describe: 'Leave out files matching this glob (repeatable)' })
          .option('force', { type: 'boolean', describe: 'Rewrite even when the git work tree has uncommitted changes' })
          .option('upgrade', {
            type: 'boolean',
            default: true,
            describe: 'Run the official v1-to-v2 codemod first (--no-upgrade to skip it)',
          })
          .option('color', { type: 'boolean', describe: 'Colour the output (default: when the stream is a terminal)' })
          .option('quiet', { alias: 'q', type: 'boolean', describe: 'Only errors on stderr: no summary, no site list, no progress' })
          .option('shard', {
            type: 'string',
            describe: 'Only shard i of n (e.g. 2/4): a stable split of the files by path, for parallel CI jobs run from the same directory',
          })
          .option('jobs', {
            alias: 'j',
            type: 'number',
            describe: 'Analyse in up to n threads (default: one per core, at most 4, when there are at least 40 files to analyse per thread)',
          }) as never,
      migrateHandler as never,
    )
    .command(verifyCommand as never)
    .command(
      'lsp',
      'Run the language server on stdio (diagnostics and code actions for editors)',
      y => y.option('stdio', { type: 'boolean', describe: 'Use stdio (the only transport; accepted for LSP clients that pass it)' }),
      async () => {
        const { startLanguageServer } = await import('./lsp/server.js');
        startLanguageServer();
      },
    )
    .epilog(EPILOG)
    .version(packageVersion())
    .help()
    .alias('h', 'help')
    .strict()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((msg, err) => {
      if (err && !msg) throw err;
      throw new UsageError(msg ?? err?.message ?? 'usage error');
    });

  try {
    await parser.parseAsync();
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`mcp-migrate: ${err.message}\nRun mcp-migrate --help for usage.\n`);
    } else {
      process.stderr.write(`mcp-migrate: fatal: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    process.exitCode = EXIT_ERROR;
  }
}

await main(hideBin(process.argv));
