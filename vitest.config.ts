import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The harness: projects migrated as their users would (installed with npm in a temporary directory, the CLI
 * run once, their own tsc, verify on both eras), every fixture's servers run on both eras, and the official
 * conformance suite. Most of the suite's time; `npm run test:quick` leaves it out.
 */
const HARNESS = [
  'test/user-projects.test.ts',
  'test/user-projects-install-state.test.ts',
  'test/fixtures-as-project.test.ts',
  'test/real-servers.test.ts',
  'test/verify-fixtures.test.ts',
  'test/conformance.test.ts',
];

const QUICK = process.env.npm_lifecycle_event === 'test:quick';

export default defineConfig({
  test: {
    // Real servers, real installs and the type checker: minutes on a loaded machine, never a reason to fail.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // Real server processes per test file: keep the two cores for them. `npm run test:quick` (npm names the script
    // it runs in npm_lifecycle_event) runs the unit files two at a time, with nothing of the harness beside them.
    fileParallelism: false,
    // The unit files first, then the harness (vitest runs a group of order 0 with one worker after every other group).
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...HARNESS],
          sequence: { groupOrder: 1 },
          fileParallelism: QUICK,
          maxWorkers: QUICK ? 2 : 1,
        },
      },
      { extends: true, test: { name: 'harness', include: HARNESS, sequence: { groupOrder: 2 } } },
    ],
  },
});
