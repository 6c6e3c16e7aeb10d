/**
 * src/analysis/eraTraps.ts: lifecycle code that reads the connection's `initialize` (never sent by a
 * 2026-07-28 client) is found, and each finding's reason names what to do. The claims the reasons make are
 * tested on a real SDK 2.x server under serveStdio, for both eras: oninitialized never fires for a
 * 2026-07-28 client, getClientVersion() is undefined for one (in a handler too), and
 * getNegotiatedProtocolVersion() reports '2026-07-28' (so only code comparing it is reported).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SourceFile } from 'ts-morph';
import { CLIENT_VERSION_CAUSE, eraTraps, ONINITIALIZED_CAUSE, PROTOCOL_VERSION_CAUSE } from '../src/analysis/eraTraps.js';
import { SESSION_KEY_CAUSE } from '../src/tables/causes.js';
import { analysisProject } from '../src/analysis/project.js';
import { Reacher } from '../src/find/reach.js';
import { runScenario } from '../src/verify/index.js';

const REPO = path.resolve(import.meta.dirname, '..');

/** The traps of `main.ts` (given other files beside it), with each one's line text and 1-based line. */
function trapsOf(text: string, others: Record<string, string> = {}) {
  const project = analysisProject({ nodeTypes: false });
  const dir = path.join(REPO, '.tmp', 'era-traps');
  const files: SourceFile[] = Object.entries({ 'main.ts': text, ...others }).map(([name, t]) =>
    project.createSourceFile(path.join(dir, name), t, { overwrite: true }),
  );
  const reacher = new Reacher(files);
  const sf = files[0]!;
  return eraTraps(sf, fn => reacher.of(fn).handlers[0]?.label).map(t => ({
    ...t,
    line: t.node.getStartLineNumber(),
    text: sf.getFullText().split('\n')[t.node.getStartLineNumber() - 1]!.trim(),
  }));
}

const HEAD = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const server = new McpServer({ name: 'traps', version: '1.0.0' });
`;

describe('eraTraps', () => {
  it('oninitialized reading getClientVersion(): one finding on the assignment, naming the read and the envelope to read instead', () => {
    const traps = trapsOf(`${HEAD}
let userAgent = 'traps/1.0';
server.server.oninitialized = () => {
  const client = server.server.getClientVersion();
  userAgent = \`traps/1.0 (\${client?.name ?? 'unknown'})\`;
};
`);
    expect(traps).toEqual([expect.objectContaining({ cause: ONINITIALIZED_CAUSE, call: 'server.server.oninitialized = ...', line: 7 })]);
    expect(traps[0]!.reason).toMatch(
      /never fires for one, so what it does, reading getClientVersion\(\), never happens for one, and nothing says so/,
    );
    expect(traps[0]!.reason).toMatch(
      /ctx\.mcpReq\.envelope\?\.\[CLIENT_INFO_META_KEY\].*falling back to server\.server\.getClientVersion\(\) for 2025-era clients/,
    );
    expect(traps[0]!.handler).toBeUndefined();
  });

  it('a handler of notifications/initialized (schema or method string) and an oninitialized that reads nothing: found too', () => {
    const traps = trapsOf(`${HEAD}
server.server.setNotificationHandler('notifications/initialized', () => console.error('client ready'));
server.server.oninitialized = () => console.error('ready');
`);
    expect(traps.map(t => [t.call, t.cause])).toEqual([
      ['server.server.oninitialized = ...', ONINITIALIZED_CAUSE],
      ['server.server.setNotificationHandler(...)', ONINITIALIZED_CAUSE],
    ]);
    expect(traps[0]!.reason).toMatch(/what it does never happens for one.*do it when the server is built, or in the handler that needs it/);
  });

  it('getClientVersion() outside handlers (module level, a timer) and in one: each found; in a handler, with its label and the in-handler fix', () => {
    const traps = trapsOf(`${HEAD}
export function agent(): string {
  return \`traps (\${server.server.getClientVersion()?.name ?? 'unknown'})\`;
}
setInterval(() => console.error(server.server.getClientVersion()), 60_000);
server.registerTool('whoami', { inputSchema: z.object({}) }, async () => {
  const client = server.server.getClientVersion();
  return { content: [{ type: 'text', text: client?.name ?? 'unknown' }] };
});
`);
    expect(traps.map(t => [t.line, t.cause, t.handler])).toEqual([
      [7, CLIENT_VERSION_CAUSE, undefined],
      [9, CLIENT_VERSION_CAUSE, undefined],
      [11, CLIENT_VERSION_CAUSE, 'tools/call whoami'],
    ]);
    expect(traps[0]!.reason).toMatch(/read it in the handler that needs it, from the request's own envelope/);
    expect(traps[2]!.reason).toMatch(/in this handler read the request's own, ctx\.mcpReq\.envelope\?\.\[CLIENT_INFO_META_KEY\]/);
  });

  it('getNegotiatedProtocolVersion(): found where it is compared with known revisions, not where it is only logged or returned', () => {
    const traps = trapsOf(`${HEAD}
const KNOWN = ['2025-03-26', '2025-06-18'];
export function legacyFeatures(): boolean {
  const version = server.server.getNegotiatedProtocolVersion();
  return version === '2025-03-26';
}
export function known(): boolean {
  return KNOWN.includes(server.server.getNegotiatedProtocolVersion() ?? '');
}
export function describe(): string {
  switch (server.server.getNegotiatedProtocolVersion()) {
    case '2025-06-18': return 'june';
    default: return 'other';
  }
}
export function shown(): string | undefined {
  console.error('protocol', server.server.getNegotiatedProtocolVersion());
  return server.server.getNegotiatedProtocolVersion();
}
`);
    expect(traps.map(t => [t.line, t.cause])).toEqual([
      [8, PROTOCOL_VERSION_CAUSE],
      [12, PROTOCOL_VERSION_CAUSE],
      [15, PROTOCOL_VERSION_CAUSE],
    ]);
    expect(traps[0]!.reason).toMatch(
      /^version === '2025-03-26' compares the negotiated protocol version.*'2026-07-28'.*PROTOCOL_VERSION_META_KEY/,
    );
    expect(traps[2]!.reason).toMatch(/^switch \(server\.server\.getNegotiatedProtocolVersion\(\)\) compares/);
  });

  it("reads inside an oninitialized callback are its finding, not findings of their own; other objects' methods of the same names are no traps", () => {
    const traps = trapsOf(`${HEAD}
const client = { getClientVersion: () => ({ name: 'mine' }), oninitialized: undefined as (() => void) | undefined };
client.oninitialized = () => console.error(client.getClientVersion());
server.server.oninitialized = () => {
  if (server.server.getNegotiatedProtocolVersion() === '2025-06-18') console.error(server.server.getClientVersion());
};
`);
    expect(traps.map(t => [t.line, t.cause])).toEqual([[8, ONINITIALIZED_CAUSE]]);
    expect(traps[0]!.reason).toMatch(/reading getNegotiatedProtocolVersion\(\) and getClientVersion\(\)/);
  });

  it('a server held in a class field, and a low-level Server', () => {
    const traps = trapsOf(`import { Server } from '@modelcontextprotocol/server';
export class App {
  private readonly mcp = new Server({ name: 'app', version: '1.0.0' }, { capabilities: {} });
  constructor() {
    this.mcp.oninitialized = () => this.greet();
  }
  greet(): void {
    console.error('hello', this.mcp.getClientVersion()?.name);
  }
}
`);
    expect(traps.map(t => [t.line, t.call])).toEqual([
      [5, 'this.mcp.oninitialized = ...'],
      [8, 'this.mcp.getClientVersion(...)'],
    ]);
  });

  it('the session id used as a key in a handler (a Map, an index, a key built from it, through a local): found; logged or passed on: not', () => {
    const traps = trapsOf(`${HEAD}
const cache = new Map<string, string[]>();
const counts: Record<string, number> = {};
server.registerTool('roots', { inputSchema: z.object({}) }, async (_args, ctx) => {
  const key = ctx.sessionId ?? 'default';
  if (cache.has(key)) return { content: [{ type: 'text', text: cache.get(key)!.join(', ') }] };
  counts[ctx.sessionId!] = (counts[ctx.sessionId!] ?? 0) + 1;
  cache.set(\`roots:\${ctx.sessionId}\`, []);
  console.error('session', ctx.sessionId);
  return { content: [{ type: 'text', text: String(ctx.sessionId) }] };
});
`);
    expect(traps.map(t => [t.line, t.cause, t.handler])).toEqual([
      [9, SESSION_KEY_CAUSE, 'tools/call roots'],
      [11, SESSION_KEY_CAUSE, 'tools/call roots'],
      [12, SESSION_KEY_CAUSE, 'tools/call roots'],
    ]);
    expect(traps[0]!.reason).toMatch(/^ctx\.sessionId keys cache\.has\(key\), but a 2026-07-28 request has no session/);
  });

  it('a file that reads none of them: nothing, without walking it', () => {
    expect(trapsOf(`${HEAD}\nserver.registerTool('x', { inputSchema: z.object({}) }, async () => ({ content: [] }));\n`)).toEqual([]);
  });
});

describe('what the reasons claim, on a real SDK 2.x server under serveStdio', { timeout: 600_000 }, () => {
  const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
const server = new McpServer({ name: 'claims', version: '1.0.0' });
let initialized = 'never';
server.server.oninitialized = () => { initialized = 'fired'; };
let later = 'not yet';
setInterval(() => { later = JSON.stringify({ client: server.server.getClientVersion() ?? null, protocol: server.server.getNegotiatedProtocolVersion() ?? null }); }, 20).unref();
server.registerTool('state', {}, async () => {
  // Past the timer's next turn, so that it has read the connection too.
  await new Promise(resolve => setTimeout(resolve, 100));
  const seen = { initialized, client: server.server.getClientVersion() ?? null, protocol: server.server.getNegotiatedProtocolVersion() ?? null, later: JSON.parse(later) };
  return { content: [{ type: 'text', text: JSON.stringify(seen) }] };
});
serveStdio(() => server);
`;

  for (const [era, expected] of [
    ['modern', { initialized: 'never', client: null, protocol: '2026-07-28', later: { client: null, protocol: '2026-07-28' } }],
    [
      'legacy',
      {
        initialized: 'fired',
        client: { name: 'mcp-migrate-verify' },
        protocol: '2025-11-25',
        later: { client: { name: 'mcp-migrate-verify' }, protocol: '2025-11-25' },
      },
    ],
  ] as const) {
    it(`${era === 'modern' ? 'a 2026-07-28' : 'a 2025-era'} client: oninitialized ${expected.initialized}, getClientVersion() ${expected.client ? 'set' : 'undefined'}, getNegotiatedProtocolVersion() '${expected.protocol}'`, async () => {
      const dir = path.join(REPO, '.tmp', 'era-traps-claims');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'server.mjs'), SERVER);
      // Generous: the limit only ends a server that hangs.
      const run = await runScenario({
        command: 'node server.mjs',
        cwd: dir,
        era,
        scenario: { calls: [{ name: 'state', method: 'tools/call', params: { name: 'state', arguments: {} } }] },
        timeoutMs: 120_000,
      });
      expect(run.fatal, run.stderr).toBeUndefined();
      const seen = JSON.parse((run.calls[0]!.result as { content: { text: string }[] }).content[0]!.text);
      expect(seen).toMatchObject(expected);
    });
  }
});
