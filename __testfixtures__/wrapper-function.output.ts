import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

/** Every tool of this server is registered through reg(), which hands its handler on unchanged. */
function reg(name: string, config: { description: string; inputSchema: z.ZodObject<z.ZodRawShape> }, cb: (args: any, extra: any) => Promise<CallToolResult>) {
  resumable(server).registerTool(name, config, cb);
}

reg('greet', { description: 'Asks how you are', inputSchema: z.object({ name: z.string() }) }, async ({ name }) => {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `How are you, ${name}?`,
    requestedSchema: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${name} did not say (${answer.action})` }] };
  return { content: [{ type: 'text', text: `${name} feels ${answer.content?.mood}` }] };
});

reg('ping', { description: 'Answers pong', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
