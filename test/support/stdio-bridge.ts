/**
 * Serves a stdio MCP server over HTTP for tools that speak only HTTP (the conformance tool): each
 * POSTed JSON-RPC request goes to the server's stdin under an id of the bridge's own (requests may
 * overlap) and its response comes back as the HTTP response, with the caller's id; a notification
 * is answered 202. What the server sends unasked (notifications) is dropped: this carries the
 * 2026-07-28 per-request exchange, not sessions or streams. The bridge opens the connection as a
 * 2026-07-28 stdio client does (`server/discover`, then a request, with the `_meta` envelope), which
 * pins the connection to that era.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import readline from 'node:readline';
import { envelope } from './rawMcp.js';

export interface Bridge {
  url: string;
  stderr(): string;
  close(): Promise<void>;
}

export async function stdioBridge(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Bridge> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', chunk => (stderr += chunk));
  const pending = new Map<number, (reply: Record<string, unknown>) => void>();
  let nextId = 1;
  readline.createInterface({ input: child.stdout }).on('line', line => {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (typeof message.id === 'number' && message.method === undefined) pending.get(message.id)?.(message);
  });
  const send = (message: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = nextId++;
    return new Promise(resolve => {
      pending.set(id, reply => {
        pending.delete(id);
        resolve(reply);
      });
      child.stdin.write(`${JSON.stringify({ ...message, id })}\n`);
    });
  };
  // The first request after discovery pins the era for the connection's life.
  for (const method of ['server/discover', 'tools/list']) {
    const reply = await send({ jsonrpc: '2.0', method, params: { _meta: envelope() } });
    if (reply.error !== undefined) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}\n${stderr}`);
  }
  const server = http.createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return void res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    }
    if (message.id === undefined) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
      return void res.writeHead(202).end();
    }
    const reply = await send(message);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...reply, id: message.id }));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stderr: () => stderr,
    close: async () => {
      child.kill();
      await new Promise(resolve => server.close(resolve));
    },
  };
}
