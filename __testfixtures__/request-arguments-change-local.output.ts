import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const server = new McpServer({ name: 'request-arguments-change-local', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's message increments `asked`, which is read after the answer. The round's state is read before the
// request is built, so a rewrite would resume with `asked` as it was before: the request is left, and marked.
server.registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  let asked = 0;
  // mcp-migrate: tools/call confirm this elicitation request is left as it is (2025-era clients only): the request's arguments change the handler's local "asked", which the rewritten round would carry as it was before they ran; make that change in a statement of its own before the await
  const answer = await server.server.elicitInput({ message: `${subject}: question ${++asked}`, requestedSchema: confirmSchema });
  return { content: [{ type: 'text', text: `${answer.action} after ${asked} question(s)` }] };
});
