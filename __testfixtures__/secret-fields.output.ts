// A session with credentials (an OAuth token) fetched before the question: the fetch is journaled, done once
// in the call, so the session travels in requestState between rounds, which the requestState module encrypts
// by default (MCP_REQUEST_STATE_ENCRYPT=0 would let the client read the tokens).
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

interface Session {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

async function freshSession(): Promise<Session> {
  return { accessToken: 'at-0123', refreshToken: 'rt-4567', expiresAt: Date.now() + 60_000 };
}

resumable(server).registerTool('run-mutation', { inputSchema: z.object({ query: z.string() }) }, async ({ query }) => {
  const session = await journaled(() => freshSession());
  const confirm = await ask(server.server, 'confirm').elicitInput({
    message: `Run ${query}?`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  if (confirm.action !== 'accept') return { content: [{ type: 'text', text: 'cancelled' }] };
  return { content: [{ type: 'text', text: `ran ${query} with a token of ${session.accessToken.length} characters` }] };
});
