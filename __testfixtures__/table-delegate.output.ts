import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// A table of tools registered by a loop whose handler returns t.invoke(args, { server, extra }): the loop's
// registration is made resumable, and each entry that asks does so where it is written, through the context
// the handler hands it.

/** What every entry of the table is handed when it runs. */
interface ToolContext {
  server: McpServer;
  extra: ServerContext;
}

/** One entry of the tool table, registered by the loop below. */
interface ToolDef {
  name: string;
  shape: z.ZodRawShape;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  invoke(args: any, ctx: ToolContext): Promise<CallToolResult>;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

const files = new Map<string, string>([['a.txt', 'alpha beta gamma']]);

/** Asks before it deletes: an object literal whose invoke() makes the request. */
const deleteTool: ToolDef = {
  name: 'delete_file',
  shape: { path: z.string() },
  invoke: async ({ path }: { path: string }, ctx) => {
    if (!files.has(path)) return text(`No file ${path}.`);
    const answer = await ask(ctx.server.server, 'answer').elicitInput({
      message: `Delete ${path}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return text(`Kept ${path} (${answer.action}).`);
    files.delete(path);
    return text(`Deleted ${path}.`);
  },
};

/** Lists the files: asks nothing. */
const listTool: ToolDef = {
  name: 'list_files',
  shape: {},
  invoke: async () => text([...files.keys()].join('\n') || 'No files.'),
};

/** Asks the client's model for a summary: a class implementing the entry. */
class SummarizeTool implements ToolDef {
  readonly name = 'summarize_file';
  readonly shape = { path: z.string() };

  async invoke({ path }: { path: string }, ctx: ToolContext) {
    const body = files.get(path);
    if (body === undefined) return text(`No file ${path}.`);
    const reply = await ask(ctx.server.server, 'reply').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${body}` } }],
      maxTokens: 60,
    });
    return text(reply.content.type === 'text' ? reply.content.text : '(no summary)');
  }
}

const tools: ToolDef[] = [listTool, deleteTool, new SummarizeTool()];

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

for (const t of tools) {
  resumable(server).registerTool(t.name, { inputSchema: z.object(t.shape) }, (args, ctx) => t.invoke(args, { server, extra: ctx }));
}
