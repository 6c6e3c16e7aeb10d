// mcp-use 1.x's tool context (ctx.sample, ctx.elicit): mcp-use 2.x serves MCP 2026-07-28 and has
// neither, so each call is marked with what to write instead.
import { createMCPServer } from 'mcp-use/server';
import { z } from 'zod';

const server = createMCPServer('notes', { version: '1.0.0' });

server.tool({
  name: 'summarise',
  schema: z.object({ text: z.string() }),
  cb: async ({ text }, ctx) => {
    // mcp-migrate: sampling request through mcp-use's ctx.sample(): mcp-use 2.x serves MCP 2026-07-28 (built on SDK 2.x; 2.5.2 checked) and its tool context has no sample() or elicit(); upgrade to mcp-use 2.x, return inputRequired({ inputRequests: { key: inputRequired.elicit({...}) | inputRequired.createMessage({...}) } }) from the tool and read the answer on the retry with acceptedContent(ctx.inputResponses, key) or inputResponse(...) (mcp-use exports both); state the next round needs travels in requestState (ctx.requestState)
    const summary = await ctx.sample(`Summarise: ${text}`);
    // mcp-migrate: elicitation request through mcp-use's ctx.elicit(): mcp-use 2.x serves MCP 2026-07-28 (built on SDK 2.x; 2.5.2 checked) and its tool context has no sample() or elicit(); upgrade to mcp-use 2.x, return inputRequired({ inputRequests: { key: inputRequired.elicit({...}) | inputRequired.createMessage({...}) } }) from the tool and read the answer on the retry with acceptedContent(ctx.inputResponses, key) or inputResponse(...) (mcp-use exports both); state the next round needs travels in requestState (ctx.requestState)
    const answer = await ctx.elicit('Save the summary?', z.object({ save: z.boolean() }));
    return { content: [{ type: 'text', text: `${JSON.stringify(summary)} ${answer.action}` }] };
  },
});

await server.listen(3000);
