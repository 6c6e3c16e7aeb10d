/**
 * src/analysis/logging.ts: a handler's `sendLoggingMessage(...)` becomes `ctx.mcpReq.log(...)`, one in a function
 * a handler reaches is marked, one where no request is served gets a note. The claims its reasons make are
 * measured on a real SDK 2.x server under serveStdio with the real clients of both eras: the connection's log
 * message reaches a 2026-07-28 client that asked for none, the request's own reaches it only at the level it
 * names, and a 2025-era client gets both as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const REPO = path.resolve(import.meta.dirname, '..');

const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
const server = new McpServer({ name: 'logs', version: '1.0.0' }, { capabilities: { logging: {} } });
server.registerTool('connection', {}, async () => {
  await server.sendLoggingMessage({ level: 'info', data: 'on the connection' });
  return { content: [{ type: 'text', text: 'done' }] };
});
server.registerTool('request', {}, async ctx => {
  await ctx.mcpReq.log('info', 'with the request');
  return { content: [{ type: 'text', text: 'done' }] };
});
serveStdio(() => server);
`;

/** The log messages each tool's call brought, for a client of the era (a 2026-07-28 one naming `level` when given). */
async function logsOf(era: 'modern' | 'legacy', level?: 'debug' | 'error'): Promise<Record<string, string[]>> {
  const dir = path.join(REPO, '.tmp', 'logging-claims');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'server.mjs'), SERVER);
  const seen: string[] = [];
  const params = { command: process.execPath, args: ['server.mjs'], cwd: dir, stderr: 'ignore' as const };
  const logs: Record<string, string[]> = {};
  if (era === 'modern') {
    const client = new Client({ name: 'logs-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setNotificationHandler('notifications/message', n => void seen.push(String(n.params.data)));
    await client.connect(new StdioClientTransport(params));
    for (const name of ['connection', 'request']) {
      seen.length = 0;
      // (the SDK's client names no level of its own: a host names it in the request's _meta envelope)
      await client.callTool({ name, arguments: {}, ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}) });
      await new Promise(resolve => setTimeout(resolve, 200));
      logs[name] = [...seen];
    }
    await client.close();
  } else {
    const client = new LegacyClient({ name: 'logs-test', version: '1.0.0' });
    client.setNotificationHandler(LoggingMessageNotificationSchema, n => void seen.push(String(n.params.data)));
    await client.connect(new LegacyStdio(params));
    for (const name of ['connection', 'request']) {
      seen.length = 0;
      await client.callTool({ name, arguments: {} });
      await new Promise(resolve => setTimeout(resolve, 200));
      logs[name] = [...seen];
    }
    await client.close();
  }
  return logs;
}

describe('what the reasons claim, on a real SDK 2.x server under serveStdio', { timeout: 300_000 }, () => {
  it("a 2026-07-28 client that names no level: the connection's log message reaches it, the request's own does not", async () => {
    expect(await logsOf('modern')).toEqual({ connection: ['on the connection'], request: [] });
  });

  it("a 2026-07-28 client that names a level: the request's own reaches it at that level only", async () => {
    expect((await logsOf('modern', 'debug')).request).toEqual(['with the request']);
    expect((await logsOf('modern', 'error')).request).toEqual([]);
  });

  it('a 2025-era client: both reach it, as sendLoggingMessage did', async () => {
    expect(await logsOf('legacy')).toEqual({ connection: ['on the connection'], request: ['with the request'] });
  });
});
