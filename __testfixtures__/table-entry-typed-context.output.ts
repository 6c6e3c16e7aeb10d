import { ElicitResultSchema } from '@modelcontextprotocol/core';
import { Server } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new Server({ name: 'table-entry-typed-context', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

type Extra = ServerContext;

// The entries' context parameters have no type of their own: they take the table's (an alias of the SDK's
// RequestHandlerExtra), so `extra.sendRequest` in an entry is a request, found and asked where it is written.
// The official codemod's marker on the call that hands the context on stays: SDK 2.x's context has no
// sendRequest, which ask(...) sends through ctx.mcpReq.send.
const tools: Record<string, (args: Record<string, unknown>, extra: Extra) => Promise<CallToolResult>> = {
  async remove(args, extra) {
    const answer = await ask(extra.mcpReq, 'answer').send({ method: 'elicitation/create', params: { message: `Delete ${String(args.id)}?`, requestedSchema: confirmSchema } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: answer.action }] };
  },
  async echo(args) {
    return { content: [{ type: 'text', text: String(args.text) }] };
  },
};

resumable(server).setRequestHandler('tools/call', async (request, ctx) => {
  const tool = tools[request.params.name];
  if (!tool) throw new Error(`unknown tool ${request.params.name}`);
  /* @mcp-codemod-error The context object is forwarded to tool(…) — its property shape changed in v2 (e.g. extra.signal is now ctx.mcpReq.signal, extra.sendRequest is ctx.mcpReq.send). Update the helper's parameter type and property accesses. */
  return tool(request.params.arguments ?? {}, ctx);
});
