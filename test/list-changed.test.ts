/**
 * src/analysis/listChanged.ts marks list changes told from a server instance where the run moves an HTTP entry
 * to createMcpHandler. What its reason claims, measured on a real SDK 2.x server with the SDK's 2026-07-28
 * client listening (subscriptions/listen) for tool list changes: behind createMcpHandler the instance's
 * sendToolListChanged() (and the list_changed of a registration) never reaches the stream, the handler's
 * notify.toolsChanged() does; under serveStdio the instance's own reaches it, which is why stdio runs are not marked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const DIR = path.join(path.resolve(import.meta.dirname, '..'), '.tmp', 'list-changed-claims');

const TOOLS = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
export const server = new McpServer({ name: 'lists', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
let added = 0;
export const onAdded = [];
server.registerTool('add', { inputSchema: z.object({}) }, async () => {
  added++;
  server.registerTool(\`extra\${added}\`, { inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'x' }] }));
  server.sendToolListChanged();
  for (const tell of onAdded) tell();
  return { content: [{ type: 'text', text: 'added' }] };
});
`;

const STDIO = `import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { server } from './tools.mjs';
serveStdio(() => server);
`;

const HTTP = `import http from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { server, onAdded } from './tools.mjs';
const handler = createMcpHandler(() => server);
if (process.argv[2] === 'notify') onAdded.push(() => handler.notify.toolsChanged());
const node = toNodeHandler(handler);
const listening = http.createServer((req, res) => node(req, res)).listen(0, '127.0.0.1', () => console.log(listening.address().port));
`;

/** The tools/list_changed notifications a listening 2026-07-28 client got around one call of `add`. */
async function toldOfChanges(client: Client, connect: () => Promise<void>): Promise<number> {
  let told = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void told++);
  await connect();
  const subscription = await client.listen({ toolsListChanged: true });
  await client.callTool({ name: 'add', arguments: {} });
  // The notification, where it comes, is sent before the call's result: a short wait lets it land.
  await new Promise(resolve => setTimeout(resolve, 300));
  await subscription.close();
  await client.close();
  return told;
}

const modernClient = () => new Client({ name: 'lists-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

function writeServers(): void {
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(path.join(DIR, 'tools.mjs'), TOOLS);
  fs.writeFileSync(path.join(DIR, 'stdio.mjs'), STDIO);
  fs.writeFileSync(path.join(DIR, 'http.mjs'), HTTP);
}

async function overHttp(mode: 'instance' | 'notify'): Promise<number> {
  const child = spawn(process.execPath, ['http.mjs', mode], { cwd: DIR, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once('exit', code => reject(new Error(`the server exited with ${code}`)));
    });
    const client = modernClient();
    return await toldOfChanges(client, () => client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`))));
  } finally {
    child.kill();
  }
}

describe("what the reason claims, with the SDK's 2026-07-28 client listening for list changes", { timeout: 120_000 }, () => {
  it("behind createMcpHandler: the instance's notifications never reach the stream; the handler's notify does", async () => {
    writeServers();
    expect(await overHttp('instance')).toBe(0);
    expect(await overHttp('notify')).toBeGreaterThan(0);
  });

  it("under serveStdio: the instance's own reach it", async () => {
    writeServers();
    const client = modernClient();
    const told = await toldOfChanges(client, () =>
      client.connect(new StdioClientTransport({ command: process.execPath, args: ['stdio.mjs'], cwd: DIR, stderr: 'ignore' })),
    );
    expect(told).toBeGreaterThan(0);
  });
});
