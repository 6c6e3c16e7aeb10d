// The official codemod cannot move a destructured context parameter: its own marker must stay in the output.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 'x', version: '1' });
server.tool('t', { a: z.string() }, async ({ a }, { signal, sessionId }) => {
  return { content: [{ type: 'text', text: a + String(signal.aborted) + sessionId }] };
});
