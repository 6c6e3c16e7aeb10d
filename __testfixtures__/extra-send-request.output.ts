import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/core';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('ask-and-sample', { inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
  const reply = await ask(ctx.mcpReq, 'reply').send(
    { method: 'elicitation/create', params: { message: question, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } } },
    ElicitResultSchema,
  );
  const note = reply.action === 'accept' ? String(reply.content?.note ?? '') : '';
  const sampled = await ask(ctx.mcpReq, 'sampled').send(
    { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `${question} ${note}` } }], maxTokens: 50 } },
    CreateMessageResultSchema,
  );
  return { content: [{ type: 'text', text: sampled.content.type === 'text' ? sampled.content.text : '' }] };
});
