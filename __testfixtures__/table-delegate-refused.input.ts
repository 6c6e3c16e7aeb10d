import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

// A table whose loop handler only returns t.invoke(...), where one entry that asks cannot be migrated as its delegate (its name is made when the module loads): no entry is, and the dispatch is marked with why.

interface ToolContext {
  server: McpServer;
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
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
  server.registerTool(t.name, { inputSchema: { path: z.string() } }, (args, extra) => t.invoke(args, { server, extra }));
}
