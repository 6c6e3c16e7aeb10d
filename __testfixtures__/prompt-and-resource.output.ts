import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerPrompt('standup', { argsSchema: z.object({ team: z.string() }) }, async ({ team }) => {
  const mood = await ask(server.server, 'mood').elicitInput({
    message: `How is ${team} doing?`,
    requestedSchema: { type: 'object', properties: { mood: { type: 'string', enum: ['good', 'bad'] } }, required: ['mood'] },
  });
  return {
    messages: [{ role: 'user', content: { type: 'text', text: `Standup for ${team}: ${mood.action === 'accept' ? String(mood.content?.mood) : 'unknown'}` } }],
  };
});

resumable(server).registerResource('notes', new ResourceTemplate('notes://{id}', { list: undefined }), { mimeType: 'text/plain' }, async (uri, { id }) => {
  const { roots } = await ask(server.server).listRoots();
  return { contents: [{ uri: uri.href, text: `note ${String(id)} in ${roots.length} roots` }] };
});
