import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// Helpers the handlers await inside expressions (a negated condition, a concatenation, the right of &&): the
// expressions stay as they are, and the helpers ask where they are written.

async function confirm(server: McpServer, message: string): Promise<boolean> {
  const answer = await ask(server.server, 'answer').elicitInput({
    message,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return answer.action === 'accept' && answer.content?.ok === true;
}

async function summarize(server: McpServer, text: string): Promise<string> {
  const reply = await ask(server.server, 'reply').createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
    maxTokens: 60,
  });
  return reply.content.type === 'text' ? reply.content.text : '(no summary)';
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const notes = new Map<string, string>([['a', 'Leeds to York by the coast']]);

resumable(server).registerTool('delete_note', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  if (!(await confirm(server, `Delete note ${id}?`))) return { content: [{ type: 'text', text: 'kept' }] };
  notes.delete(id);
  return { content: [{ type: 'text', text: `deleted ${id}` }] };
});

resumable(server).registerTool('summarize_note', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  return { content: [{ type: 'text', text: `${id}: ` + (await summarize(server, notes.get(id) ?? '')) }] };
});

resumable(server).registerTool('purge_notes', { inputSchema: z.object({ force: z.boolean() }) }, async ({ force }) => {
  const go = force && (await confirm(server, 'Purge every note?'));
  if (go) notes.clear();
  return { content: [{ type: 'text', text: go ? 'purged' : 'kept' }] };
});
