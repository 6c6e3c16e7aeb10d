import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, clientCapabilities, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// A guard on what the client declared: on 2026-07-28 it is read from the request itself.
resumable(server).registerTool('rename', { description: 'Renames a file', inputSchema: z.object({ file: z.string() }) }, async ({ file }) => {
  const capabilities = clientCapabilities(server.server);
  if (!capabilities?.elicitation) {
    return { content: [{ type: 'text', text: `cannot ask for a new name for ${file}` }] };
  }
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `New name for ${file}?`,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  const sampling = clientCapabilities(server.server)?.sampling !== undefined;
  return { content: [{ type: 'text', text: answer.action === 'accept' ? `${file} -> ${answer.content?.name} (sampling: ${sampling})` : `${file} kept` }] };
});
