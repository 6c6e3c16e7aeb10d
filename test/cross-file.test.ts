/**
 * Helpers in other files of the project: a small multi-file SDK 1.x project (a handler file importing
 * helpers through a barrel, a default export, a helper calling a helper of a third file, a helper
 * handed `extra.sendRequest` that imports nothing of the SDK, a cycle across two files, a helper that
 * uses a module-local it does not export and cannot simply export) migrated by the built CLI in a git repository of its own,
 * then checked: what is inlined and from where, what is marked and why, that the result typechecks
 * and is a fixed point, and that verify gives the original's results on both eras.
 *
 * Then discovery: a handler file with no trigger name whose helper chain runs through a file with no
 * trigger name and no SDK import, which the text pre-filter alone never decodes; with two threads too.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatVerifyTable, parseScenario, verify } from '../src/verify/index.js';
import { typecheckFiles } from './support/typecheck.js';
import { causeOf } from '../src/tables/causes.js';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'dist', 'src', 'cli.js');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const env = { ...process.env, MCP_REQUEST_STATE_KEY: 'test-key-for-request-state-0123456789abcdef' };
// Inside the repo, so the projects resolve the real SDK packages from node_modules.
const work = path.join(root, '.tmp', 'cross-file');

const PACKAGE = JSON.stringify({ name: 'cross-file', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^4.2.0' } });

const PROJECT: Record<string, string> = {
  'package.json': PACKAGE,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { confirmName, sampleWith } from './helpers/index.js';
import askColour from './helpers/colour.js';
import { ping } from './helpers/cycle.js';
import { askSecret } from './helpers/local.js';

export const server = new McpServer({ name: 'cross-file', version: '1.0.0' });

/** The server's own default, not the helpers': the inlined code must not take it for theirs. */
const DEFAULT_NAME = 'server-default';

server.registerTool('confirm', { inputSchema: { question: z.string() } }, async ({ question }) => {
  const name = await confirmName(server, question);
  return { content: [{ type: 'text', text: \`Confirmed: \${name}\` }] };
});

server.registerTool('summarize', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
  const summary = await sampleWith(extra.sendRequest, CreateMessageResultSchema, text);
  return { content: [{ type: 'text', text: \`Summary: \${summary}\` }] };
});

server.registerTool('colour', { description: 'Asks a colour' }, async () => {
  const colour = await askColour(server);
  return { content: [{ type: 'text', text: \`Colour: \${colour} (\${DEFAULT_NAME})\` }] };
});

server.registerTool('ping', { description: 'A cycle of helpers across two files' }, async () => {
  const n = await ping(server, 2);
  return { content: [{ type: 'text', text: \`n=\${n}\` }] };
});

server.registerTool('secret', { description: 'A helper using a module-local' }, async () => {
  const s = await askSecret(server);
  return { content: [{ type: 'text', text: s }] };
});

await server.connect(new StdioServerTransport());
`,
  'src/helpers/index.ts': `export * from './names.js';
export { sampleWith } from './sampling.js';
`,
  'src/helpers/names.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName } from './ask.js';
import { DEFAULT_NAME } from './defaults.js';

/** Asks a name (through a helper of another file), then to confirm it. */
export async function confirmName(server: McpServer, question: string): Promise<string> {
  const name = await askName(server, question);
  const check = await server.server.elicitInput({
    message: \`Is \${name} right?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return check.action === 'accept' && check.content?.ok === true ? name : DEFAULT_NAME;
}
`,
  'src/helpers/ask.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_NAME as FALLBACK } from './defaults.js';

export const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

export const askName = async (server: McpServer, question: string): Promise<string> => {
  const answer = await server.server.elicitInput({ message: question, requestedSchema: NAME_SCHEMA as never });
  if (answer.action !== 'accept') return FALLBACK;
  return String(answer.content?.name);
};
`,
  'src/helpers/defaults.ts': `export const DEFAULT_NAME = 'friend';
`,
  'src/helpers/sampling.ts': `type Send = (request: { method: string; params?: Record<string, unknown> }, schema?: unknown) => Promise<any>;

/** No SDK import: it is handed the request channel and the result schema. */
export async function sampleWith(send: Send, schema: unknown, text: string): Promise<string> {
  const result = await send({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 20 } }, schema);
  return result.content.type === 'text' ? result.content.text : '';
}
`,
  'src/helpers/colour.ts': `export default async function askColour(server: any): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.colour) : 'none';
}
`,
  'src/helpers/cycle.ts': `import { pong } from './cycle2.js';

export async function ping(server: any, n: number): Promise<number> {
  if (n <= 0) {
    const a = await server.server.elicitInput({ message: 'Stop?', requestedSchema: { type: 'object', properties: {} } });
    return a.action === 'accept' ? 0 : 1;
  }
  return pong(server, n - 1);
}
`,
  'src/helpers/cycle2.ts': `import { ping } from './cycle.js';

export async function pong(server: any, n: number): Promise<number> {
  return ping(server, n);
}
`,
  'src/helpers/local.ts': `const PROMPT = 'Secret?', HINT = 'one word';

export async function askSecret(server: any): Promise<string> {
  const a = await server.server.elicitInput({ message: \`\${PROMPT} (\${HINT})\`, requestedSchema: { type: 'object', properties: { s: { type: 'string' } } } });
  return a.action === 'accept' ? String(a.content?.s) : '';
}
`,
};

const SCENARIO = {
  calls: [
    { name: 'confirm accepted', method: 'tools/call', params: { name: 'confirm', arguments: { question: 'Name?' } }, answers: { elicitation: [{ action: 'accept', content: { name: 'Ada' } }, { action: 'accept', content: { ok: true } }] } },
    { name: 'confirm, not confirmed', method: 'tools/call', params: { name: 'confirm', arguments: { question: 'Name?' } }, answers: { elicitation: [{ action: 'accept', content: { name: 'Ada' } }, { action: 'decline' }] } },
    { name: 'confirm, name declined', method: 'tools/call', params: { name: 'confirm', arguments: { question: 'Name?' } }, answers: { elicitation: [{ action: 'decline' }, { action: 'accept', content: { ok: true } }] } },
    { name: 'summarize', method: 'tools/call', params: { name: 'summarize', arguments: { text: 'tides' } }, answers: { sampling: [{ role: 'assistant', model: 'm', content: { type: 'text', text: 'the moon pulls the sea' } }] } },
    { name: 'colour accepted', method: 'tools/call', params: { name: 'colour' }, answers: { elicitation: [{ action: 'accept', content: { colour: 'teal' } }] } },
    { name: 'colour cancelled', method: 'tools/call', params: { name: 'colour' }, answers: { elicitation: [{ action: 'cancel' }] } },
  ],
};

interface Report {
  sites: { file: string; line: number; kind: string; call: string; outcome: string; reason: string; handler?: string; shape?: string }[];
  notes: string[];
  files: { file: string; outcome: string }[];
  summary: Record<string, unknown>;
}

function writeProject(dir: string, files: Record<string, string>): void {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

/** A repository of its own, as a user's project would be (the repo's .gitignore of .tmp/ does not apply). */
function commitAll(dir: string, message: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe' });
  if (!fs.existsSync(path.join(dir, '.git'))) git('init', '-q');
  git('add', '.');
  git('commit', '-qm', message);
}

function runCli(dir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules')).map(f => path.join(dir, f));
}

describe('helpers imported from other files of the project', () => {
  const before = path.join(work, 'before');
  const after = path.join(work, 'after');
  let report: Report;
  const read = (rel: string) => fs.readFileSync(path.join(after, rel), 'utf8');

  beforeAll(() => {
    writeProject(before, PROJECT);
    writeProject(after, PROJECT);
    commitAll(after, 'original');
    const r = runCli(after, '.', '--json');
    expect(r.status, r.stderr).toBe(0);
    report = JSON.parse(r.stdout);
  }, 600_000);

  it('inlines the helpers reached through a barrel, a default export and a helper of a third file, and says from where', () => {
    const rewritten = report.sites.filter(s => s.outcome === 'rewritten');
    const inServer = rewritten.filter(s => s.file === 'src/server.ts');
    expect(inServer.map(s => `${s.handler} ${s.kind} ${s.shape}`).sort()).toEqual([
      'tools/call colour elicitation helper',
      'tools/call confirm elicitation helper',
      'tools/call confirm elicitation helper',
      'tools/call summarize sampling helper',
    ]);
    expect(rewritten).toHaveLength(inServer.length);
    expect(report.summary.byShape).toMatchObject({ helper: { rewritten: 4 } });
    for (const [helper, file] of [['confirmName', 'src/helpers/names.ts'], ['askName', 'src/helpers/ask.ts'], ['askColour', 'src/helpers/colour.ts'], ['sampleWith', 'src/helpers/sampling.ts']]) {
      expect(report.notes, helper).toContainEqual(expect.stringMatching(new RegExp(`^src/server\\.ts: ${helper}\\(\\) from ${file.replace(/\./g, '\\.')}:\\d+ inlined into .*${file.replace(/\./g, '\\.')} is left as it is`)));
    }
  });

  it("imports the helpers' free names at the call site: their modules' imports re-specified, their exports, aliased where taken", () => {
    const server = read('src/server.ts');
    // askName's import of DEFAULT_NAME as FALLBACK, and confirmName's DEFAULT_NAME: one import, aliased past the server's own DEFAULT_NAME.
    expect(server).toMatch(/import \{ DEFAULT_NAME as (DEFAULT_NAME\d+) \} from ["']\.\/helpers\/defaults\.js["'];/);
    const alias = /import \{ DEFAULT_NAME as (DEFAULT_NAME\d+) \}/.exec(server)![1]!;
    // (askName's result is the variable confirmName's statement declared, renamed past the handler's own name.)
    expect(server).toContain(`name2 = ${alias};`);
    expect(server).toMatch(/import \{[^}]*\bNAME_SCHEMA\b[^}]*\} from ["']\.\/helpers\/ask\.js["']/);
    expect(server).toContain("const DEFAULT_NAME = 'server-default';");
    // The channel handed to sampleWith is substituted: its request is a site of the handler, rewritten.
    expect(server).not.toMatch(/sampleWith\(ctx\.mcpReq\.send/);
    expect(server).toMatch(/inputRequired\.createMessage\(\{ messages: \[\{ role: 'user', content: \{ type: 'text', text \} \}\], maxTokens: 20 \}\)/);
  });

  it('leaves the helper files as they are but for the SDK upgrade and the markers of the sites they keep', () => {
    for (const rel of ['src/helpers/index.ts', 'src/helpers/sampling.ts', 'src/helpers/cycle2.ts', 'src/helpers/defaults.ts']) {
      expect(read(rel), rel).toBe(PROJECT[rel]);
    }
    // askColour, ping and askSecret (server: any) are handed the server by their handler calls: their bodies are sites as a typed helper's are.
    for (const rel of ['src/helpers/names.ts', 'src/helpers/ask.ts', 'src/helpers/colour.ts', 'src/helpers/cycle.ts', 'src/helpers/local.ts']) {
      const text = read(rel);
      if (rel === 'src/helpers/names.ts' || rel === 'src/helpers/ask.ts') expect(text, rel).toContain('@modelcontextprotocol/server');
      const marked = report.sites.filter(s => s.file === rel);
      expect(marked.length, rel).toBe(1);
      expect(marked[0]!.outcome).toBe('marked');
      expect(text).toContain(`// mcp-migrate: ${marked[0]!.reason}`);
    }
  });

  it('marks a cycle of helpers with the cycle, and a helper using a module-local it does not export, and reports both', () => {
    const server = read('src/server.ts');
    const marked = report.sites.filter(s => s.file === 'src/server.ts' && s.outcome === 'marked');
    const cycle = marked.find(s => s.handler === 'tools/call ping');
    expect(cycle?.reason).toMatch(/^ping\(\) → pong\(\) → ping\(\) is a cycle of helpers: not inlined/);
    expect(cycle).toMatchObject({ kind: 'elicitation', call: 'ping(...)', shape: 'helper' });
    const local = marked.find(s => s.handler === 'tools/call secret');
    // A lone module-level declaration would be exported for the handler's file to import; one of two in its statement is not.
    expect(local?.reason).toMatch(/^askSecret\(\) \(local\.ts\) is not inlined: it uses PROMPT, which local\.ts does not export \(not a declaration of its own\)/);
    expect(marked).toHaveLength(2);
    const written = server.split('\n');
    for (const site of marked) {
      // The run wrote the file: reported where the call is in it, marked right above its statement.
      const statement = written[site.line - 1]!;
      expect(statement.slice(site.column - 1)).toMatch(new RegExp(`^${site.call.replace('(...)', '\\(')}`));
      expect(written[site.line - 2]!.trim(), site.reason).toBe(`// mcp-migrate: ${site.reason}`);
      expect(PROJECT['src/server.ts']).toContain(`\n${statement}\n`);
    }
    // Neither is unrolled: the calls are still there.
    expect(server).toMatch(/const n = await ping\(server, 2\);/);
    expect(server).toMatch(/const s = await askSecret\(server\);/);
  });

  it('typechecks against the real SDK 2.x types', () => {
    expect(typecheckFiles(filesUnder(after), after)).toEqual([]);
  }, 600_000);

  it('is a fixed point: a second run changes nothing', () => {
    commitAll(after, 'migrated');
    const r = runCli(after, '.', '--dry-run');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('diff --git');
  }, 600_000);

  it('gives the same final results and input requests on both eras', async () => {
    const result = await verify({
      before: `${tsx} ${path.join(before, 'src', 'server.ts')}`,
      after: `${tsx} ${path.join(after, 'src', 'server.ts')}`,
      scenario: parseScenario(SCENARIO),
      env,
      timeoutMs: 120_000,
    });
    expect(result.rows).toHaveLength(SCENARIO.calls.length * 3);
    expect(result.ok, formatVerifyTable(result)).toBe(true);
  }, 600_000);
});

describe('discovery of helper files', () => {
  // The handler's file names no trigger; its helper imports nothing of the SDK and names no trigger either
  // (the text pre-filter alone would never decode it); the request is one file further, in a file of the
  // SDK's that the official codemod upgrades. With two threads, only the middle file puts that one in the
  // handler's group (the handler's file is the largest, so the groups are balanced apart otherwise), where
  // it is inlined as upgraded, not as it is on disk.
  const files: Record<string, string> = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askColour } from './colour.js';

export const server = new McpServer({ name: 'discovery', version: '1.0.0' });
${'// The largest file of the project.\n'.repeat(40)}
server.registerTool('colour', { description: 'Asks a colour' }, async () => {
  const colour = await askColour(server);
  return { content: [{ type: 'text', text: \`Colour: \${colour}\` }] };
});
`,
    'src/colour.ts': `import { askWith } from './ask.js';

export async function askColour(server: any): Promise<string> {
  const answer = await askWith(server, 'Colour?');
  return answer ?? 'none';
}
`,
    'src/ask.ts': `import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export async function askWith(server: any, message: string): Promise<string | undefined> {
  const answer: ElicitResult = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: { value: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.value) : undefined;
}
`,
    // Another server, unrelated: with two threads, a group of its own.
    'src/other.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const other = new McpServer({ name: 'other', version: '1.0.0' });

other.registerTool('name', { description: 'Asks a name' }, async () => {
  const answer = await other.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
  };

  const outputs = new Map<string, { server: string; report: string }>();
  for (const jobs of ['1', '2']) {
    it(`finds the helper chain from a handler file without a trigger name, through a file the pre-filter does not decode (--jobs ${jobs})`, () => {
      const dir = path.join(work, `discovery-${jobs}`);
      writeProject(dir, files);
      commitAll(dir, 'original');
      const r = runCli(dir, '.', '--json', '--jobs', jobs);
      expect(r.status, r.stderr).toBe(0);
      const report: Report = JSON.parse(r.stdout);
      const colour = report.sites.filter(s => s.handler === 'tools/call colour');
      expect(colour.map(s => `${s.file} ${s.kind} ${s.outcome} ${s.shape}`)).toEqual(['src/server.ts elicitation rewritten helper']);
      expect(report.notes).toContainEqual(expect.stringMatching(/^src\/server\.ts: askColour\(\) from src\/colour\.ts:\d+ inlined/));
      expect(report.notes).toContainEqual(expect.stringMatching(/^src\/server\.ts: askWith\(\) from src\/ask\.ts:\d+ inlined/));
      expect(report.files.find(f => f.file === 'src/colour.ts')?.outcome).toBe('unchanged');
      const server = fs.readFileSync(path.join(dir, 'src', 'server.ts'), 'utf8');
      // Both helpers inlined: the import of the first is kept bare (its module still loads), the one
      // the first pass added for the second goes again.
      expect(server).toMatch(/^import ["']\.\/colour\.js["'];$/m);
      expect(server).not.toMatch(/ask\.js/);
      expect(server).toContain('inputRequired.elicit(');
      // The helper as upgraded: its type comes from the 2.x package, and nothing imports the 1.x SDK any more.
      expect(server).toMatch(/import (?:type \{ ElicitResult \}|\{[^}]*\btype ElicitResult\b[^}]*\}) from ["']@modelcontextprotocol\/server["']/);
      for (const file of filesUnder(dir)) expect(fs.readFileSync(file, 'utf8'), file).not.toContain('@modelcontextprotocol/sdk');
      expect(typecheckFiles(filesUnder(dir), dir)).toEqual([]);
      // The same result in one thread or two.
      outputs.set(jobs, { server, report: r.stdout });
      if (outputs.has('1') && jobs !== '1') expect(outputs.get(jobs)).toEqual(outputs.get('1'));
    }, 600_000);
  }
});

describe('a request method exported under another name', () => {
  // `ask` holds the server's elicitInput, exported by the server's module; the tools file calls it naming no
  // trigger and importing nothing of the SDK or zod, so the text pre-filter alone never decodes it.
  const files: Record<string, string> = {
    'package.json': PACKAGE,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const mcp = new McpServer({ name: 'aliases', version: '1.0.0' });
export const ask = mcp.server.elicitInput.bind(mcp.server);
`,
    'src/tools.ts': `import { ask as askUser, mcp } from './server.js';

mcp.registerTool('delete_note', { description: 'Deletes a note' }, async () => {
  const answer = await askUser({ message: 'Delete?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
  };

  it('marks the call where the alias is called, in the importing file, and not the export as a module-level request', () => {
    const dir = path.join(work, 'exported-alias');
    writeProject(dir, files);
    commitAll(dir, 'original');
    const r = runCli(dir, 'src', '--check', '--json');
    expect(r.status, r.stderr).not.toBe(0);
    const report: Report = JSON.parse(r.stdout);
    expect(report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${causeOf(s).id}`)).toEqual(['src/tools.ts:4 marked request-method-aliased']);
  });

  it('marks the export when an importing file hands the alias on', () => {
    const dir = path.join(work, 'exported-alias-handed-on');
    writeProject(dir, { ...files, 'src/retry.ts': "import { ask } from './server.js';\n\nexport const asker = { ask };\n" });
    commitAll(dir, 'original');
    const r = runCli(dir, 'src', '--check', '--json');
    expect(r.status, r.stderr).not.toBe(0);
    const report: Report = JSON.parse(r.stdout);
    expect(report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${causeOf(s).id}`).sort()).toEqual(['src/server.ts:4 marked request-method-handed-on', 'src/tools.ts:4 marked request-method-aliased']);
  });
});

describe('module-level declarations an imported helper uses', () => {
  // Exported for the handler's file to import when that keeps their meaning: a let or var is (an
  // import reads its current value), and one the helper assigns gets a setter beside it, which the
  // inlined code calls (an imported binding cannot be assigned); not one of several declarations in a statement.
  const dir = path.join(work, 'module-locals');
  const helper = (declarations: string, afterAsking = '') => `${declarations}
export async function askName(server: McpServer): Promise<string> {
  const a = await server.server.elicitInput({ message: PROMPT, requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });${afterAsking}
  return a.action === 'accept' ? String(a.content?.n) : 'nobody';
}
`;
  const handler = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName } from './helper.js';

const server = new McpServer({ name: 'locals', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askName(server);
  return { content: [{ type: 'text', text: \`hello \${name}\` }] };
});
`;
  const run = async (declarations: string, afterAsking = '') => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const { migrateSources } = await import('../src/pipeline.js');
    const sources = [
      { path: path.join(dir, 'helper.ts'), text: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n${helper(declarations, afterAsking)}` },
      { path: path.join(dir, 'server.ts'), text: handler },
    ];
    return migrateSources(sources, { cwd: dir });
  };

  it('exports a lone const the helper reads, inlines the helper and says so', async () => {
    const r = await run("const PROMPT = 'Name?';");
    expect(r.report.sites.filter(s => s.file === 'server.ts').map(s => s.outcome)).toEqual(['rewritten']);
    expect(r.changes.find(c => c.path.endsWith('helper.ts'))?.after).toContain("export const PROMPT = 'Name?';");
    expect(r.changes.find(c => c.path.endsWith('server.ts'))?.after).toMatch(/import \{[^}]*\bPROMPT\b[^}]*\} from ['"]\.\/helper\.js['"]/);
    expect(r.report.notes).toContain('helper.ts: PROMPT exported, for the helper inlined into server.ts that uses it');
  }, 600_000);

  it('exports a let the helper only reads, and inlines the helper', async () => {
    const r = await run("let PROMPT = 'Name?';");
    expect(r.report.sites.filter(s => s.file === 'server.ts').map(s => s.outcome)).toEqual(['rewritten']);
    expect(r.changes.find(c => c.path.endsWith('helper.ts'))?.after).toContain("export let PROMPT = 'Name?';");
  }, 600_000);

  it('gives a let the helper assigns a setter beside it, exports both, and calls the setter where the helper assigned it', async () => {
    const r = await run("let PROMPT = 'Name?';", "\n  PROMPT = 'Name again?';");
    expect(r.report.sites.filter(s => s.file === 'server.ts').map(s => s.outcome)).toEqual(['rewritten']);
    const helperAfter = r.changes.find(c => c.path.endsWith('helper.ts'))!.after;
    expect(helperAfter).toContain(
      "export let PROMPT = 'Name?';\n\n/** Sets PROMPT from another module, which cannot assign an imported binding. */\nexport function setPROMPT(value: string): void {\n  PROMPT = value;\n}\n"
    );
    const server = r.changes.find(c => c.path.endsWith('server.ts'))!.after;
    expect(server).toMatch(/import \{[^}]*\bsetPROMPT, PROMPT\b[^}]*\} from ['"]\.\/helper\.js['"]/);
    expect(server).toContain("setPROMPT('Name again?');");
    expect(server).not.toMatch(/^\s*PROMPT = /m);
    // Its one call inlined, the helper's import goes, in the declaration that now brings the setter.
    expect(server).toMatch(/^import \{ setPROMPT, PROMPT \} from '\.\/helper\.js';$/m);
    expect(r.report.notes).toContain('helper.ts: setPROMPT() added beside PROMPT and exported, for the helper inlined into server.ts that assigns PROMPT (an imported binding cannot be assigned)');
  }, 600_000);

  it('turns compound assignments and increments of a number into setter calls, and imports a variable only written by its setter alone', async () => {
    const r = await run("const PROMPT = 'Name?';\nlet asked = 0;\nlet last = '';", '\n  asked++;\n  asked *= a.action === \'accept\' ? 2 : 1;\n  last = String(a.content?.n);');
    expect(r.report.sites.filter(s => s.file === 'server.ts').map(s => s.outcome)).toEqual(['rewritten']);
    const server = r.changes.find(c => c.path.endsWith('server.ts'))!.after;
    expect(server).toContain('setAsked(asked + 1);');
    expect(server).toContain("setAsked(asked * (a.action === 'accept' ? 2 : 1));");
    expect(server).toContain('setLast(String(a.content?.n));');
    expect(server).toMatch(/import \{[^}]*\basked\b[^}]*\} from/);
    expect(server).not.toMatch(/import \{[^}]*\blast\b[^}]*\} from/);
    const helperAfter = r.changes.find(c => c.path.endsWith('helper.ts'))!.after;
    expect(helperAfter).toContain('export let asked = 0;');
    expect(helperAfter).toMatch(/^let last = '';$/m);
    expect(helperAfter).toContain('export function setLast(value: string): void {');
  }, 600_000);

  it('reuses a setter the module has already (an earlier run gave it), exporting it', async () => {
    const r = await run("let PROMPT = 'Name?';\nfunction setPROMPT(text: string) {\n  PROMPT = text;\n}", "\n  PROMPT = 'Name again?';");
    expect(r.report.sites.filter(s => s.file === 'server.ts').map(s => s.outcome)).toEqual(['rewritten']);
    const helperAfter = r.changes.find(c => c.path.endsWith('helper.ts'))!.after;
    expect(helperAfter).toContain("export let PROMPT = 'Name?';\nexport function setPROMPT(text: string) {\n  PROMPT = text;\n}");
    expect(helperAfter.match(/function setPROMPT/g)).toHaveLength(1);
    expect(r.changes.find(c => c.path.endsWith('server.ts'))!.after).toContain("setPROMPT('Name again?');");
  }, 600_000);

  // What a setter call cannot stand for keeps the helper where it is, with why; the module is left as it was.
  const refusals: [string, string, string, RegExp][] = [
    ['inside a function the helper creates', "let PROMPT = 'Name?';", "\n  setTimeout(() => { PROMPT = 'again'; }, 0);", /it assigns PROMPT, a module-level let of helper\.ts, inside a function it creates/],
    ['by destructuring', "let PROMPT = 'Name?';", "\n  [PROMPT] = ['again'];", /it assigns PROMPT, a module-level let of helper\.ts, by destructuring or as a loop variable/],
    ['as a loop variable', "let PROMPT = 'Name?';", "\n  for (PROMPT of ['a', 'b']) void 0;", /it assigns PROMPT, a module-level let of helper\.ts, by destructuring or as a loop variable/],
    ['in an expression that uses its value', "let PROMPT = 'Name?';", "\n  const was = (PROMPT = 'again');\n  void was;", /it assigns PROMPT, a module-level let of helper\.ts, inside an expression that uses its value/],
    ['with a logical assignment', "let PROMPT = 'Name?';", "\n  PROMPT ||= 'again';", /it assigns PROMPT, a module-level let of helper\.ts, with \|\|=/],
    ['an increment of what is not a number', "let PROMPT: any = 'Name?';", '\n  PROMPT++;', /it increments PROMPT, a module-level let of helper\.ts, which is not declared a number/],
    ['when the setter name is taken', "let PROMPT = 'Name?';\nexport const setPROMPT = 1;", "\n  PROMPT = 'again';", /it assigns PROMPT, a module-level let of helper\.ts, and helper\.ts already has a setPROMPT/],
    ['and reads it narrowed by the assignment', "const PROMPT = 'Name?';\nlet last: string | undefined;", "\n  last = 'x';\n  void last.length;", /it assigns last, a module-level let of helper\.ts, and reads it after that narrowed to string \(declared string \| undefined\)/],
    ['in a module that assigns its CommonJS exports', "let PROMPT = 'Name?';\nmodule.exports.legacy = true;", "\n  PROMPT = 'again';", /it assigns PROMPT, a module-level let of helper\.ts, a CommonJS module, whose exports are copies/],
  ];
  for (const [what, declarations, afterAsking, reason] of refusals) {
    it(`marks a helper that assigns a module let ${what}, and leaves its module as it was`, async () => {
      const r = await run(declarations, afterAsking);
      const [site] = r.report.sites.filter(s => s.file === 'server.ts');
      expect(site).toMatchObject({ outcome: 'marked', cause: 'helper not inlined: it assigns a module-level variable of its module where a setter call cannot stand in' });
      expect(site!.reason).toMatch(/^askName\(\) \(helper\.ts\) is not inlined: /);
      expect(site!.reason).toMatch(reason);
      expect(r.changes.find(c => c.path.endsWith('helper.ts'))?.after ?? '').not.toMatch(/export (let|var) |function set[A-Z]/);
    }, 600_000);
  }
});

describe('locals of a JavaScript handler typed in another module', () => {
  const dir = path.join(work, 'jsdoc-types');

  it('are restored with a JSDoc import type of that module, so checked JavaScript keeps their types', async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    // Naming no request, the module is read from the disk as the handler's import.
    fs.writeFileSync(path.join(dir, 'recipes.js'), "/** @typedef {{ name: string, servings: number }} Recipe */\n\n/** @type {Recipe[]} */\nexport const recipes = [{ name: 'pancakes', servings: 4 }];\n");
    const { migrateSources } = await import('../src/pipeline.js');
    const r = await migrateSources(
      [
        {
          path: path.join(dir, 'server.js'),
          text: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { recipes } from './recipes.js';

const server = new McpServer({ name: 'recipes', version: '1.0.0' });

server.registerTool('scale', { description: 'Scales the first recipe' }, async () => {
  const recipe = recipes.find(r => r.servings > 0);
  if (!recipe) return { content: [] };
  const answer = await server.server.elicitInput({ message: 'Servings?', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } });
  return { content: [{ type: 'text', text: \`\${recipe.name} \${answer.action}\` }] };
});
`,
        },
      ],
      { cwd: dir }
    );
    expect(r.report.sites.map(s => s.outcome)).toEqual(['rewritten']);
    expect(r.changes.find(c => c.path.endsWith('server.js'))?.after).toContain('/** @type {import("./recipes.js").Recipe} */ const recipe = resumed.recipe;');
  }, 600_000);
});
