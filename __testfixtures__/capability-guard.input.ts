import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// A guard on what the client declared: on 2026-07-28 it is read from the request itself.
server.registerTool('rename', { description: 'Renames a file', inputSchema: { file: z.string() } }, async ({ file }) => {
  const capabilities = server.server.getClientCapabilities();
  if (!capabilities?.elicitation) {
    return { content: [{ type: 'text', text: `cannot ask for a new name for ${file}` }] };
  }
  const answer = await server.server.elicitInput({
    message: `New name for ${file}?`,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  const sampling = server.server.getClientCapabilities()?.sampling !== undefined;
  return { content: [{ type: 'text', text: answer.action === 'accept' ? `${file} -> ${answer.content?.name} (sampling: ${sampling})` : `${file} kept` }] };
});
