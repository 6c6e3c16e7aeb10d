import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

// A helper with several early returns before its question: it keeps them, and a call that returns early
// asks nothing, so it answers in one round on either era.

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

const FREE_LIMIT = 1;

/** Free, vouched-for and cheap charges go through without a question. */
async function approve(usd: number, trusted: boolean): Promise<boolean> {
  if (usd <= 0) return true; // free
  if (trusted) return true; // the caller vouches for it
  if (usd <= FREE_LIMIT) return true; // cheap enough not to ask
  const answer = await server.server.elicitInput({
    message: `Charge $${usd}?`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return answer.action === 'accept' && answer.content?.ok === true;
}

server.registerTool('charge', { inputSchema: { usd: z.number(), trusted: z.boolean() } }, async ({ usd, trusted }) => {
  const approved = await approve(usd, trusted);
  return { content: [{ type: 'text', text: approved ? `Charged $${usd}` : 'Not charged' }] };
});
