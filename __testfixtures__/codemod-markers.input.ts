// The official codemod cannot move a destructured context parameter with a rest element: its marker stays in
// the output, and with no request here to ask, mcp-migrate adds nothing.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 'x', version: '1' });
server.tool('t', { a: z.string() }, async ({ a }, { signal, ...rest }) => {
  return { content: [{ type: 'text', text: a + String(signal.aborted) + Object.keys(rest).length }] };
});
