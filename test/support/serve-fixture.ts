/**
 * Serves the MCP server a module defines over stdio, for modules (the __testfixtures__) that build a
 * server but do not connect a transport:
 *
 *   node node_modules/tsx/dist/cli.mjs test/support/serve-fixture.ts <module>
 *
 * The server is the module's `server` export, else its default export, else the one `McpServer` (or
 * low-level `Server`) the module built at its top level — found by watching the SDK's registration
 * methods while the module loads, so an unexported server is found too. A module that starts a stdio
 * transport itself while loading (`server.connect(new StdioServerTransport())`,
 * `serveStdio(() => server)`) is left to serve itself.
 *
 * The SDK generation follows the module's imports: `@modelcontextprotocol/sdk` (1.x) is served with
 * `server.connect(new StdioServerTransport())` from the 1.x SDK; `@modelcontextprotocol/server` (2.x)
 * with `serveStdio(() => server)` from `@modelcontextprotocol/server/stdio`, which takes an `McpServer`
 * or a low-level `Server` and serves both protocol eras (2025-era clients through the SDK's legacy shim).
 *
 * Nothing but JSON-RPC goes to stdout; diagnostics go to stderr; exit code 2 when no server is found.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Generation = 'v1' | 'v2';

interface ServerClass {
  prototype: object;
}

interface Sdk {
  McpServer: ServerClass;
  Server: ServerClass;
  StdioServerTransport: ServerClass;
  serve(server: object): Promise<void>;
}

function fail(message: string): never {
  process.stderr.write(`serve-fixture: ${message}\n`);
  process.exit(2);
}

/** Which SDK generation the module is written against, from its import and require specifiers. */
export function generationOf(source: string): Generation | undefined {
  const specifiers = [
    ...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](@modelcontextprotocol\/[\w-]+)/gm),
  ].map(m => m[1]);
  if (specifiers.includes('@modelcontextprotocol/sdk')) return 'v1';
  if (specifiers.includes('@modelcontextprotocol/server')) return 'v2';
  return undefined;
}

/**
 * The SDK as the module itself loads it: a CommonJS module `require`s the packages' CommonJS
 * builds, whose classes are not the ESM builds' (so `instanceof` and the watched prototypes would
 * miss its server).
 */
async function loadSdk(generation: Generation, commonJs: boolean): Promise<Sdk> {
  const load = commonJs ? async (id: string) => createRequire(import.meta.url)(id) : (id: string) => import(id);
  if (generation === 'v1') {
    const { McpServer } = await load('@modelcontextprotocol/sdk/server/mcp.js');
    const { Server } = await load('@modelcontextprotocol/sdk/server/index.js');
    const { StdioServerTransport } = await load('@modelcontextprotocol/sdk/server/stdio.js');
    return {
      McpServer,
      Server,
      StdioServerTransport,
      serve: server => (server as InstanceType<typeof McpServer>).connect(new StdioServerTransport()),
    };
  }
  const { McpServer, Server } = await load('@modelcontextprotocol/server');
  const { StdioServerTransport, serveStdio } = await load('@modelcontextprotocol/server/stdio');
  return {
    McpServer,
    Server,
    StdioServerTransport,
    serve: async server => {
      serveStdio(() => server as InstanceType<typeof McpServer>);
    },
  };
}

/** Wraps `proto[name]` so every call first reports its receiver. */
function watch(proto: object, names: string[], seen: (receiver: object) => void): void {
  const target = proto as Record<string, unknown>;
  for (const name of names) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    target[name] = function (this: object, ...args: unknown[]) {
      seen(this);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) fail('usage: serve-fixture.ts <module>');
  const modulePath = path.resolve(file);
  let source: string;
  try {
    source = fs.readFileSync(modulePath, 'utf8');
  } catch (error) {
    fail(`cannot read ${modulePath}: ${(error as Error).message}`);
  }
  const generation = generationOf(source);
  if (!generation) fail(`${modulePath} imports neither @modelcontextprotocol/sdk nor @modelcontextprotocol/server`);
  const sdk = await loadSdk(generation, /\.cjs$/.test(modulePath) || (/\brequire\s*\(/.test(source) && !/^\s*import\s/m.test(source)));

  const mcpServers = new Set<object>();
  const lowLevel = new Set<object>();
  let servesItself = false;
  watch(sdk.McpServer.prototype, ['registerTool', 'registerPrompt', 'registerResource', 'tool', 'prompt', 'resource', 'connect'], s =>
    mcpServers.add(s),
  );
  watch(sdk.Server.prototype, ['setRequestHandler', 'connect'], s => lowLevel.add(s));
  watch(sdk.StdioServerTransport.prototype, ['start'], () => {
    servesItself = true;
  });

  const exports = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  if (servesItself) {
    process.stderr.write(`serve-fixture: ${path.basename(modulePath)} serves itself on stdio\n`);
    return;
  }
  const isServer = (value: unknown): value is object => value instanceof (sdk.McpServer as never) || value instanceof (sdk.Server as never);
  let server: object | undefined = [exports.server, exports.default].find(isServer);
  if (!server) {
    // A McpServer builds its own low-level Server: that one is not a candidate of its own.
    const inner = new Set([...mcpServers].map(s => (s as { server?: object }).server));
    const candidates = [...mcpServers, ...[...lowLevel].filter(s => !inner.has(s))];
    if (candidates.length > 1) fail(`${modulePath} builds ${candidates.length} servers and exports none as "server" or default`);
    server = candidates[0];
  }
  if (!server) fail(`${modulePath} defines no McpServer or Server: export it as "server" or as the default export`);
  await sdk.serve(server);
}

await main();
