// The official codemod cannot move a destructured context parameter with a rest element: its marker stays in
// the output, and with no request here to ask, mcp-migrate adds nothing.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
const server = new McpServer({ name: 'x', version: '1' });
/* @mcp-codemod-error Destructuring of context parameter in signature: "{ signal, ...rest }". Properties have been reorganized in v2 (e.g., signal is now ctx.mcpReq.signal). Manual refactoring required. */
server.registerTool('t', { inputSchema: z.object({ a: z.string() }) }, async ({ a }, { signal, ...rest }) => {
  return { content: [{ type: 'text', text: a + String(signal.aborted) + Object.keys(rest).length }] };
});
