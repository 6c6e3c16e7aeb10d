import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The harness: projects migrated as their users would (installed with npm in a temporary directory, the CLI
 * run once, their own tsc, verify on both eras), every fixture's servers run on both eras, and the official
 * conformance suite. Most of the suite's time.
 */
const HARNESS = [
  'test/user-projects.test.ts',
  'test/user-projects-install-state.test.ts',
  'test/fixtures-as-project.test.ts',
  'test/real-servers.test.ts',
  'test/verify-fixtures.test.ts',
  'test/conformance.test.ts',
];

/**
 * Migrated servers run: projects of a few files migrated in process and their servers run on both eras (helpers
 * in other files, counted effects), the requestState seal against real clients, stores and restarts, and the
 * property-based samples under verify. Minutes of real processes: `npm run test:servers` runs them.
 */
const SERVERS = ['test/reach.test.ts', 'test/cross-file.test.ts', 'test/request-state.test.ts', 'test/property.test.ts'];

/**
 * The command line as a user runs it: the built CLI (and the package, the Action, verify) run as processes, each
 * run paying the start of a process, on trees written to a temporary directory. `npm run test:cli` runs them.
 */
const CLI = [
  'test/action.test.ts',
  'test/cli.test.ts',
  'test/cli-startup.test.ts',
  'test/e2e-example.test.ts',
  'test/exit-status.test.ts',
  'test/formatter.test.ts',
  'test/fuzz-cli.test.ts',
  'test/git-guard.test.ts',
  'test/http-entry.test.ts',
  'test/install.test.ts',
  'test/interruption.test.ts',
  'test/lsp.test.ts',
  'test/sdk-patches.test.ts',
  'test/shard.test.ts',
  'test/stale-temporary-files.test.ts',
  'test/threads.test.ts',
  'test/verify.test.ts',
];

/** `npm run test:quick`, `test:servers` and `test:cli` (npm names the script it runs in npm_lifecycle_event): two files at a time. */
const TWO_AT_A_TIME = ['test:quick', 'test:servers', 'test:cli'].includes(process.env.npm_lifecycle_event ?? '');
const DEVELOPER_LOOP = { fileParallelism: TWO_AT_A_TIME, maxWorkers: TWO_AT_A_TIME ? 2 : 1 };

export default defineConfig({
  test: {
    // Real servers, real installs and the type checker: minutes on a loaded machine, never a reason to fail.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // Real server processes per test file: keep the two cores for them. The developer's loops run two files
    // at a time, with nothing of the harness beside them.
    fileParallelism: false,
    // The unit and fixture tests first, then the migrated servers, the command line, the harness, each group after the one before.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...HARNESS, ...SERVERS, ...CLI],
          sequence: { groupOrder: 1 },
          ...DEVELOPER_LOOP,
        },
      },
      {
        extends: true,
        test: {
          name: 'servers',
          include: SERVERS,
          sequence: { groupOrder: 2 },
          ...DEVELOPER_LOOP,
        },
      },
      {
        extends: true,
        test: {
          name: 'cli',
          include: CLI,
          sequence: { groupOrder: 3 },
          ...DEVELOPER_LOOP,
        },
      },
      { extends: true, test: { name: 'harness', include: HARNESS, sequence: { groupOrder: 4 } } },
    ],
  },
});
