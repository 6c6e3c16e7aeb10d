import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The `node` devDependency (Node 22, for the conformance tool) links node_modules/.bin/node, which npm
// scripts put first on PATH: the servers the tests start by `node ...` run on the Node running the tests.
const nodeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-node-'));
fs.symlinkSync(process.execPath, path.join(nodeDir, 'node'));
process.env.PATH = `${nodeDir}${path.delimiter}${process.env.PATH ?? ''}`;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real server processes per test file: keep the two cores for them.
    fileParallelism: false
  }
});
