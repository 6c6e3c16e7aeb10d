import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new McpServer({ name: 'destructured-marked', version: '1.0.0' });

// sendRequest destructured beside a rest element: SDK 2.x's context has no sendRequest and the rest keeps the
// destructuring, so the request is marked with what to write instead, never left silently.
server.registerTool('confirm', {}, async ({ sendRequest, ...rest }) => {
  const answer = await sendRequest({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
  return { content: [{ type: 'text', text: `${answer.action} ${Object.keys(rest).length}` }] };
});
