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
