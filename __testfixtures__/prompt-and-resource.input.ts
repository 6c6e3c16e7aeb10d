import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerPrompt('standup', { argsSchema: { team: z.string() } }, async ({ team }) => {
  const mood = await server.server.elicitInput({
    message: `How is ${team} doing?`,
    requestedSchema: { type: 'object', properties: { mood: { type: 'string', enum: ['good', 'bad'] } }, required: ['mood'] },
  });
  return {
    messages: [{ role: 'user', content: { type: 'text', text: `Standup for ${team}: ${mood.action === 'accept' ? String(mood.content?.mood) : 'unknown'}` } }],
  };
});

server.registerResource('notes', new ResourceTemplate('notes://{id}', { list: undefined }), { mimeType: 'text/plain' }, async (uri, { id }) => {
  const { roots } = await server.server.listRoots();
  return { contents: [{ uri: uri.href, text: `note ${String(id)} in ${roots.length} roots` }] };
});
