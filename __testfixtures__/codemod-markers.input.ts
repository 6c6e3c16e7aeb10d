// The official codemod cannot move a destructured context parameter, nor can mcp-migrate with a rest element: the codemod's marker must stay in the output.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 'x', version: '1' });
server.tool('t', { a: z.string() }, async ({ a }, { signal, ...rest }) => {
  return { content: [{ type: 'text', text: a + String(signal.aborted) + Object.keys(rest).length }] };
});
