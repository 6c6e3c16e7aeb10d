import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('ask-and-sample', { inputSchema: { question: z.string() } }, async ({ question }, extra) => {
  const reply = await extra.sendRequest(
    { method: 'elicitation/create', params: { message: question, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } } },
    ElicitResultSchema,
  );
  const note = reply.action === 'accept' ? String(reply.content?.note ?? '') : '';
  const sampled = await extra.sendRequest(
    { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `${question} ${note}` } }], maxTokens: 50 } },
    CreateMessageResultSchema,
  );
  return { content: [{ type: 'text', text: sampled.content.type === 'text' ? sampled.content.text : '' }] };
});
