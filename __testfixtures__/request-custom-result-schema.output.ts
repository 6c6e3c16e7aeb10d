// A request whose answer is parsed with the project's own result schema (ElicitResultSchema extended): it is
// asked where it is written, with that schema, and a 2026-07-28 client's answer is parsed with it too, so an
// answer without a boolean `confirm` is refused on both eras, as SDK 1.x refused it.
import { ElicitResultSchema } from '@modelcontextprotocol/core';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

/** The answer this server expects: parsed with it, a reply without a boolean `confirm` is refused. */
const ConfirmResultSchema = ElicitResultSchema.extend({ content: z.object({ confirm: z.boolean() }).optional() });

resumable(server).registerTool('drop-table', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
  const answer = await ask(ctx.mcpReq, 'answer').send(
    { method: 'elicitation/create', params: { message: `Drop ${table}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } } },
    ConfirmResultSchema,
  );
  if (answer.action !== 'accept' || answer.content?.confirm !== true) {
    return { content: [{ type: 'text', text: `Kept ${table}.` }] };
  }
  return { content: [{ type: 'text', text: `Dropped ${table}.` }] };
});
