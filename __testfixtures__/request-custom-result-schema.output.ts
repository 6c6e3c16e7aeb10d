import { ElicitResultSchema } from '@modelcontextprotocol/core';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

/** The answer this server expects: parsed with it, a reply without a boolean `confirm` is refused. */
const ConfirmResultSchema = ElicitResultSchema.extend({ content: z.object({ confirm: z.boolean() }).optional() });

server.registerTool('drop-table', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
  // mcp-migrate: tools/call drop-table this elicitation request is left as it is (2025-era clients only): the answer is parsed with ConfirmResultSchema, not the SDK's ElicitResultSchema imported by name, and migrated it would be read as the SDK's result (what that schema checks, defaults or transforms would no longer apply); pass ElicitResultSchema and check the answer after the request, then run again
  const answer = await ctx.mcpReq.send(
    { method: 'elicitation/create', params: { message: `Drop ${table}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } } },
    ConfirmResultSchema,
  );
  if (answer.action !== 'accept' || answer.content?.confirm !== true) {
    return { content: [{ type: 'text', text: `Kept ${table}.` }] };
  }
  return { content: [{ type: 'text', text: `Dropped ${table}.` }] };
});
