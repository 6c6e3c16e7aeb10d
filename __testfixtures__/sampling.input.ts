import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });

server.registerTool('haiku', { description: 'Writes a haiku', inputSchema: { topic: z.string() } }, async ({ topic }) => {
  const prompt = `Write a haiku about ${topic}`;
  const result = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens: 60,
  });
  const text = result.content.type === 'text' ? result.content.text : '';
  return { content: [{ type: 'text', text: `${prompt}:\n${text}` }] };
});
