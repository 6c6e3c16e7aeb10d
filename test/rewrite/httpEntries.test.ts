/**
 * src/rewrite/httpEntries.ts: an HTTP entry moved to a createMcpHandler handler declared outside the request
 * handler: called in place of a stateless entry's server and transport, or put in front of a sessionful entry's
 * session wiring for 2026-07-28 requests.
 */
import { describe, expect, it } from 'vitest';
import { offset, planOf, range, rewritten } from './support.js';

const STATELESS = `import { createServer } from 'node:http';
import { McpServer, NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { buildServer } from './server.js';

createServer(async (req, res) => {
  const server = buildServer();
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  // Serve this one request.
  await transport.handleRequest(req, res);
}).listen(3000);
`;

describe('HTTP entries', () => {
  it('calls the handler in place of the stateless server and transport, declared before the request handler', () => {
    const { text, acted } = rewritten(
      STATELESS,
      planOf({
        http: [
          {
            mode: 'stateless',
            name: 'mcpHandler',
            factoryText: 'buildServer()',
            declareBefore: offset(STATELESS, 'createServer(async'),
            argsText: ['req', 'res'],
            replace: range(STATELESS, 'await transport.handleRequest(req, res);'),
            remove: [
              range(STATELESS, 'const server = buildServer();'),
              range(STATELESS, 'const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });'),
              range(STATELESS, 'await server.connect(transport);'),
            ],
          },
        ],
      }),
    );
    expect(acted).toEqual(['http-entries']);
    expect(text).toContain(`const mcpHandler = toNodeHandler(createMcpHandler(() => buildServer()));

createServer(async (req, res) => {
  // Serve this one request.
  await mcpHandler(req, res);
}).listen(3000);
`);
    expect(text).toMatch(/import \{ toNodeHandler \} from '@modelcontextprotocol\/node';/);
  });

  it('routes 2026-07-28 requests to a strict handler in front of the session wiring', () => {
    const source = `import { createServer } from 'node:http';
import { buildServer, readJson, sessions } from './server.js';

createServer(async (req, res) => {
  const body = await readJson(req);
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  await sessions(sessionId).handleRequest(req, res, body);
}).listen(3000);
`;
    const { text } = rewritten(
      source,
      planOf({
        http: [
          {
            mode: 'sessionful',
            name: 'mcpHandler',
            factoryText: 'buildServer()',
            declareBefore: offset(source, 'createServer(async'),
            argsText: ['req', 'res', 'body'],
            routeBefore: offset(source, 'const sessionId'),
          },
        ],
      }),
    );
    expect(text).toContain(`const mcpHandler = toNodeHandler(createMcpHandler(() => buildServer(), { legacy: 'reject' }));

createServer(async (req, res) => {
  const body = await readJson(req);
  // 2026-07-28 requests are served per request; 2025-era requests keep the session wiring below.
  if (!(await isLegacyRequest(await toWebRequest(req, body)))) {
    await mcpHandler(req, res, body);
    return;
  }
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  await sessions(sessionId).handleRequest(req, res, body);
}).listen(3000);
`);
  });
});
