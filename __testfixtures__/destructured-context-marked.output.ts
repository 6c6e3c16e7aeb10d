import { ElicitResultSchema } from '@modelcontextprotocol/core';
import { McpServer } from '@modelcontextprotocol/server';

const server = new McpServer({ name: 'destructured-marked', version: '1.0.0' });

// sendRequest destructured beside a rest element: SDK 2.x's context has no sendRequest and the rest keeps the
// destructuring, so the request is marked with what to write instead, never left silently.
server.registerTool('confirm', {}, async ({ sendRequest, ...rest }) => {
  // mcp-migrate: this elicitation request is left as it is and fails on SDK 2.x for every client: the request goes through sendRequest destructured from the handler's context ({ sendRequest, ...rest }), which SDK 2.x's context does not have; name the context parameter (ctx) and call ctx.mcpReq.send(...), then run again
  const answer = await sendRequest({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
  return { content: [{ type: 'text', text: `${answer.action} ${Object.keys(rest).length}` }] };
});
