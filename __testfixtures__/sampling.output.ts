import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

resumable(server).registerTool('haiku', { description: 'Writes a haiku', inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
  const prompt = `Write a haiku about ${topic}`;
  const result = await ask(server.server, 'result').createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens: 60,
  });
  const text = result.content.type === 'text' ? result.content.text : '';
  return { content: [{ type: 'text', text: `${prompt}:\n${text}` }] };
});
