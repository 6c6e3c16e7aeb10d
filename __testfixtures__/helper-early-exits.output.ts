import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// A helper with several early returns before its question: it keeps them, and a call that returns early
// asks nothing, so it answers in one round on either era.

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const FREE_LIMIT = 1;

/** Free, vouched-for and cheap charges go through without a question. */
async function approve(usd: number, trusted: boolean): Promise<boolean> {
  if (usd <= 0) return true; // free
  if (trusted) return true; // the caller vouches for it
  if (usd <= FREE_LIMIT) return true; // cheap enough not to ask
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Charge $${usd}?`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return answer.action === 'accept' && answer.content?.ok === true;
}

resumable(server).registerTool('charge', { inputSchema: z.object({ usd: z.number(), trusted: z.boolean() }) }, async ({ usd, trusted }) => {
  const approved = await approve(usd, trusted);
  return { content: [{ type: 'text', text: approved ? `Charged $${usd}` : 'Not charged' }] };
});
