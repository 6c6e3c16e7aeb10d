import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-arguments-change-local-loop', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// Each question's message increments `asked`, a local: each round counts from 0 again as it replays the loop,
// so every question reads as it did when first asked, and the count after the loop is the call's.
resumable(server).registerTool('confirm-all', { inputSchema: z.object({ items: z.array(z.string()) }) }, async ({ items }) => {
  let asked = 0;
  const accepted: string[] = [];
  for (const item of items) {
    const answer = await ask(server.server, 'answer').elicitInput({ message: `${item}: question ${++asked}`, requestedSchema: confirmSchema });
    if (answer.action === 'accept') accepted.push(item);
  }
  return { content: [{ type: 'text', text: `${accepted.join(', ')} after ${asked} question(s)` }] };
});
