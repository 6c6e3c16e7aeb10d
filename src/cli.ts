#!/usr/bin/env node
/**
 * `mcp-migrate [paths..]`: the command line. Argument parsing, output and exit codes; the run itself is in run.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { formatDiffs, shouldColor } from './diff.js';
import { parseShard } from './files.js';
import { formatSarif, formatSarifError } from './sarif.js';
import { EXIT_ERROR, EXIT_FAILED, EXIT_LEFT, EXIT_OK, EXIT_WONT_START, formatHuman, formatJson, type RunMode } from './format-report.js';
import { MAX_THREADS, MIN_FILES_PER_THREAD } from './threadLimits.js';
import { verifyCommand } from './verify/command.js';

export { EXIT_ERROR, EXIT_FAILED, EXIT_LEFT, EXIT_OK, EXIT_WONT_START };

/** What stdout carries: the diff (under --dry-run) and nothing else, or one machine-readable report. */
export type OutputFormat = 'text' | 'json' | 'sarif';

class UsageError extends Error {}

interface MigrateArgs {
  paths?: string[];
  dryRun?: boolean;
  json?: boolean;
  format?: OutputFormat;
  check?: boolean;
  include?: string | string[];
  exclude?: string | string[];
  force?: boolean;
  upgrade?: boolean;
  color?: boolean;
  quiet?: boolean;
  shard?: string;
  jobs?: number;
  runFormatter?: boolean;
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
  ${EXIT_OK}  done (with --check: nothing left to migrate, nothing would change)
  ${EXIT_LEFT}  --check only: something is left: a site to migrate by hand, code the
     official codemod could not migrate (@mcp-codemod-error), a skipped file
     that imports the SDK, a patch of @modelcontextprotocol/sdk (patch-package)
     the 2.x packages make useless, a failed file, or a file that would change
  ${EXIT_ERROR}  usage error or fatal error (bad path, dirty git tree): nothing written
  ${EXIT_FAILED}  some files could not be migrated or written: they are left as they
     were and reported; the others were migrated
  ${EXIT_WONT_START}  migrated, but the migrated server throws at start-up until the places
     the report marks so are migrated by hand (with --check: 1)
  130/143  interrupted (SIGINT/SIGTERM) while writing: temporary files are
     removed, files already written stay; run again to complete

Files that cannot be read, are binary, minified, not UTF-8 or too large are
left byte-identical and reported; the other files are still migrated.
Globs use .gitignore syntax ({a,b} allowed), matched against paths
relative to the current directory or to the given path.`;

/** The report format: `--format`, or `--json` for `--format json`. */
function outputFormat(argv: MigrateArgs): OutputFormat {
  if (argv.json && argv.format && argv.format !== 'json')
    throw new UsageError(`--json and --format ${argv.format} ask for two reports on stdout; pick one`);
  return argv.json ? 'json' : (argv.format ?? 'text');
}

/** The report format the arguments ask for, read without the parser (which may be what failed). */
function requestedFormat(argv: readonly string[]): OutputFormat {
  if (argv.includes('--json')) return 'json';
  const at = argv.findIndex(a => a === '--format' || a.startsWith('--format='));
  const value = at < 0 ? undefined : argv[at]!.includes('=') ? argv[at]!.slice('--format='.length) : argv[at + 1];
  return value === 'json' || value === 'sarif' ? value : 'text';
}

/** A fatal error where stdout promised a machine-readable report: a report of the error, so a pipeline reading it sees why. */
function writeErrorReport(format: OutputFormat, kind: 'usage' | 'refused' | 'fatal', message: string): void {
  if (format === 'json')
    process.stdout.write(`${JSON.stringify({ schemaVersion: 1, error: { kind, message }, exitCode: EXIT_ERROR }, null, 2)}\n`);
  if (format === 'sarif') process.stdout.write(formatSarifError(message, EXIT_ERROR, { cwd: process.cwd(), version: packageVersion() }));
}

/** SIGINT/SIGTERM during the writes: what was done, what was not, and the conventional exit code. */
function reportInterrupt(signal: NodeJS.Signals, progress: { written: string[]; left: string[] }): void {
  const { written, left } = progress;
  process.stderr.write(
    `\nmcp-migrate: interrupted by ${signal} while writing: ${written.length} of ${written.length + left.length} files written, temporary files removed.\n` +
      (left.length
        ? `Not written: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ` and ${left.length - 10} more` : ''}. Run mcp-migrate again to complete the migration (with --force in a git work tree: the files written so far are uncommitted changes now).\n`
        : ''),
  );
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

async function migrateHandler(argv: MigrateArgs): Promise<void> {
  const mode: RunMode = argv.check ? 'check' : argv.dryRun ? 'dry-run' : 'write';
  const cwd = process.cwd();
  const quiet = argv.quiet === true;
  const format = outputFormat(argv);
  const shard = argv.shard === undefined ? undefined : parseShard(String(argv.shard));
  if (argv.shard !== undefined && !shard)
    throw new UsageError(`--shard takes i/n with 1 <= i <= n (e.g. --shard 2/4), not ${JSON.stringify(String(argv.shard))}`);
  if (argv.jobs !== undefined && !(Number.isInteger(argv.jobs) && argv.jobs >= 1 && argv.jobs <= 64)) {
    throw new UsageError(`--jobs takes a whole number from 1 to 64, not ${JSON.stringify(String(argv.jobs))}`);
  }
  if (argv.runFormatter && mode !== 'write') throw new UsageError(`--run-formatter formats the files a run writes; --${mode} writes none`);
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
      runFormatter: argv.runFormatter === true,
      threads: argv.jobs ?? (process.env.MCP_MIGRATE_IN_PROCESS === '1' ? 1 : undefined),
      warn: message => {
        if (!quiet) process.stderr.write(`mcp-migrate: warning: ${message}\n`);
      },
      onInterrupt: reportInterrupt,
    });
  } catch (err) {
    const refused = err instanceof RunRefused;
    const e = err as Error;
    const message = refused ? e.message.replace(/^mcp-migrate: /, '') : `${e?.message ?? String(err)}; no file was written`;
    process.stderr.write(`mcp-migrate: ${refused ? '' : 'fatal: '}${message}\n`);
    if (!refused && process.env.MCP_MIGRATE_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
    writeErrorReport(format, refused ? 'refused' : 'fatal', message);
    process.exitCode = EXIT_ERROR;
    return;
  }

  const { report, changes } = result;
  if (format === 'json') process.stdout.write(formatJson(report));
  else if (format === 'sarif') process.stdout.write(formatSarif(report, { cwd, version: packageVersion() }));
  else if (mode === 'dry-run') process.stdout.write(formatDiffs(changes, { cwd, color: shouldColor(process.stdout, argv.color) }));
  const human = formatHuman(report, { color: shouldColor(process.stderr, argv.color), quiet });
  if (human) process.stderr.write(human);
  process.exitCode = report.exitCode;
}

/** The migration command's positional and options. */
function migrateOptions(y: Argv): Argv {
  return (
    y
      .positional('paths', { type: 'string', array: true, describe: 'Files or directories', default: undefined })
      .option('dry-run', { type: 'boolean', describe: 'Print the diff, write nothing' })
      .option('check', {
        type: 'boolean',
        describe: 'Write nothing; exit 1 if anything is left to migrate or would change (see Exit codes)',
      })
      .option('format', {
        choices: ['text', 'json', 'sarif'] as const,
        describe: 'What stdout carries: text (the diff under --dry-run), json (the report), sarif (SARIF 2.1.0, for code scanning)',
      })
      .option('json', {
        type: 'boolean',
        describe: 'The same as --format json: the machine-readable report on stdout (and nothing else there)',
      })
      // Not --format, which says what stdout carries (text, json, sarif).
      .option('run-formatter', {
        type: 'boolean',
        describe:
          "After writing, run the project's own formatter (prettier, biome or dprint, from its config or dependencies) on the files written; without it the report prints the command",
      })
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
        describe: `Analyse in up to n threads (default: one per core, at most ${MAX_THREADS}, once there are ${MIN_FILES_PER_THREAD} files to analyse per thread)`,
      })
  );
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
      migrateOptions as never,
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
      writeErrorReport(requestedFormat(argv), 'usage', err.message);
    } else {
      process.stderr.write(`mcp-migrate: fatal: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    process.exitCode = EXIT_ERROR;
  }
}

// Node 22 and later keep the compiled code of the modules a run loads (the TypeScript compiler's above all) on
// disk: every run after the first starts faster, about a sixth of a CI gate's run on a migrated server. Node 20
// has no such cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await main(hideBin(process.argv));
