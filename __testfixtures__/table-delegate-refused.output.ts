import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

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
    const answer = await ask(ctx.server.server, 'answer').elicitInput({
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
    const reply = await ask(ctx.server.server, 'reply').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${path}` } }],
      maxTokens: 60,
    });
    return text(reply.content.type === 'text' ? reply.content.text : '(no summary)');
  },
};

const tools: ToolDef[] = [deleteTool, summarizeTool];

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

for (const t of tools) {
  resumable(server).registerTool(t.name, { inputSchema: z.object({ path: z.string() }) }, (args, ctx) => t.invoke(args, { server, extra: ctx }));
}
