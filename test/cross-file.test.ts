/**
 * Helpers in other files of the project: a small multi-file SDK 1.x project (a handler file importing
 * helpers through a barrel, a default export, a helper calling a helper of a third file, a helper
 * handed `extra.sendRequest` that imports nothing of the SDK, a cycle across two files, a helper that
 * uses module-locals of its own) migrated by the built CLI in a git repository of its own, then checked:
 * each request rewritten where its helper writes it, the helpers' files edited there and nowhere else,
 * the result typechecks, is a fixed point, and verify gives the original's results on both eras.
 *
 * Then discovery: a handler file with no trigger name whose helper chain runs through a file with no
 * trigger name and no SDK import, which the text pre-filter alone never decodes; with two threads too.
 * A request method exported under another name; helpers with module-level state of their own, which
 * replay leaves where it is; a JavaScript handler whose locals are typed in another module.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { journaledWork } from './support/journaledWork.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { upgradeV1 } from '../src/upgrade/index.js';
import { formatVerifyTable, parseScenario, verify, type VerifyResult } from '../src/verify/index.js';
import { typecheckFiles } from './support/typecheck.js';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'dist', 'src', 'cli.js');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const env = { ...process.env, MCP_REQUEST_STATE_KEY: 'test-key-for-request-state-0123456789abcdef' };
// Inside the repo, so the projects resolve the real SDK packages from node_modules.
const work = path.join(root, '.tmp', 'cross-file');

const PACKAGE = JSON.stringify({
  name: 'cross-file',
  type: 'module',
  dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', zod: '^4.2.0' },
});

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
    {
      name: 'confirm accepted',
      method: 'tools/call',
      params: { name: 'confirm', arguments: { question: 'Name?' } },
      answers: {
        elicitation: [
          { action: 'accept', content: { name: 'Ada' } },
          { action: 'accept', content: { ok: true } },
        ],
      },
    },
    {
      name: 'confirm, not confirmed',
      method: 'tools/call',
      params: { name: 'confirm', arguments: { question: 'Name?' } },
      answers: { elicitation: [{ action: 'accept', content: { name: 'Ada' } }, { action: 'decline' }] },
    },
    {
      name: 'confirm, name declined',
      method: 'tools/call',
      params: { name: 'confirm', arguments: { question: 'Name?' } },
      answers: { elicitation: [{ action: 'decline' }, { action: 'accept', content: { ok: true } }] },
    },
    {
      name: 'summarize',
      method: 'tools/call',
      params: { name: 'summarize', arguments: { text: 'tides' } },
      answers: { sampling: [{ role: 'assistant', model: 'm', content: { type: 'text', text: 'the moon pulls the sea' } }] },
    },
    {
      name: 'colour accepted',
      method: 'tools/call',
      params: { name: 'colour' },
      answers: { elicitation: [{ action: 'accept', content: { colour: 'teal' } }] },
    },
    { name: 'colour cancelled', method: 'tools/call', params: { name: 'colour' }, answers: { elicitation: [{ action: 'cancel' }] } },
    {
      name: 'ping, stopped',
      method: 'tools/call',
      params: { name: 'ping' },
      answers: { elicitation: [{ action: 'accept', content: {} }] },
    },
    { name: 'ping, declined', method: 'tools/call', params: { name: 'ping' }, answers: { elicitation: [{ action: 'decline' }] } },
    {
      name: 'secret',
      method: 'tools/call',
      params: { name: 'secret' },
      answers: { elicitation: [{ action: 'accept', content: { s: 'swordfish' } }] },
    },
  ],
};

interface Site {
  file: string;
  line: number;
  column: number;
  kind: string;
  call: string;
  outcome: string;
  reason: string;
  handler?: string;
  shape?: string;
  /** Where the site was in the file as read, when the run wrote the file. */
  readAt?: { line: number; column: number };
}

interface Report {
  sites: Site[];
  notes: string[];
  files: { file: string; outcome: string }[];
  summary: Record<string, unknown>;
}

/** A site as `file:line outcome kind handler`, its line in the file as read. */
const described = (s: Site) => `${s.file}:${s.readAt?.line ?? s.line} ${s.outcome} ${s.kind} ${s.handler ?? ''}`.trimEnd();

function writeProject(dir: string, files: Record<string, string>): void {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

/** A repository of its own, as a user's project would be (the repo's .gitignore of .tmp/ does not apply). */
function commitAll(dir: string, message: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      stdio: 'pipe',
    });
  if (!fs.existsSync(path.join(dir, '.git'))) git('init', '-q');
  git('add', '.');
  git('commit', '-qm', message);
}

function runCli(dir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules'))
    .map(f => path.join(dir, f));
}

/** The project's sources as the official v1-to-v2 upgrade alone leaves them, by path in the project. */
function upgradedSources(files: Record<string, string>): Map<string, string> {
  const sources = Object.entries(files).filter(([rel]) => /\.[cm]?[jt]s$/.test(rel));
  const upgraded = upgradeV1(sources.map(([rel, text]) => ({ path: path.join('/project', rel), text }))).texts;
  return new Map(sources.map(([rel, text]) => [rel, upgraded.get(path.join('/project', rel)) ?? text]));
}

/**
 * The text with the replay's edits taken off: `ask(x)`, `resumable(x)` and `journaled(() => x)` back to `x`,
 * the `rethrowIfSuspended();` lines, the requestState option of the server's construction and the import of
 * the requestState module gone (test/reach.test.ts has the same, with what else it puts back).
 */
function unreplayed(text: string): string {
  for (;;) {
    const sf = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const slice = (node: ts.Node) => text.slice(node.getStart(sf), node.getEnd());
    const wholeLines = (node: ts.Node) => {
      const end = text.indexOf('\n', node.getEnd());
      return { start: text.lastIndexOf('\n', node.getStart(sf) - 1) + 1, end: end < 0 ? text.length : end + 1 };
    };
    const names = new Map<string, string>();
    let stateImport: { start: number; end: number } | undefined;
    for (const st of sf.statements) {
      if (
        !ts.isImportDeclaration(st) ||
        !ts.isStringLiteral(st.moduleSpecifier) ||
        !/(^|\/)mcp-migrate-state(\.[cm]?[jt]s)?$/.test(st.moduleSpecifier.text)
      )
        continue;
      const bindings = st.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) names.set(e.name.text, (e.propertyName ?? e.name).text);
      stateImport = wholeLines(st);
    }
    let edit: { start: number; end: number; text: string } | undefined;
    // The innermost edit first: the text it puts back is then the original's.
    const visit = (node: ts.Node): void => {
      ts.forEachChild(node, visit);
      if (edit) return;
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.has(node.expression.text)) {
        const what = names.get(node.expression.text);
        const [arg] = node.arguments;
        const at = { start: node.getStart(sf), end: node.getEnd() };
        if ((what === 'ask' || what === 'resumable') && arg) edit = { ...at, text: slice(arg) };
        else if (what === 'journaled' && arg && ts.isArrowFunction(arg) && !ts.isBlock(arg.body)) edit = { ...at, text: slice(arg.body) };
        else if (what === 'rethrowIfSuspended' && ts.isExpressionStatement(node.parent)) edit = { ...wholeLines(node.parent), text: '' };
      }
      if (
        ts.isPropertyAssignment(node) &&
        node.name.getText(sf) === 'requestState' &&
        ts.isObjectLiteralExpression(node.parent) &&
        node.parent.properties.length === 1
      ) {
        const made = node.parent.parent;
        if (ts.isNewExpression(made) && made.arguments?.length === 2)
          edit = { start: made.arguments[0]!.getEnd(), end: node.parent.getEnd(), text: '' };
      }
    };
    visit(sf);
    // (an import the run put first in a file that had none, with a blank line after it)
    if (!edit && stateImport)
      edit = {
        start: stateImport.start,
        end: stateImport.end + (stateImport.start === 0 && text[stateImport.end] === '\n' ? 1 : 0),
        text: '',
      };
    if (!edit) return text;
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  }
}

/** `ask(target)` as the rewrite writes a request's receiver, with or without the key the answer is asked under. */
function asked(target: string, name = 'ask'): RegExp {
  return new RegExp(`\\b${name}\\(${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:, '[^']*')?\\)`);
}

describe('helpers imported from other files of the project', () => {
  const before = path.join(work, 'before');
  const after = path.join(work, 'after');
  let report: Report;
  const read = (rel: string) => fs.readFileSync(path.join(after, rel), 'utf8');
  const upgraded = upgradedSources(PROJECT);

  beforeAll(() => {
    writeProject(before, PROJECT);
    writeProject(after, PROJECT);
    commitAll(after, 'original');
    const r = runCli(after, '.', '--json');
    expect(r.status, r.stderr).toBe(0);
    report = JSON.parse(r.stdout);
  }, 600_000);

  it('rewrites each request where its helper writes it: through a barrel, a default export, a helper of a third file, a cycle, module-locals', () => {
    expect(report.sites.map(described)).toEqual([
      'src/helpers/ask.ts:7 rewritten elicitation tools/call confirm',
      'src/helpers/colour.ts:2 rewritten elicitation tools/call colour',
      'src/helpers/cycle.ts:5 rewritten elicitation tools/call ping',
      'src/helpers/local.ts:4 rewritten elicitation tools/call secret',
      'src/helpers/names.ts:8 rewritten elicitation tools/call confirm',
      'src/server.ts:21 rewritten request tools/call summarize',
    ]);
    expect(report.summary.sites).toEqual({ rewritten: 6, marked: 0, skipped: 0 });
    expect(read('src/helpers/ask.ts')).toMatch(new RegExp(`const answer = await ${asked('server.server').source}\\.elicitInput\\(`));
    expect(read('src/helpers/names.ts')).toMatch(new RegExp(`const check = await ${asked('server.server').source}\\.elicitInput\\(\\{`));
    expect(read('src/helpers/colour.ts')).toMatch(new RegExp(`const answer = await ${asked('server.server').source}\\.elicitInput\\(`));
    expect(read('src/helpers/cycle.ts')).toMatch(new RegExp(`const a = await ${asked('server.server').source}\\.elicitInput\\(`));
    expect(read('src/helpers/local.ts')).toMatch(new RegExp(`const a = await ${asked('server.server').source}\\.elicitInput\\(`));
  });

  it("hands sampleWith the context's request channel through ask(...), where the handler hands it on", () => {
    const server = read('src/server.ts');
    expect(server).toMatch(
      new RegExp(`const summary = await sampleWith\\(${asked('ctx.mcpReq').source}\\.send, CreateMessageResultSchema, text\\);`),
    );
    expect(read('src/helpers/sampling.ts')).toBe(PROJECT['src/helpers/sampling.ts']);
  });

  it('registers each tool resumable and imports nothing of the helpers into the handler file', () => {
    const server = read('src/server.ts');
    for (const tool of ['confirm', 'summarize', 'colour', 'ping', 'secret'])
      expect(server).toContain(`resumable(server).registerTool('${tool}',`);
    expect(server).toContain("const DEFAULT_NAME = 'server-default';");
    expect(server).not.toMatch(/defaults\.js|NAME_SCHEMA|FALLBACK|PROMPT/);
    expect(server).toMatch(/^serveStdio\(\(\) => server\);$/m);
  });

  it('edits the helper files at their requests and nowhere else: nothing exported, pasted or renamed', () => {
    for (const rel of ['src/helpers/index.ts', 'src/helpers/sampling.ts', 'src/helpers/cycle2.ts', 'src/helpers/defaults.ts']) {
      expect(read(rel), rel).toBe(PROJECT[rel]);
    }
    for (const rel of [
      'src/helpers/names.ts',
      'src/helpers/ask.ts',
      'src/helpers/colour.ts',
      'src/helpers/cycle.ts',
      'src/helpers/local.ts',
    ]) {
      expect(unreplayed(read(rel)), rel).toBe(upgraded.get(rel));
      expect(read(rel), rel).not.toMatch(/mcp-migrate:/);
    }
    // The module-locals of local.ts, two in one statement, stay as they are, unexported.
    expect(read('src/helpers/local.ts')).toMatch(/^const PROMPT = 'Secret\?', HINT = 'one word';$/m);
    // The cycle's calls are still there: nothing is unrolled.
    expect(read('src/helpers/cycle.ts')).toContain('  return pong(server, n - 1);');
    expect(read('src/server.ts')).toContain('const n = await ping(server, 2);');
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
  // it is rewritten as upgraded, not as it is on disk, and the handler's registration made resumable.
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

  const outputs = new Map<string, { server: string; ask: string; report: string }>();
  for (const jobs of ['1', '2']) {
    it(`finds the helper chain from a handler file without a trigger name, through a file the pre-filter does not decode (--jobs ${jobs})`, () => {
      const dir = path.join(work, `discovery-${jobs}`);
      writeProject(dir, files);
      commitAll(dir, 'original');
      const r = runCli(dir, '.', '--json', '--jobs', jobs);
      expect(r.status, r.stderr).toBe(0);
      const report: Report = JSON.parse(r.stdout);
      expect(report.sites.map(described)).toEqual([
        'src/ask.ts:4 rewritten elicitation tools/call colour',
        'src/other.ts:6 rewritten elicitation tools/call name',
      ]);
      expect(report.files.find(f => f.file === 'src/colour.ts')?.outcome).toBe('unchanged');
      const server = fs.readFileSync(path.join(dir, 'src', 'server.ts'), 'utf8');
      expect(server).toContain("resumable(server).registerTool('colour',");
      expect(server).toContain('const colour = await askColour(server);');
      const ask = fs.readFileSync(path.join(dir, 'src', 'ask.ts'), 'utf8');
      expect(ask).toMatch(new RegExp(`const answer: ElicitResult = await ${asked('server.server').source}\\.elicitInput\\(`));
      // The helper as upgraded: its type comes from the 2.x package, and nothing imports the 1.x SDK any more.
      expect(ask).toMatch(/^import type \{ ElicitResult \} from ["']@modelcontextprotocol\/server["'];$/m);
      for (const file of filesUnder(dir)) expect(fs.readFileSync(file, 'utf8'), file).not.toContain('@modelcontextprotocol/sdk');
      expect(typecheckFiles(filesUnder(dir), dir)).toEqual([]);
      // The same result in one thread or two.
      outputs.set(jobs, { server, ask, report: r.stdout });
      if (outputs.has('1') && jobs !== '1') expect(outputs.get(jobs)).toEqual(outputs.get('1'));
    }, 600_000);
  }
});

describe('a request method exported under another name', () => {
  // `ask` holds the server's elicitInput, exported by the server's module; the tools file calls it naming no
  // trigger and importing nothing of the SDK or zod, so the text pre-filter alone never decodes it. The
  // alias is rewritten where it is made, so every call of it asks through the requestState module.
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

  it('rewrites the alias at its definition, and registers the handler that calls it resumable', () => {
    const dir = path.join(work, 'exported-alias');
    writeProject(dir, files);
    commitAll(dir, 'original');
    const r = runCli(dir, 'src', '--json');
    expect(r.status, r.stderr).toBe(0);
    const report: Report = JSON.parse(r.stdout);
    expect(report.sites.map(described)).toEqual(['src/tools.ts:4 rewritten elicitation tools/call delete_note']);
    const server = fs.readFileSync(path.join(dir, 'src', 'server.ts'), 'utf8');
    // The requestState module's ask is imported under another name: the module exports an ask of its own.
    expect(server).toMatch(
      new RegExp(`^export const ask = ${asked('mcp.server', 'askClient').source}\\.elicitInput\\.bind\\(mcp\\.server\\);$`, 'm'),
    );
    const tools = fs.readFileSync(path.join(dir, 'src', 'tools.ts'), 'utf8');
    expect(tools).toContain("resumable(mcp).registerTool('delete_note',");
    expect(tools).toContain("const answer = await askUser({ message: 'Delete?',");
    expect(typecheckFiles(filesUnder(dir), dir)).toEqual([]);
  }, 600_000);

  it('rewrites it the same when an importing file also hands the alias on', () => {
    const dir = path.join(work, 'exported-alias-handed-on');
    writeProject(dir, { ...files, 'src/retry.ts': "import { ask } from './server.js';\n\nexport const asker = { ask };\n" });
    commitAll(dir, 'original');
    const r = runCli(dir, 'src', '--json');
    expect(r.status, r.stderr).toBe(0);
    const report: Report = JSON.parse(r.stdout);
    expect(report.sites.filter(s => s.outcome === 'rewritten').map(described)).toEqual([
      'src/tools.ts:4 rewritten elicitation tools/call delete_note',
    ]);
    expect(fs.readFileSync(path.join(dir, 'src', 'server.ts'), 'utf8')).toMatch(
      new RegExp(`export const ask = ${asked('mcp.server', 'askClient').source}\\.elicitInput\\.bind\\(mcp\\.server\\);`),
    );
    expect(fs.readFileSync(path.join(dir, 'src', 'retry.ts'), 'utf8')).toBe(
      "import { ask } from './server.js';\n\nexport const asker = { ask };\n",
    );
  }, 600_000);

  it('does not mark the definition as a request made at module level', () => {
    const dir = path.join(work, 'exported-alias-handed-on-check');
    writeProject(dir, { ...files, 'src/retry.ts': "import { ask } from './server.js';\n\nexport const asker = { ask };\n" });
    commitAll(dir, 'original');
    const r = runCli(dir, 'src', '--json');
    const report: Report = JSON.parse(r.stdout);
    expect(report.sites.filter(s => s.outcome === 'marked').map(s => `${described(s)}: ${s.reason}`)).toEqual([]);
  }, 600_000);
});

describe('module-level state of the helpers', () => {
  // Each helper module declares variables of its own, and asks a name with one of them; some assign them
  // after the question (in a statement, by destructuring, as a loop variable, in an expression, with a
  // logical assignment, in a timer, through a setter the module has, by increments of a number or of what
  // is not one). Inlining needed exports and setters for those; replay leaves every helper where it is,
  // its variables assigned as they were (each handler runs its helper last: nothing after a question runs twice). The server's tools
  // return what the helper gave and the module's variables after it, so verify sees the state on both eras.
  const dir = path.join(work, 'module-state');
  const variants: { name: string; declarations: string; afterAsking: string; state: string[] }[] = [
    { name: 'const', declarations: "const PROMPT = 'Name?';", afterAsking: '', state: ['PROMPT'] },
    { name: 'let', declarations: "let PROMPT = 'Name?';", afterAsking: '', state: ['PROMPT'] },
    { name: 'assigned', declarations: "let PROMPT = 'Name?';", afterAsking: "\n  PROMPT = 'Name again?';", state: ['PROMPT'] },
    {
      name: 'counted',
      declarations: "const PROMPT = 'Name?';\nlet asked = 0;\nlet last = '';",
      afterAsking: "\n  asked++;\n  asked *= a.action === 'accept' ? 2 : 1;\n  last = String(a.content?.n);",
      state: ['asked', 'last'],
    },
    {
      name: 'setter',
      declarations: "let PROMPT = 'Name?';\nfunction setPROMPT(text: string) {\n  PROMPT = text;\n}",
      afterAsking: "\n  setPROMPT('Name again?');",
      state: ['PROMPT'],
    },
    // (what the timer sets is not read back: when it fires against the next call is no business of the test's)
    {
      name: 'timer',
      declarations: "let PROMPT = 'Name?';\nlet fired = false;",
      afterAsking: '\n  setTimeout(() => { fired = true; }, 0);',
      state: ['PROMPT'],
    },
    { name: 'destructured', declarations: "let PROMPT = 'Name?';", afterAsking: "\n  [PROMPT] = ['again'];", state: ['PROMPT'] },
    { name: 'loop', declarations: "let PROMPT = 'Name?';", afterAsking: "\n  for (PROMPT of ['a', 'b']) void 0;", state: ['PROMPT'] },
    {
      name: 'expression',
      declarations: "let PROMPT = 'Name?';",
      afterAsking: "\n  const was = (PROMPT = 'again');\n  void was;",
      state: ['PROMPT'],
    },
    { name: 'logical', declarations: "let PROMPT = '';", afterAsking: "\n  PROMPT ||= 'again';", state: ['PROMPT'] },
    { name: 'any', declarations: "let PROMPT: any = 'Name?';\nlet count: any = '1';", afterAsking: '\n  count++;', state: ['count'] },
    {
      name: 'taken',
      declarations: "let PROMPT = 'Name?';\nexport const setPROMPT = 1;",
      afterAsking: "\n  PROMPT = 'again';",
      state: ['PROMPT', 'setPROMPT'],
    },
    {
      name: 'narrowed',
      declarations: "const PROMPT = 'Name?';\nlet last: string | undefined;",
      afterAsking: "\n  last = 'x';\n  void last.length;",
      state: ['last'],
    },
  ];
  const helper = (v: (typeof variants)[number]) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
${v.declarations}
export async function askName_${v.name}(server: McpServer): Promise<string> {
  const a = await server.server.elicitInput({ message: PROMPT || 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });${v.afterAsking}
  return a.action === 'accept' ? String(a.content?.n) : 'nobody';
}

export function state_${v.name}(): string {
  return JSON.stringify({ ${v.state.join(', ')} });
}
`;
  const files: Record<string, string> = {
    'package.json': PACKAGE,
    ...Object.fromEntries(variants.map(v => [`src/helper-${v.name}.ts`, helper(v)])),
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
${variants.map(v => `import { askName_${v.name}, state_${v.name} } from './helper-${v.name}.js';`).join('\n')}

const server = new McpServer({ name: 'locals', version: '1.0.0' });
${variants
  .map(
    v => `
server.registerTool('hello_${v.name}', { description: 'Greets' }, async () => {
  const name = await askName_${v.name}(server);
  return { content: [{ type: 'text', text: \`hello \${name} \${state_${v.name}()}\` }] };
});`,
  )
  .join('\n')}

await server.connect(new StdioServerTransport());
`,
  };
  const before = path.join(dir, 'before');
  const after = path.join(dir, 'after');
  let report: Report;
  const read = (rel: string) => fs.readFileSync(path.join(after, rel), 'utf8');
  const upgraded = upgradedSources(files);

  beforeAll(() => {
    writeProject(before, files);
    writeProject(after, files);
    commitAll(after, 'original');
    const r = runCli(after, '.', '--json');
    expect(r.status, r.stderr).toBe(0);
    report = JSON.parse(r.stdout);
  }, 600_000);

  it("rewrites each helper's request where it is written, for the tool that calls it", () => {
    // (the request is on the line after the declarations and the function's own)
    expect(report.sites.map(described).sort()).toEqual(
      variants
        .map(v => `src/helper-${v.name}.ts:${v.declarations.split('\n').length + 3} rewritten elicitation tools/call hello_${v.name}`)
        .sort(),
    );
    for (const v of variants)
      expect(read(`src/helper-${v.name}.ts`), v.name).toMatch(
        new RegExp(`const a = await ${asked('server.server').source}\\.elicitInput\\(`),
      );
  });

  it('leaves each module its variables as they were: no export, no setter, every assignment where it was', () => {
    for (const v of variants) {
      const rel = `src/helper-${v.name}.ts`;
      const text = read(rel);
      expect(unreplayed(text), rel).toBe(upgraded.get(rel));
      expect(text.match(/^export /gm), rel).toHaveLength(helper(v).match(/^export /gm)!.length);
      expect(text.match(/function set[A-Z]/g)?.length ?? 0, rel).toBe(v.name === 'setter' ? 1 : 0);
      expect(text, rel).not.toMatch(/mcp-migrate:/);
    }
  });

  it("journals nothing after a helper's question: each handler runs its helper last, so that part runs once", () => {
    // (test/reach.test.ts, 'a helper run last by one handler and before a question by another', journals it where a
    // handler may ask after the helper)
    const journaled = Object.fromEntries(
      variants.filter(v => v.name !== 'timer').map(v => [v.name, journaledWork(read(`src/helper-${v.name}.ts`))]),
    );
    expect(journaled).toEqual(Object.fromEntries(variants.filter(v => v.name !== 'timer').map(v => [v.name, []])));
  });

  it('sets a timer again on each round, as a log line is written again', () => {
    expect(journaledWork(read('src/helper-timer.ts'))).toEqual([]);
  });

  it('typechecks against the real SDK 2.x types', () => {
    expect(typecheckFiles(filesUnder(after), after)).toEqual([]);
  }, 600_000);

  it("gives the original's results and questions on both eras, each tool called twice", async () => {
    const result: VerifyResult = await verify({
      before: `${tsx} ${path.join(before, 'src', 'server.ts')}`,
      after: `${tsx} ${path.join(after, 'src', 'server.ts')}`,
      scenario: parseScenario({
        calls: variants.flatMap(v =>
          ['Ada', 'Bo'].map(n => ({
            name: `${v.name} ${n}`,
            method: 'tools/call',
            params: { name: `hello_${v.name}` },
            answers: { elicitation: [{ action: 'accept', content: { n } }] },
          })),
        ),
      }),
      env,
      timeoutMs: 120_000,
    });
    expect(result.rows).toHaveLength(variants.length * 2 * 3);
    expect(result.ok, formatVerifyTable(result)).toBe(true);
  }, 600_000);

  it('leaves a helper in a module that assigns its CommonJS exports as it was, but for its request', async () => {
    const cjs = path.join(work, 'module-state-cjs');
    fs.rmSync(cjs, { recursive: true, force: true });
    fs.mkdirSync(cjs, { recursive: true });
    const { migrateSources } = await import('../src/pipeline.js');
    const text = helper({
      name: 'cjs',
      declarations: "let PROMPT = 'Name?';\nmodule.exports.legacy = true;",
      afterAsking: "\n  PROMPT = 'again';",
      state: ['PROMPT'],
    });
    const server = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askName_cjs } from './helper.js';

const server = new McpServer({ name: 'locals', version: '1.0.0' });

server.registerTool('hello', { description: 'Greets' }, async () => {
  const name = await askName_cjs(server);
  return { content: [{ type: 'text', text: \`hello \${name}\` }] };
});
`;
    const r = await migrateSources(
      [
        { path: path.join(cjs, 'helper.ts'), text },
        { path: path.join(cjs, 'server.ts'), text: server },
      ],
      { cwd: cjs },
    );
    expect(r.report.sites.map(s => `${s.file}:${s.line} ${s.outcome} ${s.handler}`)).toEqual(['helper.ts:5 rewritten tools/call hello']);
    const after = r.changes.find(c => c.path.endsWith('helper.ts'))!.after;
    expect(unreplayed(after)).toBe(upgradedSources({ 'helper.ts': text }).get('helper.ts'));
    expect(after).toContain('module.exports.legacy = true;\nexport async function askName_cjs(');
  }, 600_000);
});

describe('locals of a JavaScript handler typed in another module', () => {
  const dir = path.join(work, 'jsdoc-types');

  it('stay as they were written, so checked JavaScript keeps their types', async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    // Naming no request, the module is read from the disk as the handler's import.
    fs.writeFileSync(
      path.join(dir, 'recipes.js'),
      "/** @typedef {{ name: string, servings: number }} Recipe */\n\n/** @type {Recipe[]} */\nexport const recipes = [{ name: 'pancakes', servings: 4 }];\n",
    );
    const { migrateSources } = await import('../src/pipeline.js');
    const text = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { recipes } from './recipes.js';

const server = new McpServer({ name: 'recipes', version: '1.0.0' });

server.registerTool('scale', { description: 'Scales the first recipe' }, async () => {
  const recipe = recipes.find(r => r.servings > 0);
  if (!recipe) return { content: [] };
  const answer = await server.server.elicitInput({ message: 'Servings?', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } });
  return { content: [{ type: 'text', text: \`\${recipe.name} \${answer.action}\` }] };
});
`;
    const r = await migrateSources([{ path: path.join(dir, 'server.js'), text }], { cwd: dir });
    expect(r.report.sites.map(s => `${s.line} ${s.outcome} ${s.handler}`)).toEqual(['9 rewritten tools/call scale']);
    const server = r.changes.find(c => c.path.endsWith('server.js'))!.after;
    // Read of a module's array before the question: a pure read, done again on each round.
    expect(server).toContain('  const recipe = recipes.find(r => r.servings > 0);\n  if (!recipe) return { content: [] };\n');
    expect(server).toMatch(new RegExp(`const answer = await ${asked('server.server').source}\\.elicitInput\\(`));
    expect(server).toContain("resumable(server).registerTool('scale',");
    for (const c of r.changes) fs.writeFileSync(c.path, c.after);
    expect(
      typecheckFiles([path.join(dir, 'server.js'), path.join(dir, 'recipes.js')], dir, { checkJs: true }).filter(e =>
        e.startsWith('server.js'),
      ),
    ).toEqual([]);
  }, 600_000);
});

describe('a helper of another package of a workspace, outside the run', () => {
  const dir = path.join(work, 'workspace');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };

  // The shared package is imported by its name, linked into node_modules as a workspace links it: its real path
  // is outside node_modules, a source of the project, and the run (the server's package) does not migrate it.
  it('marks the call into it, which fails on MCP 2026-07-28', () => {
    fs.rmSync(dir, { recursive: true, force: true });
    write('packages/shared/package.json', '{ "name": "@acme/shared", "version": "1.0.0", "type": "module", "types": "src/index.ts" }\n');
    write(
      'packages/shared/src/index.ts',
      `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function confirm(server: McpServer, what: string): Promise<boolean> {
  const answer = await server.server.elicitInput({ message: \`Really \${what}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return answer.action === 'accept';
}
`,
    );
    write('packages/server/package.json', PACKAGE);
    write(
      'packages/server/src/index.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { confirm } from '@acme/shared';

const server = new McpServer({ name: 'ws', version: '1.0.0' });
server.registerTool('wipe', { inputSchema: { what: z.string() } }, async ({ what }) => {
  if (!(await confirm(server, what))) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: \`wiped \${what}\` }] };
});
`,
    );
    fs.mkdirSync(path.join(dir, 'node_modules', '@acme'), { recursive: true });
    fs.symlinkSync(path.join('..', '..', 'packages', 'shared'), path.join(dir, 'node_modules', '@acme', 'shared'));
    write('.gitignore', 'node_modules/\n');
    commitAll(dir, 'workspace');
    const r = runCli(dir, '--dry-run', '--format', 'json', 'packages/server/src');
    const report = JSON.parse(r.stdout) as { sites: { file: string; line: number; outcome: string; reason: string }[] };
    expect(report.sites.map(s => `${s.file}:${s.line} ${s.outcome}`)).toEqual(['packages/server/src/index.ts:7 marked']);
    expect(report.sites[0]!.reason).toContain('in packages/shared/src/index.ts, a file outside this run');
    expect(runCli(dir, '--check', '--quiet', 'packages/server/src').status).toBe(1);
  }, 600_000);
});
