/**
 * Public SDK 1.x servers (trimmed copies under test/real-servers/, provenance beside each), migrated by the
 * built CLI in a git repository of their own, then checked: every server-initiated request is either
 * rewritten or marked and reported; the migrated project typechecks with no error the original did not
 * have; the package.json names the 2.x packages; verify gives the same final results on both eras.
 *
 * Checks that fail because of a known bug in the rewrite are `it.fails`, each naming the bug; they turn
 * red (and must become plain `it`) once the bug is fixed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatVerifyTable, parseScenario, verify, type VerifyResult } from '../src/verify/index.js';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'dist', 'src', 'cli.js');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const env = { ...process.env, MCP_REQUEST_STATE_KEY: 'test-key-for-request-state-0123456789abcdef' };

interface RealServer {
  name: string;
  /** Entry relative to the project, with its arguments. */
  entry: string;
  /** Sites that cannot become input_required (outside tools/call, prompts/get, resources/read, or a thrown URL elicitation): always marked. */
  mustMark: { file: string; kind: string; handler: string }[];
  /** Further sites this version may mark rather than rewrite (try/catch, helpers). */
  mayMark: { file: string; kind: string; handler: string }[];
  /** Number of server-initiated request sites in the original source. */
  sites: number;
  /** Sites of helpers inlined into handlers of other files: reported in the handler too. */
  inlinedCopies?: number;
  /** Checks known to fail, with the bug that makes them fail. */
  knownBugs: Partial<Record<'marks' | 'sites' | 'tsc' | 'verify', string>>;
  /** With a known verify failure: the scenario's calls it does not touch, which must pass on both eras. */
  verifyUntouched?: string[];
}

const SERVERS: RealServer[] = [
  {
    name: 'everything',
    entry: 'src/transports/stdio.ts',
    // five server-initiated requests, the registration of tools in oninitialized, five reads of the
    // connection's client capabilities (undefined for a 2026-07-28 client under serveStdio), and two
    // callers of the roots request that no handler makes: syncRoots() called from a setTimeout, and
    // requestRoots set as the roots/list_changed notification handler
    sites: 13,
    // syncRoots (src/server/roots.ts), inlined into the get-roots-list handler: its roots request, rewritten
    // there, its capability check and the requestRoots closure it hands to setNotificationHandler, copied with it (marked, as is that handing).
    inlinedCopies: 4,
    mustMark: [
      { file: 'src/server/roots.ts', kind: 'roots', handler: 'helper' },
      { file: 'src/server/roots.ts', kind: 'roots', handler: 'notification' },
      { file: 'src/server/index.ts', kind: 'roots', handler: 'callback' },
      { file: 'src/tools/trigger-url-elicitation.ts', kind: 'elicitation-url', handler: 'tools/call name' },
      { file: 'src/server/index.ts', kind: 'registration', handler: 'lifecycle' },
      ...['src/server/roots.ts', 'src/tools/get-roots-list.ts', 'src/tools/trigger-elicitation-request.ts', 'src/tools/trigger-sampling-request.ts', 'src/tools/trigger-url-elicitation.ts'].map(
        file => ({ file, kind: 'capabilities', handler: 'capability check' })
      ),
    ],
    mayMark: [
      { file: 'src/tools/trigger-url-elicitation.ts', kind: 'elicitation', handler: 'tools/call name' },
      { file: 'src/tools/get-roots-list.ts', kind: 'roots', handler: 'helper' },
      { file: 'src/tools/get-roots-list.ts', kind: 'roots', handler: 'notification' },
    ],
    knownBugs: {
      verify:
        'by design of the server, not of the rewrite: its elicitation and sampling tools are registered in oninitialized (marked), which never fires on 2026-07-28, so a modern client finds no such tool',
    },
  },
  {
    name: 'everything-legacy',
    entry: 'src/stdio.ts',
    // four requests, and the read of the connection's client capabilities in oninitialized
    sites: 5,
    mustMark: [
      { file: 'src/everything.ts', kind: 'roots', handler: 'notification' },
      { file: 'src/everything.ts', kind: 'roots', handler: 'lifecycle' },
      { file: 'src/everything.ts', kind: 'capabilities', handler: 'capability check' },
    ],
    // `requestSampling(..., extra.sendRequest)`: the channel is handed to a helper, inlined with it, and its sampling rewritten.
    mayMark: [],
    knownBugs: {
      verify:
        'by design of the server, not of the rewrite: roots/list in oninitialized (marked) never runs on 2026-07-28 (there is no initialize), so echo sends no roots request and listRoots finds none',
    },
    // sampleLLM samples through a helper handed extra.sendRequest: inlined, it migrates.
    verifyUntouched: ['sampleLLM', 'elicit accept', 'elicit decline', 'elicit cancel'],
  },
  {
    name: 'ruby-llm-mcp-fixture',
    entry: 'index.ts --stdio',
    sites: 6,
    mustMark: [],
    mayMark: [
      { file: 'src/tools/client-interaction.ts', kind: 'roots', handler: 'tools/call roots-test' },
      { file: 'src/tools/client-interaction.ts', kind: 'sampling', handler: 'tools/call sampling-test' },
      { file: 'src/tools/elicitation.ts', kind: 'elicitation', handler: 'tools/call rejectable_elicitation' },
    ],
    knownBugs: {},
  },
  {
    name: 'mcp-layer-test-server',
    entry: 'src/bin.js',
    // sampling, elicitation and roots, one per module, each awaited inside a try/catch in a named
    // function declared beside its registerTool and passed to it by name; and the capability checker's
    // read of the connection's client capabilities
    sites: 4,
    mustMark: [{ file: 'src/shared/capabilities.js', kind: 'capabilities', handler: 'capability check' }],
    mayMark: [],
    knownBugs: {
      verify:
        'by design of the server, not of the rewrite: every tool first asks hasCapability(), a closure over server.server.getClientCapabilities() outside any handler (marked), which under serveStdio answers undefined for a 2026-07-28 client, so on that era each tool replies that the client did not declare the capability (the legacy client gets the original results)',
    },
  },
  {
    name: 'sdk-elicitation-form',
    entry: 'src/elicitationFormExample.ts',
    // register_user and update_shipping_address ask once; create_event asks twice, the second only after the first is accepted
    sites: 4,
    mustMark: [],
    mayMark: [],
    knownBugs: {},
  },
  {
    name: 'mcp-toolkit-server',
    entry: 'src/index.ts',
    // low-level Server, a switch in one CallToolRequestSchema handler calling a helper per tool, each in its own
    // file and handed the Server: smartSummarize samples, configureAnalysis elicits, each inside a try/catch
    sites: 2,
    // both helpers' requests, reported in the tools/call handler too: each helper inlined and rewritten there
    // (configureAnalysis reads a const of its module, which is exported for it); the helper bodies are marked
    inlinedCopies: 2,
    mustMark: [
      { file: 'src/tools/sampling.ts', kind: 'sampling', handler: 'helper' },
      { file: 'src/tools/elicitation.ts', kind: 'elicitation', handler: 'helper' },
    ],
    mayMark: [],
    knownBugs: {},
  },
];

interface Migrated {
  dir: string;
  report: {
    sites: { file: string; line: number; kind: string; outcome: string; reason: string; handler?: string }[];
    notes: string[];
    files: { file: string; outcome: string }[];
  };
}

interface TypeError {
  /** file, code and headline */
  key: string;
  file: string;
  /** The headline and every line of its chain (an overload's own error sits under "No overload matches this call"). */
  messages: string[];
}

function typeErrors(project: string): TypeError[] {
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(project, 'tsconfig.json'), '--noEmit', '--pretty', 'false'], { encoding: 'utf8' });
  // The same error about a rewritten expression names its type in other words: compare without type texts.
  const plain = (message: string) => message.trim().replace(/type '(?:[^'\\]|\\.)*'/g, "type '…'");
  const errors: TypeError[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$/.exec(line);
    if (m) {
      const file = path.relative(project, path.resolve(root, m[1]!));
      errors.push({ key: `${file} ${m[2]} ${plain(m[3]!)}`, file, messages: [plain(m[3]!)] });
    } else if (/^\s/.test(line) && errors.length > 0) {
      errors[errors.length - 1]!.messages.push(plain(line));
    }
  }
  return errors.sort((x, y) => x.key.localeCompare(y.key));
}

function migrate(server: RealServer): Migrated {
  const dir = path.join(root, '.tmp', 'real-servers', server.name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(path.join(root, 'test', 'real-servers', server.name), dir, { recursive: true });
  // A repository of its own, as a user's project would be: the repo's .gitignore (.tmp/) does not apply and the git guard sees a clean tree.
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'original');
  const r = spawnSync(process.execPath, [cli, '.', '--json'], { cwd: dir, encoding: 'utf8', env });
  expect(r.status, r.stderr).toBe(0);
  return { dir, report: JSON.parse(r.stdout) };
}

for (const server of SERVERS) {
  describe(`real server: ${server.name}`, () => {
    const original = path.join(root, 'test', 'real-servers', server.name);
    let migrated: Migrated;
    beforeAll(() => {
      migrated = migrate(server);
    }, 120_000);
    const check = (what: 'marks' | 'sites' | 'tsc' | 'verify') => (server.knownBugs[what] ? it.fails : it);

    check('marks')('marks and reports what it does not rewrite, each marked site carrying a // mcp-migrate: comment', () => {
      const marked = migrated.report.sites.filter(s => s.outcome !== 'rewritten');
      const shape = (s: { file: string; kind: string; handler?: string }) => JSON.stringify({ file: s.file, kind: s.kind, handler: s.handler });
      const markedShapes = marked.map(shape);
      for (const must of server.mustMark) expect(markedShapes, 'must be marked').toContain(shape(must));
      const allowed = new Set([...server.mustMark, ...server.mayMark].map(shape));
      for (const m of markedShapes) expect(allowed.has(m), `marked although it can be rewritten: ${m}`).toBe(true);
      for (const site of marked) {
        expect(site.outcome).toBe('marked');
        const text = fs.readFileSync(path.join(migrated.dir, site.file), 'utf8');
        const markers = text.split('\n').filter(l => l.trim().startsWith('// mcp-migrate:'));
        expect(markers.some(l => l.includes(site.reason.slice(0, 60))), `${site.file}:${site.line} ${site.reason}`).toBe(true);
      }
      expect(migrated.report.sites.some(s => s.outcome === 'rewritten')).toBe(true);
    });

    check('sites')(`finds every server-initiated request of the original (${server.sites}${server.inlinedCopies ? `, and ${server.inlinedCopies} inlined into handlers` : ''})`, () => {
      expect(migrated.report.sites).toHaveLength(server.sites + (server.inlinedCopies ?? 0));
    });

    it('rewrites package.json: @modelcontextprotocol/server in, @modelcontextprotocol/sdk out, with an install note', () => {
      const json = JSON.parse(fs.readFileSync(path.join(migrated.dir, 'package.json'), 'utf8'));
      expect(json.dependencies['@modelcontextprotocol/server']).toBe('^2.4.0');
      expect(json.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
      expect(migrated.report.notes.some(n => /package\.json: added .*@modelcontextprotocol\/server@\^2\.4\.0.*run your package manager's install/.test(n))).toBe(true);
      expect(migrated.report.files.find(f => f.file === 'package.json')?.outcome).toBe('changed');
    });

    check('tsc')('typechecks after with no error the original did not have', () => {
      const before = typeErrors(original);
      const after = typeErrors(migrated.dir);
      // An error is the original's when that one, in the same file, said it (as its headline or in its chain).
      const left = [...before];
      const added = after.filter(e => {
        const i = left.findIndex(b => b.key === e.key) >= 0
          ? left.findIndex(b => b.key === e.key)
          : left.findIndex(b => b.file === e.file && b.messages.includes(e.messages[0]!));
        if (i < 0) return true;
        left.splice(i, 1);
        return false;
      });
      expect(added.map(e => e.key)).toEqual([]);
    }, 120_000);

    let verified: Promise<VerifyResult> | undefined;
    const runVerify = () => {
      const scenario = parseScenario(JSON.parse(fs.readFileSync(path.join(original, 'scenario.json'), 'utf8')));
      const [file, ...args] = server.entry.split(' ');
      return (verified ??= verify({
        before: `${tsx} ${path.join(original, file!)} ${args.join(' ')}`,
        after: `${tsx} ${path.join(migrated.dir, file!)} ${args.join(' ')}`,
        scenario,
        env,
        timeoutMs: 20_000,
      }));
    };

    check('verify')('gives the same final results on both eras (accept, decline, cancel, sampling, roots)', async () => {
      const result = await runVerify();
      expect(result.ok, formatVerifyTable(result)).toBe(true);
    }, 240_000);

    if (server.verifyUntouched) {
      it(`gives the same final results on both eras for the calls the known difference does not touch (${server.verifyUntouched.join(', ')})`, async () => {
        const result = await runVerify();
        const rows = result.rows.filter(r => server.verifyUntouched!.includes(r.call));
        expect(rows.length, formatVerifyTable(result)).toBe(server.verifyUntouched!.length * 3);
        expect(rows.every(r => r.ok), formatVerifyTable(result)).toBe(true);
      }, 240_000);
    }
  });
}

describe('real servers: the originals', () => {
  it('the before side of every verify passes on its own (the scenarios fit the originals)', async () => {
    for (const server of SERVERS) {
      const original = path.join(root, 'test', 'real-servers', server.name);
      const scenario = parseScenario(JSON.parse(fs.readFileSync(path.join(original, 'scenario.json'), 'utf8')));
      const [file, ...args] = server.entry.split(' ');
      const command = `${tsx} ${path.join(original, file!)} ${args.join(' ')}`;
      const result = await verify({ before: command, after: command, scenario, env, timeoutMs: 20_000 });
      const before = result.rows.filter(r => r.run === 'before');
      expect(before.every(r => r.ok), formatVerifyTable(result)).toBe(true);
      expect(before.length).toBe(scenario.calls.length);
    }
  }, 300_000);
});
