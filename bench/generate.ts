/**
 * Synthetic monorepos for the benchmark, generated deterministically from a seed.
 *
 * Layout: `packages/pkg-NNN/src/<area>/<file>.ts`, about 100 files per package, each package with its own
 * package.json, a root .gitignore (with a few ignored files present, so discovery has something to skip).
 * Files import each other inside their package (always from lower-numbered files: no cycles), and a few
 * import across packages. Content kinds:
 * - a share `mcpRatio` of legacy SDK 1.x MCP servers, whose handlers have shapes the migration supports
 *   (taken from `__testfixtures__`: straight-line elicitation, sampling, roots, if/else, Promise.all);
 * - about 3% "look-alikes": `createMessage`, `listRoots`, `sendRequest` on objects that are not MCP servers
 *   (they pass the text pre-filter and reach the analysis, which must leave them alone);
 * - the rest: services (classes), utility functions, types, constants.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** mulberry32: small, fast, good enough for synthetic data, identical everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const MCP_SHAPES = ['elicit-form', 'sampling', 'roots', 'if-else', 'promise-all'] as const;

export interface TreeSpec {
  files: number;
  /** Share of files that are legacy MCP servers, e.g. 0.01. */
  mcpRatio: number;
  seed: number;
  /** Include the ~3% look-alike files (default true); without them no file has a trigger name. */
  lookAlikes?: boolean;
}

export interface GeneratedTree {
  root: string;
  /** Source files written (not counting ignored ones, package.json, .gitignore). */
  files: number;
  /** Relative paths of the MCP server files. */
  mcpFiles: string[];
  lookAlikes: number;
  /** Sources on disk that the root .gitignore ignores (not counted in `files`). */
  ignored: number;
  bytes: number;
}

const NOUNS = [
  'user',
  'order',
  'invoice',
  'cart',
  'payment',
  'shipment',
  'account',
  'session',
  'report',
  'ticket',
  'product',
  'review',
  'coupon',
  'address',
  'profile',
  'message',
  'channel',
  'project',
  'task',
  'build',
];
const AREAS = ['core', 'api', 'domain', 'services', 'util', 'models', 'adapters', 'jobs'];
const VERBS = ['load', 'save', 'find', 'update', 'remove', 'validate', 'format', 'parse', 'merge', 'sync'];

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

interface Slot {
  rel: string;
  /** Names this file exports, for others to import. */
  exports: string[];
}

export function generateTree(root: string, spec: TreeSpec, fixturesDir: string): GeneratedTree {
  const rand = prng(spec.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const shapes = MCP_SHAPES.map(name => ({ name, text: readFileSync(path.join(fixturesDir, `${name}.input.ts`), 'utf8') }));

  const perPackage = 100;
  const packages = Math.max(1, Math.ceil(spec.files / perPackage));
  const mcpCount = Math.round(spec.files * spec.mcpRatio);
  // Which file indexes are MCP servers: spread evenly, jittered, never the first file of a package.
  const mcpAt = new Set<number>();
  for (let k = 0; k < mcpCount; k++) {
    const base = Math.floor(((k + 0.5) * spec.files) / mcpCount);
    let i = Math.min(spec.files - 1, Math.max(0, base + int(-3, 3)));
    while (mcpAt.has(i) || i % perPackage === 0) i = (i + 1) % spec.files;
    mcpAt.add(i);
  }

  const slots: Slot[][] = Array.from({ length: packages }, () => []);
  const mcpFiles: string[] = [];
  let lookAlikes = 0;
  let bytes = 0;
  const write = (rel: string, text: string) => {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };

  write('.gitignore', 'node_modules/\n*.generated.ts\ntmp/\n');
  write('package.json', JSON.stringify({ name: 'bench-monorepo', private: true, workspaces: ['packages/*'] }, null, 2) + '\n');

  for (let i = 0; i < spec.files; i++) {
    const p = Math.floor(i / perPackage);
    const pkg = `pkg-${String(p).padStart(3, '0')}`;
    const local = i % perPackage;
    if (local === 0) {
      write(`packages/${pkg}/package.json`, JSON.stringify({ name: `@bench/${pkg}`, version: '1.0.0', type: 'module' }, null, 2) + '\n');
      // Ignored by the root .gitignore: present on disk, never a candidate.
      write(`packages/${pkg}/src/schema.generated.ts`, `export const SCHEMA_${p} = ${JSON.stringify({ id: p, nouns: NOUNS })};\n`);
    }
    const noun = NOUNS[(i * 7 + p) % NOUNS.length];
    const area = pick(AREAS);
    const lookAlikeRoll = rand();
    const kind = mcpAt.has(i)
      ? 'mcp'
      : lookAlikeRoll < 0.03 && spec.lookAlikes !== false
        ? 'lookalike'
        : pick(['service', 'service', 'util', 'types', 'util'] as const);
    const rel = `packages/${pkg}/src/${area}/${noun}-${kind}-${local}.ts`;
    const dir = path.posix.dirname(rel);

    // Imports from earlier files of the same package (and now and then another package).
    const imports: string[] = [];
    const used: string[] = [];
    const earlier = slots[p];
    for (let n = kind === 'types' ? 0 : int(0, 3); n > 0 && earlier.length > 0; n--) {
      const from = earlier[Math.floor(rand() * earlier.length)];
      const name = pick(from.exports);
      if (used.includes(name)) continue;
      used.push(name);
      imports.push(`import { ${name} } from '${specifier(dir, from.rel)}';`);
    }
    if (p > 0 && rand() < 0.1 && slots[p - 1].length > 0) {
      const from = pick(slots[p - 1]);
      const name = pick(from.exports);
      if (!used.includes(name)) {
        used.push(name);
        imports.push(`import { ${name} } from '${specifier(dir, from.rel)}';`);
      }
    }

    let text: string;
    let exports: string[];
    if (kind === 'mcp') {
      const shape = shapes[mcpFiles.length % shapes.length];
      const id = `${pkg}-${local}`;
      // The fixture, made unique; its imports first, then ours (a server uses the package's helpers).
      const body = shape.text
        .replaceAll("name: 'fixture'", `name: '${id}'`)
        .replace(/(register)?[Tt]ool\('([a-z-]+)'/g, (_m, reg, n) => `${reg ? 'registerTool' : 'tool'}('${n}-${id}'`);
      text = `// MCP server for ${pkg} (${shape.name}).\n${imports.join('\n')}${imports.length ? '\n' : ''}${body}${used.length ? `\nexport const helpers = [${used.join(', ')}];\n` : ''}`;
      exports = used.length ? ['helpers'] : [];
      mcpFiles.push(rel);
    } else if (kind === 'lookalike') {
      lookAlikes++;
      ({ text, exports } = lookAlike(noun, local, rand, imports, used));
    } else if (kind === 'service') {
      ({ text, exports } = service(noun, local, rand, imports, used));
    } else if (kind === 'util') {
      ({ text, exports } = util(noun, local, rand, imports, used));
    } else {
      ({ text, exports } = types(noun, local, rand));
    }
    if (exports.length === 0) {
      exports = [`unit${local}`];
      text += `\nexport const unit${local} = ${local};\n`;
    }
    write(rel, text);
    bytes += Buffer.byteLength(text);
    slots[p].push({ rel, exports });
  }
  // An ignored directory with sources: discovery must not enter it.
  write('tmp/scratch.ts', 'export const scratch = 1;\n');
  return { root, files: spec.files, mcpFiles, lookAlikes, ignored: packages + 1, bytes };
}

function specifier(fromDir: string, target: string): string {
  let s = path.posix.relative(fromDir, target).replace(/\.ts$/, '.js');
  if (!s.startsWith('.')) s = `./${s}`;
  return s;
}

type Rand = () => number;

function useLine(used: string[]): string {
  return used.length ? `\n  const deps = [${used.join(', ')}].length;\n` : '\n  const deps = 0;\n';
}

function service(noun: string, n: number, rand: Rand, imports: string[], used: string[]): { text: string; exports: string[] } {
  const Cls = `${cap(noun)}Service${n}`;
  const methods: string[] = [];
  const count = 3 + Math.floor(rand() * 5);
  for (let m = 0; m < count; m++) {
    const verb = VERBS[(n + m * 3) % VERBS.length];
    methods.push(`  async ${verb}${cap(noun)}${m}(id: string, options: { force?: boolean } = {}): Promise<${cap(noun)}Record | undefined> {
    const existing = this.cache.get(id);
    if (existing && !options.force) return existing;
    const record: ${cap(noun)}Record = { id, name: \`${noun}-\${id}\`, updatedAt: Date.now(), tags: ['${verb}'] };
    for (const tag of record.tags) {
      if (tag.length > ${10 + m}) throw new Error(\`tag too long: \${tag}\`);
    }
    this.cache.set(id, record);
    this.log.push(\`${verb} \${id}\`);
    return record;
  }`);
  }
  const text = `${imports.join('\n')}${imports.length ? '\n\n' : ''}export interface ${cap(noun)}Record {
  id: string;
  name: string;
  updatedAt: number;
  tags: string[];
}

/** Keeps ${noun} records in memory, with a small audit log. */
export class ${Cls} {
  private readonly cache = new Map<string, ${cap(noun)}Record>();
  readonly log: string[] = [];

  constructor(private readonly prefix = '${noun}') {}

${methods.join('\n\n')}

  size(): number {${useLine(used)}    return this.cache.size + deps * 0;
  }
}

export function create${Cls}(): ${Cls} {
  return new ${Cls}();
}
`;
  return { text, exports: [Cls, `create${Cls}`] };
}

function util(noun: string, n: number, rand: Rand, imports: string[], used: string[]): { text: string; exports: string[] } {
  const fns: string[] = [];
  const names: string[] = [];
  const count = 2 + Math.floor(rand() * 5);
  for (let f = 0; f < count; f++) {
    const name = `${VERBS[(n + f) % VERBS.length]}${cap(noun)}${n}_${f}`;
    names.push(name);
    fns.push(`export function ${name}(input: readonly string[], limit = ${5 + f}): string[] {
  const out: string[] = [];
  for (const item of input) {
    const trimmed = item.trim();
    if (!trimmed || out.includes(trimmed)) continue;
    out.push(trimmed.length > limit ? trimmed.slice(0, limit) : trimmed);
  }
  return out.sort((a, b) => a.localeCompare(b));
}`);
  }
  const text = `${imports.join('\n')}${imports.length ? '\n\n' : ''}${fns.join('\n\n')}

export const ${noun.toUpperCase()}_LIMITS_${n} = { min: 0, max: ${100 + n}, step: ${1 + (n % 7)} } as const;

export function summarize${n}(values: number[]): { total: number; mean: number } {${useLine(used)}  const total = values.reduce((a, b) => a + b, deps);
  return { total, mean: values.length ? total / values.length : 0 };
}
`;
  return { text, exports: [...names, `summarize${n}`] };
}

function types(noun: string, n: number, rand: Rand): { text: string; exports: string[] } {
  const T = `${cap(noun)}Shape${n}`;
  const fields = Array.from(
    { length: 3 + Math.floor(rand() * 6) },
    (_, k) => `  field${k}${k % 3 === 0 ? '?' : ''}: ${['string', 'number', 'boolean', 'string[]'][k % 4]};`,
  );
  const text = `export interface ${T} {
${fields.join('\n')}
}

export type ${T}Patch = Partial<${T}> & { id: string };

export const enum ${T}Kind {
  Draft = 'draft',
  Live = 'live',
  Archived = 'archived',
}

export function is${T}(value: unknown): value is ${T} {
  return typeof value === 'object' && value !== null && 'field1' in value;
}
`;
  return { text, exports: [`is${T}`] };
}

function lookAlike(noun: string, n: number, rand: Rand, imports: string[], used: string[]): { text: string; exports: string[] } {
  const variant = Math.floor(rand() * 3);
  const header = `${imports.join('\n')}${imports.length ? '\n\n' : ''}`;
  if (variant === 0) {
    const Cls = `ChatClient${n}`;
    return {
      text: `${header}// A chat client, not an MCP server.
export class ${Cls} {
  private readonly sent: { channel: string; text: string }[] = [];

  async createMessage(params: { channel: string; text: string }): Promise<{ id: string }> {
    this.sent.push(params);
    return { id: \`\${params.channel}:\${this.sent.length}\` };
  }

  async listRoots(): Promise<string[]> {
    return [...new Set(this.sent.map(s => s.channel))];
  }
}

export async function announce${n}(client: ${Cls}, ${noun}: string): Promise<string> {${useLine(used)}  const message = await client.createMessage({ channel: '${noun}s', text: \`new ${noun} \${${noun}}\` });
  const roots = await client.listRoots();
  return \`\${message.id} \${roots.length + deps}\`;
}
`,
      exports: [Cls, `announce${n}`],
    };
  }
  if (variant === 1) {
    return {
      text: `${header}// A JSON-RPC-ish queue client with a sendRequest method.
export interface Rpc${n} {
  sendRequest(method: string, params: unknown): Promise<unknown>;
}

export async function fetch${cap(noun)}${n}(rpc: Rpc${n}, id: string): Promise<unknown> {${useLine(used)}  const reply = await rpc.sendRequest('${noun}/get', { id, deps });
  return reply ?? null;
}

export const slack${n} = {
  chat: {
    async createMessage(text: string) {
      return { ok: true, text };
    },
  },
};

export async function notify${n}(text: string) {
  return slack${n}.chat.createMessage(text);
}
`,
      exports: [`fetch${cap(noun)}${n}`, `notify${n}`],
    };
  }
  return {
    text: `${header}// File-system roots of a workspace tool; nothing to do with MCP.
export class Workspace${n} {
  constructor(private readonly dirs: string[]) {}

  listRoots(): string[] {
    return this.dirs.filter(d => d.startsWith('/'));
  }
}

export function rootsOf${n}(ws: Workspace${n}): number {${useLine(used)}  return ws.listRoots().length + deps;
}
`,
    exports: [`Workspace${n}`, `rootsOf${n}`],
  };
}
