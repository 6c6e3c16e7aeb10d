/**
 * A local a handler declared only to reach the server (`const { server } = this.mcp;`) is read by
 * nothing once its requests are `inputRequired` builders: the rewrite drops it, or just its binding,
 * from every phase, so `noUnusedLocals` passes; never one whose initializer may do something, nor one
 * still read, nor one the handler left unread already.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';
import { typecheckFiles } from './support/typecheck.js';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-unused-locals-')));

/** A directory of its own under the test's, an ES module package reading this repository's packages. */
function moduleDir(name: string): string {
  const at = path.join(dir, name);
  fs.mkdirSync(at);
  fs.writeFileSync(path.join(at, 'package.json'), JSON.stringify({ type: 'module' }));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(at, 'node_modules'), 'dir');
  return at;
}
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ask = (what: string) => `({ message: \`${what}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })`;

const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export class Tools {
  private readonly label = 'tools';
  private calls = 0;
  constructor(private readonly mcp: McpServer) {
    mcp.registerTool('partial', { inputSchema: { action: z.string() } }, this.partial.bind(this));
    mcp.registerTool('chain', { inputSchema: { action: z.string() } }, this.chain.bind(this));
    mcp.registerTool('effect', { inputSchema: { action: z.string() } }, this.effect.bind(this));
    mcp.registerTool('read', { inputSchema: { action: z.string() } }, this.read.bind(this));
    mcp.registerTool('shadow', { inputSchema: { action: z.string() } }, this.shadow.bind(this));
  }

  getServer() {
    this.calls++;
    return this.mcp.server;
  }

  async partial({ action }: { action: string }) {
    const { server, isConnected } = this.mcp, label = this.label;
    const connected = isConnected.name;
    const answer = await server.elicitInput${ask('Run ${action}')};
    return { content: [{ type: 'text' as const, text: \`\${label} \${connected} \${answer.action}\` }] };
  }

  async chain({ action }: { action: string }) {
    const mcp = this.mcp;
    const srv = mcp.server; // the low-level server
    const answer = await srv.elicitInput${ask('Run ${action}')};
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }

  async effect({ action }: { action: string }) {
    const srv = this.getServer();
    const answer = await srv.elicitInput${ask('Run ${action}')};
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }

  async read({ action }: { action: string }) {
    const low = this.mcp.server;
    const answer = await low.elicitInput${ask('Run ${action}')};
    await low.sendLoggingMessage({ level: 'info', data: answer.action });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }

  async shadow({ action }: { action: string }) {
    if (action === '') {
      const { server } = this.mcp;
    }
    const { server } = this.mcp;
    const answer = await server.elicitInput${ask('Run ${action}')};
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }
}
`;

describe('locals only the rewritten requests read', () => {
  it('go from every phase; one that may have an effect, is still read or was unread already stays', async () => {
    const file = path.join(dir, 'tools.ts');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const result = await migrateSources([{ path: file, text: source }], { cwd: dir });
    for (const c of result.changes) fs.writeFileSync(c.path, c.after);
    expect(result.report.sites.map(s => s.outcome)).toEqual(Array(5).fill('rewritten'));
    const out = fs.readFileSync(file, 'utf8');
    expect(out).toContain('const { isConnected } = this.mcp, label = this.label;');
    expect(out).not.toMatch(/const mcp = this\.mcp|const srv = mcp\.server|the low-level server/);
    expect(out).toContain('const srv = this.getServer();');
    // Made again where it is read, on resume; where it was made, before the question, nothing reads it (and reading it does nothing else).
    expect(out.match(/const low = this\.mcp\.server;/g)).toHaveLength(1);
    expect(out.match(/const \{ server \} = this\.mcp;/g)).toHaveLength(1); // the one unread already, in the if
    const unread = typecheckFiles([file], dir, { noUnusedLocals: true }).map(d => d.replace(/^tools\.ts:\d+: /, ''));
    // Left on purpose: a call may have an effect; one unread before the rewrite.
    expect(unread).toEqual([`'srv' is declared but its value is never read.`, `'server' is declared but its value is never read.`]);
  }, 300_000);

  it('the fixture unused-server-local passes noUnusedLocals once migrated', async () => {
    const fixtureDir = moduleDir('fixture');
    const file = path.join(fixtureDir, 'unused-server-local.ts');
    const text = fs.readFileSync(path.join(root, '__testfixtures__', 'unused-server-local.input.ts'), 'utf8');
    const result = await migrateSources([{ path: file, text }], { cwd: fixtureDir });
    for (const c of result.changes) fs.writeFileSync(c.path, c.after);
    expect(typecheckFiles([file], fixtureDir, { noUnusedLocals: true })).toEqual([]);
  }, 300_000);

  it('a request const whose params the builder copies goes; what its params read is still carried', async () => {
    const requestDir = moduleDir('request-const');
    const file = path.join(requestDir, 'poems.ts');
    const text = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'poems', version: '1.0.0' });
server.registerTool('poems', { inputSchema: { n: z.number() } }, async ({ n }, extra) => {
  let story = '';
  const prefix = 'Go on ' + n;
  for (let i = 0; i < n; i++) {
    const request: CreateMessageRequest = {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: prefix } }], maxTokens: 40 },
    };
    const line = await extra.sendRequest(request, CreateMessageResultSchema);
    story += line.content.type === 'text' ? line.content.text : '';
  }
  return { content: [{ type: 'text', text: story }] };
});
`;
    const result = await migrateSources([{ path: file, text }], { cwd: requestDir });
    for (const c of result.changes) fs.writeFileSync(c.path, c.after);
    expect(result.report.sites.map(s => s.outcome)).toEqual(['rewritten']);
    const out = fs.readFileSync(file, 'utf8');
    expect(out).not.toMatch(/const request|CreateMessageRequest/);
    // The builder reads prefix in every round, the resuming one's included.
    expect(out).toContain('const prefix = resumed.prefix;');
    expect(typecheckFiles([file], requestDir, { noUnusedLocals: true })).toEqual([]);
  }, 300_000);
});
