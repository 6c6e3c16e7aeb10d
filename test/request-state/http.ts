// Streamable HTTP, stateless (a server and transport per request), behind a bearer check that puts
// the user the token names into req.auth, as an OAuth middleware does: in the claim FIXTURE_USER_CLAIM
// names (`sub` unless set), as token verifiers name it in one claim or another.
import { createServer, type IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildServer } from './tools.js';

/** One OAuth client application ("console"), used by two people. */
const USERS: Record<string, string> = { 'token-alice': 'alice', 'token-bob': 'bob' };

function authenticate(req: IncomingMessage & { auth?: AuthInfo }): boolean {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const user = token === undefined ? undefined : USERS[token];
  if (token === undefined || user === undefined) return false;
  req.auth = { token, clientId: 'console', scopes: [], extra: { [process.env.FIXTURE_USER_CLAIM ?? 'sub']: user } };
  return true;
}

createServer(async (req, res) => {
  if (!authenticate(req)) {
    res.writeHead(401).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}).listen(Number(process.env.PORT), '127.0.0.1');
