import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';

// A table whose loop handler only returns t.invoke(...), where one entry that asks cannot be migrated as its delegate (its name is made when the module loads): no entry is, and the dispatch is marked with why.

interface ToolContext {
  server: McpServer;
  extra: ServerContext;
}

interface ToolDef {
  name: string;
  invoke(args: { path: string }, ctx: ToolContext): Promise<CallToolResult>;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const prefix = process.env.TOOL_PREFIX ?? '';

/** Its name is made when the module loads: a migrated invoke() could not bind its requestState to it. */
const deleteTool: ToolDef = {
  name: `${prefix}delete_file`,
  invoke: async ({ path }, ctx) => {
    // mcp-migrate: elicitation request in a helper function, not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
    const answer = await ctx.server.server.elicitInput({
      message: `Delete ${path}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    return text(answer.action === 'accept' && answer.content?.confirm === true ? `Deleted ${path}.` : `Kept ${path}.`);
  },
};

/** Migratable on its own, but every entry that asks is migrated or none is. */
const summarizeTool: ToolDef = {
  name: 'summarize_file',
  invoke: async ({ path }, ctx) => {
    // mcp-migrate: sampling request in a helper function, not directly in a handler: no handler call reaching it was inlined; 1 call reaching it is marked where it is made; this body is left as it is and still sends the request to those callers and any caller outside the project: migrate it by hand for them, or remove it when nothing calls it
    const reply = await ctx.server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${path}` } }],
      maxTokens: 60,
    });
    return text(reply.content.type === 'text' ? reply.content.text : '(no summary)');
  },
};

const tools: ToolDef[] = [deleteTool, summarizeTool];

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

for (const t of tools) {
  // mcp-migrate: invoke() is not inlined: t.invoke(...) dispatches to the invoke() of whichever of 2 entries t is, and 2 of them ask the client (deleteTool (elicitation), summarizeTool (sampling)), so no body can be inlined into the handler (the call does not name one), and their requests are not migrated; nor are they migrated as the handler's delegates: the name of deleteTool is not a string literal, so invoke() of deleteTool cannot bind its requestState to the name it is registered under; give it a literal name, or migrate those entries by hand (each returns inputRequired, and this handler returns that result as it is)
  server.registerTool(t.name, { inputSchema: z.object({ path: z.string() }) }, (args, ctx) => t.invoke(args, { server, extra: ctx }));
}
