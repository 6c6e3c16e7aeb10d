/**
 * A Node 22 binary for the official conformance tool, whose CLI needs it while this project runs on Node 20.
 * It is the npm registry's platform package of Node (`node-<platform>-<arch>`, a plain binary with no install
 * script), installed once under the system's temp directory: as a devDependency, its `node` bin would be
 * linked into node_modules/.bin and run every npm script of the project on Node 22.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const VERSION = '22.23.3';

export function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const pkg = `node-${process.platform}-${process.arch}`;
  const prefix = path.join(os.tmpdir(), `mcp-migrate-node-${VERSION}`);
  const binary = path.join(prefix, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(binary)) {
    const npm = process.env.npm_execpath;
    const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
    execFileSync(
      command,
      [...args, 'install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, `${pkg}@${VERSION}`],
      { stdio: 'pipe' },
    );
  }
  return binary;
}
