/**
 * Seeded trees shaped like real MCP servers (issue 19): unlike the synthetic monorepos of generate.ts,
 * where ~1% of files touch the SDK, here most files import `@modelcontextprotocol/sdk`, as in the public
 * servers the issue measured (25 to 250 files). Written in the shapes of the harness projects under
 * test/user-projects:
 * - tools as classes (class-tools: an abstract ToolModule, `this.server.registerTool(...)` in register());
 * - tools registered by factories (factory-server, cross-file-builtins: `registerXTools(server, api)`);
 * - helpers in other files that ask (cross-file-builtins' confirmRead, a sampling summary helper);
 * - one shared API client class (api-client-handles' WeatherApi) held by every tool and used across the
 *   await of the request;
 * - schema files (zod + SDK types), a few plain utilities without the SDK, an entry, a tsconfig.json.
 * Every file but the utilities imports the SDK, so the official codemod rewrites each of them; the tree
 * typechecks on SDK 1.x (the bench runs `tsc --noEmit` on it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prng } from './generate.js';

export interface RealShapedTree {
  root: string;
  /** Source files written. */
  files: number;
  /** Relative paths of the sources that import the SDK (each one the official codemod changes). */
  sdkFiles: string[];
  /** Server-initiated requests written (elicitInput / createMessage), in tools and helpers. */
  asks: number;
  /** Of those, the requests written in a handler's own body (not a call of a helper). */
  handlerAsks: number;
  /** The helper functions written (each asks once) and those a handler calls. */
  helperFunctions: number;
  calledHelpers: number;
  bytes: number;
}

const NOUNS = [
  'invoice',
  'ticket',
  'order',
  'customer',
  'project',
  'deploy',
  'incident',
  'repo',
  'issue',
  'release',
  'dataset',
  'report',
  'booking',
  'contact',
  'pipeline',
  'alert',
  'document',
  'folder',
  'payment',
  'shipment',
];
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const pascal = (s: string) => s.split('-').map(cap).join('');
const SDK_MCP = '@modelcontextprotocol/sdk/server/mcp.js';
const SDK_TYPES = '@modelcontextprotocol/sdk/types.js';

type Kind = 'class-tool' | 'factory' | 'helper' | 'schema' | 'util';
interface Writer {
  write(rel: string, text: string, sdk: boolean): void;
}

/** How many files of each kind, for a tree of `files` sources (4 of them fixed: entry, server, base, client). */
function plan(files: number, rand: () => number): Kind[] {
  const rest = Math.max(5, files - 4);
  const helpers = Math.max(1, Math.round(rest * 0.1));
  const schemas = Math.max(1, Math.round(rest * 0.12));
  const utils = Math.max(1, Math.round(rest * 0.08));
  const factories = Math.max(1, Math.round(rest * 0.18));
  const classTools = Math.max(1, rest - helpers - schemas - utils - factories);
  const kinds: Kind[] = [
    ...Array<Kind>(helpers).fill('helper'),
    ...Array<Kind>(schemas).fill('schema'),
    ...Array<Kind>(utils).fill('util'),
  ];
  // Tools and factories interleaved at random; helpers/schemas/utils come first so tools can import them.
  const tools: Kind[] = [...Array<Kind>(classTools).fill('class-tool'), ...Array<Kind>(factories).fill('factory')];
  for (let i = tools.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [tools[i], tools[j]] = [tools[j], tools[i]];
  }
  return [...kinds, ...tools];
}

export function generateRealShapedTree(root: string, opts: { files: number; seed: number; name: string }): RealShapedTree {
  const rand = prng(opts.seed);
  const sdkFiles: string[] = [];
  let bytes = 0;
  let files = 0;
  const w: Writer = {
    write(rel, text, sdk) {
      const file = path.join(root, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      if (rel.startsWith('src/')) {
        files++;
        bytes += Buffer.byteLength(text);
        if (sdk) sdkFiles.push(rel);
      }
    },
  };
  writeProjectFiles(w, opts.name);
  w.write('src/lib/api-client.ts', apiClient(), true);
  w.write('src/tools/base.ts', toolBase(), true);
  const ctx: Ctx = { rand, helpers: [], schemas: [], utils: [], modules: [], factories: [], asks: 0, handlerAsks: 0, called: new Set() };
  plan(opts.files, rand).forEach((kind, i) => writeOne(w, ctx, kind, i));
  w.write('src/server.ts', serverFile(ctx), true);
  w.write('src/index.ts', entryFile(opts.name), true);
  return {
    root,
    files,
    sdkFiles,
    asks: ctx.asks,
    handlerAsks: ctx.handlerAsks,
    helperFunctions: 2 * ctx.helpers.length,
    calledHelpers: ctx.called.size,
    bytes,
  };
}

interface Ctx {
  rand: () => number;
  /** Helper modules: relative path from src/, and their asking functions. */
  helpers: { rel: string; confirm: string; summarize: string }[];
  schemas: { rel: string; shape: string }[];
  utils: { rel: string; fn: string }[];
  /** Class tool modules: relative path and class name. */
  modules: { rel: string; cls: string }[];
  factories: { rel: string; fn: string }[];
  asks: number;
  /** Requests in handlers' own bodies. */
  handlerAsks: number;
  /** The helper functions some handler calls. */
  called: Set<string>;
}

function writeOne(w: Writer, ctx: Ctx, kind: Kind, i: number): void {
  const noun = NOUNS[i % NOUNS.length];
  const id = `${noun}-${i}`;
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(ctx.rand() * xs.length)] : undefined);
  if (kind === 'helper') {
    const rel = `helpers/${id}-ask.ts`;
    ctx.helpers.push({ rel, confirm: `confirm${pascal(id)}`, summarize: `summarize${pascal(id)}` });
    ctx.asks += 2;
    w.write(`src/${rel}`, helperFile(noun, pascal(id)), true);
  } else if (kind === 'schema') {
    const rel = `schemas/${id}.ts`;
    ctx.schemas.push({ rel, shape: `${pascal(id)}Input` });
    w.write(`src/${rel}`, schemaFile(noun, pascal(id)), true);
  } else if (kind === 'util') {
    const rel = `util/${id}.ts`;
    ctx.utils.push({ rel, fn: `format${pascal(id)}` });
    w.write(`src/${rel}`, utilFile(noun, pascal(id)), false);
  } else {
    const deps: Deps = { helper: ctx.rand() < 0.5 ? pick(ctx.helpers) : undefined, schema: pick(ctx.schemas), util: pick(ctx.utils) };
    const variant = Math.floor(ctx.rand() * 3);
    countAsk(ctx, variant, deps);
    if (kind === 'class-tool') {
      const rel = `tools/${id}-tool.ts`;
      ctx.modules.push({ rel, cls: `${pascal(id)}Tool` });
      ctx.asks += variant === 2 ? 0 : 1;
      w.write(`src/${rel}`, classTool(noun, pascal(id), variant, deps), true);
    } else {
      const rel = `factories/${id}.ts`;
      ctx.factories.push({ rel, fn: `register${pascal(id)}Tools` });
      ctx.asks += 1 + (variant === 2 ? 0 : 1);
      ctx.handlerAsks++; // the tag tool's createMessage
      w.write(`src/${rel}`, factoryFile(noun, pascal(id), variant, deps), true);
    }
  }
}

/** Where a tool's asking statement (askLines) asks: in the handler's body, or through a helper it calls. */
function countAsk(ctx: Ctx, variant: number, d: Deps): void {
  if (variant === 2) return;
  if (!d.helper) ctx.handlerAsks++;
  else ctx.called.add(variant === 0 ? d.helper.confirm : d.helper.summarize);
}

function writeProjectFiles(w: Writer, name: string): void {
  const pkg = {
    name,
    version: '1.0.0',
    private: true,
    type: 'module',
    scripts: { build: 'tsc -p tsconfig.json', start: 'node dist/index.js' },
    dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.1.12' },
    devDependencies: { '@types/node': '^20.19.0', typescript: '^5.8.3' },
  };
  w.write('package.json', JSON.stringify(pkg, null, 2) + '\n', false);
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      outDir: 'dist',
      rootDir: 'src',
      esModuleInterop: true,
      skipLibCheck: true,
      forceConsistentCasingInFileNames: true,
    },
    include: ['src'],
  };
  w.write('tsconfig.json', JSON.stringify(tsconfig, null, 2) + '\n', false);
  w.write('.gitignore', 'node_modules/\ndist/\n', false);
}

interface Deps {
  helper?: Ctx['helpers'][number];
  schema?: Ctx['schemas'][number];
  util?: Ctx['utils'][number];
}

/** Import lines for a file under src/<dir>/ (one level deep). */
function depImports(d: Deps): string {
  const lines: string[] = [];
  if (d.helper) lines.push(`import { ${d.helper.confirm}, ${d.helper.summarize} } from '../${d.helper.rel.replace(/\.ts$/, '.js')}';`);
  if (d.schema) lines.push(`import { ${d.schema.shape} } from '../${d.schema.rel.replace(/\.ts$/, '.js')}';`);
  if (d.util) lines.push(`import { ${d.util.fn} } from '../${d.util.rel.replace(/\.ts$/, '.js')}';`);
  return lines.join('\n');
}

function apiClient(): string {
  return `import { ErrorCode, McpError } from '${SDK_TYPES}';

export interface ApiRecord {
  id: string;
  title: string;
  status: 'open' | 'closed' | 'draft';
  updatedAt: number;
}

/** The backend client every tool shares: holds its base URL, key and counters, as real clients hold an agent. */
export class ApiClient {
  private requests = 0;
  private readonly records = new Map<string, ApiRecord>();

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async list(kind: string, query = ''): Promise<ApiRecord[]> {
    this.requests++;
    const all = Array.from({ length: 5 }, (_, i) => this.records.get(\`\${kind}-\${i}\`) ?? { id: \`\${kind}-\${i}\`, title: \`\${kind} \${i}\`, status: 'open' as const, updatedAt: i });
    return all.filter(r => r.title.includes(query));
  }

  async get(kind: string, id: string): Promise<ApiRecord> {
    this.requests++;
    const found = (await this.list(kind)).find(r => r.id === id);
    if (!found) throw new McpError(ErrorCode.InvalidParams, \`no \${kind} \${id}\`);
    return found;
  }

  async update(kind: string, id: string, patch: Partial<ApiRecord>): Promise<ApiRecord> {
    const record = { ...(await this.get(kind, id)), ...patch, updatedAt: Date.now() };
    this.records.set(id, record);
    return record;
  }

  describe(): string {
    return \`\${new URL(this.baseUrl).host} (\${this.requests} requests, \${this.apiKey.length}-character key)\`;
  }
}
`;
}

function toolBase(): string {
  return `import type { McpServer } from '${SDK_MCP}';
import type { ApiClient } from '../lib/api-client.js';

/** A tool that registers itself on the server it is given, with the shared API client. */
export abstract class ToolModule {
  constructor(
    protected readonly server: McpServer,
    protected readonly api: ApiClient,
  ) {}

  abstract register(): void;

  protected text(text: string) {
    return { content: [{ type: 'text' as const, text }] };
  }
}
`;
}

function helperFile(noun: string, P: string): string {
  return `import type { McpServer } from '${SDK_MCP}';

/** Asks the user to confirm an action on a ${noun}; false unless they accept and tick the box. */
export async function confirm${P}(server: McpServer, what: string): Promise<boolean> {
  const answer = await server.server.elicitInput({
    message: \`Really \${what}?\`,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: 'Confirm' } },
      required: ['confirm'],
    },
  });
  return answer.action === 'accept' && answer.content?.confirm === true;
}

/** Asks the client's model for a one-line summary of a ${noun}. */
export async function summarize${P}(server: McpServer, text: string): Promise<string> {
  const reply = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: \`Summarize this ${noun} in one line: \${text}\` } }],
    maxTokens: 60,
  });
  return reply.content.type === 'text' ? reply.content.text.trim() : '(no summary)';
}
`;
}

function schemaFile(noun: string, P: string): string {
  return `import { z } from 'zod';
import type { CallToolResult } from '${SDK_TYPES}';

export const ${P}Input = {
  id: z.string().describe('The ${noun} id'),
  note: z.string().max(200).optional(),
};

export type ${P}Result = CallToolResult;

export function empty${P}(reason: string): ${P}Result {
  return { content: [{ type: 'text', text: \`No ${noun}: \${reason}\` }], isError: true };
}
`;
}

function utilFile(noun: string, P: string): string {
  return `/** Plain formatting, no SDK: one line per ${noun}. */
export function format${P}(items: { id: string; title: string; status: string }[]): string {
  if (items.length === 0) return 'nothing found';
  return items
    .map(item => \`\${item.id.padEnd(12)} \${item.status.padEnd(6)} \${item.title}\`)
    .sort((a, b) => a.localeCompare(b))
    .join('\\n');
}
`;
}

/** The asking statement of a tool: direct elicitation (0), direct sampling (1), or none (2); or the helper. */
function askLines(variant: number, srv: string, noun: string, d: Deps, indent: string): { lines: string; after: string } {
  if (variant === 2) return { lines: '', after: `'listed'` };
  if (d.helper && variant === 0) {
    return {
      lines: `${indent}const ok = await ${d.helper.confirm}(${srv}, \`close \${record.title}\`);\n${indent}if (!ok) return { content: [{ type: 'text' as const, text: 'Left open.' }] };\n`,
      after: `'closed'`,
    };
  }
  if (d.helper) {
    return { lines: `${indent}const summary = await ${d.helper.summarize}(${srv}, record.title);\n`, after: 'summary' };
  }
  if (variant === 0) {
    return {
      lines: `${indent}const answer = await ${srv}.server.elicitInput({
${indent}  message: \`Which status for \${record.title}?\`,
${indent}  requestedSchema: {
${indent}    type: 'object',
${indent}    properties: { status: { type: 'string', enum: ['open', 'closed', 'draft'] } },
${indent}    required: ['status'],
${indent}  },
${indent}});
${indent}if (answer.action !== 'accept') return { content: [{ type: 'text' as const, text: \`Unchanged (\${answer.action}).\` }] };
`,
      after: `String(answer.content?.status)`,
    };
  }
  return {
    lines: `${indent}const reply = await ${srv}.server.createMessage({
${indent}  messages: [{ role: 'user', content: { type: 'text', text: \`Suggest a title for this ${noun}: \${record.title}\` } }],
${indent}  maxTokens: 40,
${indent}});
`,
    after: `reply.content.type === 'text' ? reply.content.text : record.title`,
  };
}

function classTool(noun: string, P: string, variant: number, d: Deps): string {
  const ask = askLines(variant, 'this.server', noun, d, '        ');
  const shape = d.schema ? `${d.schema.shape}` : `{ id: z.string() }`;
  const fmt = d.util ? `${d.util.fn}(await this.api.list('${noun}'))` : `(await this.api.list('${noun}')).length`;
  return `import { z } from 'zod';
import { ErrorCode, McpError } from '${SDK_TYPES}';
import { ToolModule } from './base.js';
${depImports(d)}

export class ${P}Tool extends ToolModule {
  private readonly seen: string[] = [];

  register(): void {
    this.server.registerTool(
      'update_${noun}_${P.toLowerCase()}',
      { description: 'Update a ${noun}, asking the user or the model first', inputSchema: ${shape} },
      async ({ id }) => {
        if (!id.trim()) throw new McpError(ErrorCode.InvalidParams, 'id is empty');
        const record = await this.api.get('${noun}', id);
${ask.lines}        const saved = await this.api.update('${noun}', id, { title: String(${ask.after}) });
        this.seen.push(saved.id);
        return this.text(\`\${saved.title} via \${this.api.describe()} (\${this.seen.length} seen)\\n\${${fmt}}\`);
      },
    );
  }
}
${d.helper || d.schema ? '' : `\nexport const ${P}Shape = z.object({ id: z.string() });\n`}`;
}

function factoryFile(noun: string, P: string, variant: number, d: Deps): string {
  const ask = askLines(variant, 'server', noun, d, '      ');
  const shape = d.schema ? `${d.schema.shape}` : `{ id: z.string() }`;
  return `import { McpServer } from '${SDK_MCP}';
import { z } from 'zod';
import type { ApiClient } from '../lib/api-client.js';
${depImports(d)}

export function register${P}Tools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'list_${noun}_${P.toLowerCase()}',
    { description: 'List ${noun}s', inputSchema: { query: z.string().default('') } },
    async ({ query }) => {
      const items = await api.list('${noun}', query);
      return { content: [{ type: 'text', text: items.map(i => i.title).join('\\n') || 'none' }] };
    },
  );

  server.registerTool(
    'edit_${noun}_${P.toLowerCase()}',
    { description: 'Edit a ${noun}', inputSchema: ${shape} },
    async ({ id }) => {
      const record = await api.get('${noun}', id);
${ask.lines}      const saved = await api.update('${noun}', id, { title: String(${ask.after}) });
      return { content: [{ type: 'text', text: \`\${saved.title} via \${api.describe()}\` }] };
    },
  );

  server.registerTool(
    'tag_${noun}_${P.toLowerCase()}',
    { description: 'Ask the client model for a tag', inputSchema: { id: z.string() } },
    async ({ id }) => {
      const record = await api.get('${noun}', id);
      const reply = await server.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: \`One tag for: \${record.title}\` } }],
        maxTokens: 10,
      });
      const tag = reply.content.type === 'text' ? reply.content.text.trim() : 'untagged';
      await api.update('${noun}', id, { title: \`\${record.title} [\${tag}]\` });
      return { content: [{ type: 'text', text: \`\${record.id}: \${tag} (model \${reply.model})\` }] };
    },
  );
}
`;
}

/**
 * The class tools' list in server.ts: on one line, as the trees to 250 files were measured with (2,000 characters
 * at 250); one class a line past 4,000 characters (8,000 at 1,000 files), a line no formatter leaves and one
 * mcp-migrate reads as generated code (over 5,000) and skips.
 */
function moduleList(classes: string[]): string {
  const line = `[${classes.join(', ')}]`;
  return line.length <= 4000 ? line : `[\n${classes.map(c => `    ${c},\n`).join('')}  ]`;
}

function serverFile(ctx: Ctx): string {
  const imports = [
    ...ctx.modules.map(m => `import { ${m.cls} } from './${m.rel.replace(/\.ts$/, '.js')}';`),
    ...ctx.factories.map(f => `import { ${f.fn} } from './${f.rel.replace(/\.ts$/, '.js')}';`),
  ];
  return `import { McpServer } from '${SDK_MCP}';
import { ApiClient } from './lib/api-client.js';
${imports.join('\n')}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'bench-real', version: '1.0.0' }, { capabilities: { tools: {} } });
  const api = new ApiClient(process.env.API_URL ?? 'https://api.example.com/v1', process.env.API_KEY ?? 'demo-key');
  for (const Module of ${moduleList(ctx.modules.map(m => m.cls))}) new Module(server, api).register();
${ctx.factories.map(f => `  ${f.fn}(server, api);`).join('\n')}
  return server;
}
`;
}

function entryFile(name: string): string {
  return `#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.js';

// ${name}
const server = createServer();
await server.connect(new StdioServerTransport());
`;
}
