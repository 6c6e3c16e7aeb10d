import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ElicitResultSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'table-entry-typed-context', version: '1.0.0' }, { capabilities: { tools: {} } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

// The entries' context parameters have no type of their own: they take the table's (an alias of the SDK's
// RequestHandlerExtra), so `extra.sendRequest` in an entry is a request, found and asked where it is written.
// The official codemod's marker on the call that hands the context on stays: SDK 2.x's context has no
// sendRequest, which ask(...) sends through ctx.mcpReq.send.
const tools: Record<string, (args: Record<string, unknown>, extra: Extra) => Promise<CallToolResult>> = {
  async remove(args, extra) {
    const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: `Delete ${String(args.id)}?`, requestedSchema: confirmSchema } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: answer.action }] };
  },
  async echo(args) {
    return { content: [{ type: 'text', text: String(args.text) }] };
  },
};

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const tool = tools[request.params.name];
  if (!tool) throw new Error(`unknown tool ${request.params.name}`);
  return tool(request.params.arguments ?? {}, extra);
});
