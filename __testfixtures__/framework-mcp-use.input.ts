// mcp-use 1.x's tool context (ctx.sample, ctx.elicit): mcp-use 2.x serves MCP 2026-07-28 and has
// neither, so each call is marked with what to write instead.
import { createMCPServer } from 'mcp-use/server';
import { z } from 'zod';

const server = createMCPServer('notes', { version: '1.0.0' });

server.tool({
  name: 'summarise',
  schema: z.object({ text: z.string() }),
  cb: async ({ text }, ctx) => {
    const summary = await ctx.sample(`Summarise: ${text}`);
    const answer = await ctx.elicit('Save the summary?', z.object({ save: z.boolean() }));
    return { content: [{ type: 'text', text: `${JSON.stringify(summary)} ${answer.action}` }] };
  },
});

await server.listen(3000);
