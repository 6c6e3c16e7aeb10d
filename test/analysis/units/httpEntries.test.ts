/**
 * src/analysis/units/httpEntries.ts: a Streamable HTTP entry moved to createMcpHandler where that is mechanical
 * (a stateless entry replaced by one call of the handler; a sessionful one given a route for 2026-07-28
 * requests in front of its sessions), else marked with what to do.
 */
import { describe, expect, it } from 'vitest';
import { analysed } from './support.js';

const HEAD = `import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
function buildServer(): McpServer {
  return new McpServer({ name: 's', version: '1.0.0' });
}
`;

describe('Streamable HTTP entries', () => {
  it("replaces the stateless entry's server, transport and handleRequest by one call of a createMcpHandler handler", () => {
    const a = analysed(
      {
        'http.ts': `${HEAD}
createServer(async (req, res) => {
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(3000);
`,
      },
      { nodeTypes: true },
    );
    expect(a.plan()?.http).toEqual([
      expect.objectContaining({
        mode: 'stateless',
        factoryText: 'buildServer()',
        declareBefore: 'createServer(async (req, res) => {',
        argsText: ['req', 'res'],
        replace: 'await transport.handleRequest(req, res);',
      }),
    ]);
    expect(a.acted).toContain('http-entries http.ts');
  });

  it('routes 2026-07-28 requests in front of a sessionful entry that parses the body once, whose sessions keep serving 2025 clients', () => {
    const a = analysed({ 'http.ts': sessionful('const body = await readJson(req);', 'body') }, { nodeTypes: true });
    expect(a.plan()?.http).toEqual([
      expect.objectContaining({
        mode: 'sessionful',
        factoryText: 'buildServer()',
        argsText: ['req', 'res', 'body'],
        declareBefore: 'createServer(async (req, res) => {',
        routeBefore: "const sessionId = req.headers['mcp-session-id'] as string | undefined;",
      }),
    ]);
  });

  it('marks a sessionful entry whose transport reads the body from the stream, which routing in front of it would consume', () => {
    const a = analysed({ 'http.ts': sessionful('', '') }, { nodeTypes: true });
    expect(a.plan()?.http).toBeUndefined();
    expect(a.sites).toEqual([expect.objectContaining({ kind: 'entry', outcome: 'marked' })]);
    expect(a.sites[0]!.reason).toMatch(
      /handleRequest reads the request body from the stream, which routing in front of it would consume: parse the body once/,
    );
  });
});

/** A node:http entry keeping a transport per session; `parse` a statement before it reads the session, `body` handleRequest's third argument. */
function sessionful(parse: string, body: string): string {
  return `${HEAD}
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
const transports = new Map<string, StreamableHTTPServerTransport>();
createServer(async (req, res) => {
  ${parse}
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport) {
    const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: id => void transports.set(id, created) });
    await buildServer().connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res${body ? `, ${body}` : ''});
}).listen(3000);
`;
}
