/**
 * Seeded fan-out trees (issue 34): one asking helper called from N tool handlers spread over N/5 files, so
 * the cost of a run can be read per handler call as N grows (10, 100, 1,000). The public servers the issue
 * measured had this shape and it was their slowest part: a shared helper (a capability check, then a
 * request) reached from many handlers in many files, each after an API call, with the server handed around
 * in parameters and fields. The real-shaped trees of generate-real.ts did not show it: their helpers have
 * few callers. Here:
 * - one helper module, `confirmAction(server, what)`: checks `server.server.getClientCapabilities()`, then
 *   `server.server.elicitInput(...)`;
 * - N handlers, five to a file, each calling the API client before the helper (work to journal) and again
 *   after it, then returning a result; with `handlersInFirstFile`, the first tool file holds that many instead
 *   (the editor's latency bench opens it) and the rest are five to a file;
 * - half of the tool files are classes holding the server in a field (`this.server`), half are factories
 *   taking it as a parameter (`registerXTools(server, api)`), interleaved at random;
 * - a plain API client (no SDK), an entry that builds the server and calls every registration, a tsconfig.json.
 * Every file but the API client imports the SDK; the tree typechecks on SDK 1.x (the bench runs `tsc --noEmit`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prng } from './generate.js';

export interface FanoutTree {
  root: string;
  /** Source files written. */
  files: number;
  /** Handlers written, each calling the helper once. */
  handlers: number;
  /** Relative paths of the sources that import the SDK (each one the official codemod changes). */
  sdkFiles: string[];
  /** The tool files, with how many handlers (helper calls) each holds. */
  toolFiles: { rel: string; handlers: number }[];
  /** Relative path of the helper module, and the helper's name. */
  helper: { rel: string; fn: string };
  bytes: number;
}

/** Handlers per tool file. */
export const HANDLERS_PER_FILE = 5;

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
const VERBS = ['close', 'archive', 'delete', 'reopen', 'approve', 'reject', 'merge', 'publish', 'cancel', 'restore'];
const STATUSES = ['open', 'closed', 'draft'] as const;
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const SDK_MCP = '@modelcontextprotocol/sdk/server/mcp.js';
const HELPER = { rel: 'helpers/confirm.ts', fn: 'confirmAction' };

type Style = 'class' | 'factory';

/** One tool file to write: where, its class or factory name, and its handlers' verbs. */
interface ToolFile {
  rel: string;
  style: Style;
  name: string;
  noun: string;
  verbs: string[];
  /** Per handler: look the record up with get (true) or find it in a list (false). */
  lookups: boolean[];
}

export interface FanoutOptions {
  handlers: number;
  seed: number;
  name: string;
  /** Handlers in the first tool file (at most `handlers`); the others five to a file. Default: five there too. */
  handlersInFirstFile?: number;
}

export function generateFanoutTree(root: string, opts: FanoutOptions): FanoutTree {
  const rand = prng(opts.seed);
  const sdkFiles: string[] = [];
  let bytes = 0;
  let files = 0;
  const write = (rel: string, text: string, sdk: boolean) => {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (!rel.startsWith('src/')) return;
    files++;
    bytes += Buffer.byteLength(text);
    if (sdk) sdkFiles.push(rel);
  };
  writeProjectFiles(write, opts.name);
  write('src/lib/api-client.ts', apiClient(), false);
  write(`src/${HELPER.rel}`, helperFile(), true);
  const tools = plan(fileSizes(opts.handlers, opts.handlersInFirstFile), rand);
  for (const t of tools) write(`src/${t.rel}`, t.style === 'class' ? classFile(t) : factoryFile(t), true);
  write('src/index.ts', entryFile(tools, opts.name), true);
  return {
    root,
    files,
    handlers: opts.handlers,
    sdkFiles,
    bytes,
    toolFiles: tools.map(t => ({ rel: `src/${t.rel}`, handlers: t.verbs.length })),
    helper: { rel: `src/${HELPER.rel}`, fn: HELPER.fn },
  };
}

/** Handlers per tool file: `first` in the first if given, then five to a file (the last may hold fewer). */
function fileSizes(handlers: number, first?: number): number[] {
  if (first !== undefined && (!Number.isInteger(first) || first < 1 || first > handlers)) {
    throw new Error(`handlersInFirstFile must be a whole number from 1 to ${handlers}, not ${first}`);
  }
  const sizes = first === undefined ? [] : [first];
  for (let left = handlers - (first ?? 0); left > 0; left -= HANDLERS_PER_FILE) sizes.push(Math.min(HANDLERS_PER_FILE, left));
  return sizes;
}

/** The tool files, one per entry of `sizes` (its handlers), half classes, half factories. */
function plan(sizes: number[], rand: () => number): ToolFile[] {
  const count = sizes.length;
  const styles: Style[] = Array.from({ length: count }, (_, i) => (i % 2 === 0 ? 'class' : 'factory'));
  for (let i = styles.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [styles[i], styles[j]] = [styles[j], styles[i]];
  }
  return styles.map((style, i) => {
    const noun = NOUNS[i % NOUNS.length];
    const n = sizes[i];
    const verbs = Array.from({ length: n }, (_, h) => VERBS[(h + Math.floor(rand() * VERBS.length)) % VERBS.length]);
    const lookups = Array.from({ length: n }, () => rand() < 0.5);
    const P = `${cap(noun)}${i}`;
    return style === 'class'
      ? { rel: `tools/${noun}-${i}-tools.ts`, style, name: `${P}Tools`, noun, verbs, lookups }
      : { rel: `factories/${noun}-${i}.ts`, style, name: `register${P}Tools`, noun, verbs, lookups };
  });
}

function writeProjectFiles(write: (rel: string, text: string, sdk: boolean) => void, name: string): void {
  const pkg = {
    name,
    version: '1.0.0',
    private: true,
    type: 'module',
    scripts: { build: 'tsc -p tsconfig.json', start: 'node dist/index.js' },
    dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^4.1.12' },
    devDependencies: { '@types/node': '^20.19.0', typescript: '^5.8.3' },
  };
  write('package.json', JSON.stringify(pkg, null, 2) + '\n', false);
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
  write('tsconfig.json', JSON.stringify(tsconfig, null, 2) + '\n', false);
  write('.gitignore', 'node_modules/\ndist/\n', false);
}

function apiClient(): string {
  return `export interface ApiRecord {
  id: string;
  title: string;
  status: ${STATUSES.map(s => `'${s}'`).join(' | ')};
  updatedAt: number;
}

/** The backend client every tool shares; plain code, no SDK. */
export class ApiClient {
  private requests = 0;
  private readonly records = new Map<string, ApiRecord>();

  constructor(private readonly baseUrl: string) {}

  async list(kind: string): Promise<ApiRecord[]> {
    this.requests++;
    return Array.from({ length: 5 }, (_, i) => this.records.get(\`\${kind}-\${i}\`) ?? { id: \`\${kind}-\${i}\`, title: \`\${kind} \${i}\`, status: 'open' as const, updatedAt: i });
  }

  async get(kind: string, id: string): Promise<ApiRecord> {
    const found = (await this.list(kind)).find(r => r.id === id);
    if (!found) throw new Error(\`no \${kind} \${id} at \${this.baseUrl}\`);
    return found;
  }

  async update(kind: string, id: string, patch: Partial<ApiRecord>): Promise<ApiRecord> {
    const record = { ...(await this.get(kind, id)), ...patch, updatedAt: Date.now() };
    this.records.set(id, record);
    return record;
  }
}
`;
}

function helperFile(): string {
  return `import type { McpServer } from '${SDK_MCP}';

/** Asks the user to confirm an action; false when the client cannot be asked or the user does not accept. */
export async function ${HELPER.fn}(server: McpServer, what: string): Promise<boolean> {
  if (!server.server.getClientCapabilities()?.elicitation) return false;
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
`;
}

/** One handler's registration on `srv` with the client `api`: an API call, the helper, an API call, a result. */
function handler(t: ToolFile, h: number, srv: string, api: string, indent: string): string {
  const verb = t.verbs[h];
  const status = STATUSES[h % STATUSES.length];
  const lookup = t.lookups[h]
    ? `await ${api}.get('${t.noun}', id)`
    : `(await ${api}.list('${t.noun}')).find(r => r.id === id) ?? { id, title: id, status: 'draft' as const, updatedAt: 0 }`;
  return `${indent}${srv}.registerTool(
${indent}  '${verb}_${t.noun}_${t.name.toLowerCase()}_${h}',
${indent}  { description: '${cap(verb)} the ${t.noun}, once the user confirms', inputSchema: { id: z.string() } },
${indent}  async ({ id }) => {
${indent}    const record = ${lookup};
${indent}    const ok = await ${HELPER.fn}(${srv}, \`${verb} \${record.title}\`);
${indent}    if (!ok) return { content: [{ type: 'text' as const, text: \`\${record.title} left as it was.\` }] };
${indent}    const saved = await ${api}.update('${t.noun}', id, { status: '${status}' });
${indent}    return { content: [{ type: 'text' as const, text: \`${verb}: \${saved.title} is \${saved.status}\` }] };
${indent}  },
${indent});
`;
}

function toolImports(): string {
  return `import type { McpServer } from '${SDK_MCP}';
import { z } from 'zod';
import type { ApiClient } from '../lib/api-client.js';
import { ${HELPER.fn} } from '../${HELPER.rel.replace(/\.ts$/, '.js')}';`;
}

function classFile(t: ToolFile): string {
  const handlers = t.verbs.map((_, h) => handler(t, h, 'this.server', 'this.api', '    ')).join('\n');
  return `${toolImports()}

/** The ${t.noun} tools, registered on the server this class holds. */
export class ${t.name} {
  constructor(
    private readonly server: McpServer,
    private readonly api: ApiClient,
  ) {}

  register(): void {
${handlers}  }
}
`;
}

function factoryFile(t: ToolFile): string {
  const handlers = t.verbs.map((_, h) => handler(t, h, 'server', 'api', '  ')).join('\n');
  return `${toolImports()}

/** Registers the ${t.noun} tools on the server it is given. */
export function ${t.name}(server: McpServer, api: ApiClient): void {
${handlers}}
`;
}

function entryFile(tools: ToolFile[], name: string): string {
  const imports = tools.map(t => `import { ${t.name} } from './${t.rel.replace(/\.ts$/, '.js')}';`);
  const calls = tools.map(t => (t.style === 'class' ? `  new ${t.name}(server, api).register();` : `  ${t.name}(server, api);`));
  return `#!/usr/bin/env node
import { McpServer } from '${SDK_MCP}';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ApiClient } from './lib/api-client.js';
${imports.join('\n')}

/** ${name}: every tool module registered on one server. */
export function createServer(): McpServer {
  const server = new McpServer({ name: '${name}', version: '1.0.0' }, { capabilities: { tools: {} } });
  const api = new ApiClient(process.env.API_URL ?? 'https://api.example.com/v1');
${calls.join('\n')}
  return server;
}

await createServer().connect(new StdioServerTransport());
`;
}
