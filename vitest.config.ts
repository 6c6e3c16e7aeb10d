import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real servers, real installs and the type checker: minutes on a loaded machine, never a reason to fail.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // Real server processes per test file: keep the two cores for them.
    fileParallelism: false
  }
});
