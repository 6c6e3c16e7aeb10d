/**
 * Helpers for the CLI tests: temp trees, a tree hash, and running the built CLI as a child process.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = path.join(REPO, 'dist', 'src', 'cli.js');

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${path.relative(REPO, CLI)} is missing: run \`npm run build\` first`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node [nodeArgs] dist/src/cli.js ...args` in `cwd`; never rejects on a non-zero exit. */
export function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): Promise<CliResult> {
  return new Promise(resolve => {
    execFile(
      process.execPath,
      [...nodeArgs, CLI, ...args],
      // No colour from the environment unless a test asks; no TTY either (pipes).
      { cwd, env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code: unknown = err ? (err as { code?: unknown }).code : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

export async function makeTree(files: Record<string, string | Buffer>): Promise<string> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'mcp-migrate-cli-')));
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return root;
}

export async function removeTree(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

/** Every entry under `root` (including dot-directories) with its type, mode, content hash and (unless told not to) mtime. */
export async function hashTree(root: string, options: { mtime?: boolean } = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full);
      const st = await lstat(full);
      if (st.isSymbolicLink()) out[rel] = `link ${await readlink(full)}`;
      else if (st.isDirectory()) {
        out[rel] = `dir ${(st.mode & 0o7777).toString(8)}`;
        await walk(full);
      } else {
        const h = createHash('sha256')
          .update(await readFile(full))
          .digest('hex');
        out[rel] = `file ${(st.mode & 0o7777).toString(8)}${options.mtime === false ? '' : ` ${st.mtimeMs}`} ${h}`;
      }
    }
  };
  await walk(root);
  return out;
}

/** Run git in `cwd` with a fixed identity; rejects on failure. */
export function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args],
      { cwd },
      (err, stdout, stderr) => (err ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout)),
    );
  });
}

/** A legacy (SDK 1.x) server whose tool callback asks the client for input mid-call. */
export const LEGACY_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'legacy', version: '1.0.0' });

server.tool('greet', { name: z.string() }, async ({ name }) => {
  const answer = await server.server.elicitInput({
    message: 'How are you feeling?',
    requestedSchema: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Hello, ' + name }] };
  return { content: [{ type: 'text', text: 'Hello, ' + name + ', you feel ' + String(answer.content?.mood) }] };
});
`;

/** A source with nothing to migrate. */
export const PLAIN_SOURCE = `export function add(a: number, b: number): number {\n  return a + b;\n}\n`;
