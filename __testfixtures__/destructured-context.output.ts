import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/core';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'destructured', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// The context destructured in the signature.
resumable(server).registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }, ctx) => {
  const answer = await ask(ctx.mcpReq, 'answer').send(
    { method: 'elicitation/create', params: { message: `Run ${action}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } },
    ElicitResultSchema
  );
  return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
});

// A tool without arguments: the context is its only parameter, destructured in the body.
resumable(server).registerTool('haiku', {}, async extra => {
  const reply = await ask(extra.mcpReq, 'reply').send(
    { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 30 } },
    CreateMessageResultSchema
  );
  return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
});

// The only parameter, destructured, with a member that moved (signal).
resumable(server).registerTool('limerick', {}, async (ctx) => {
  const reply = await ask(ctx.mcpReq, 'reply').send(
    { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'A limerick' } }], maxTokens: 30 } },
    CreateMessageResultSchema
  );
  return { content: [{ type: 'text', text: `${reply.model}${ctx.mcpReq.signal.aborted ? ' (aborted)' : ''}` }] };
});

// A context named otherwise than extra.
resumable(server).registerTool('rename', { inputSchema: z.object({ from: z.string() }) }, async ({ from }, context) => {
  const answer = await ask(context.mcpReq, 'answer').send(
    { method: 'elicitation/create', params: { message: `New name for ${from}?`, requestedSchema: { type: 'object', properties: { to: { type: 'string' } } } } },
    ElicitResultSchema
  );
  const to = answer.action === 'accept' ? String(answer.content?.to) : from;
  return { content: [{ type: 'text', text: `${from} -> ${to}${context.sessionId ? '' : ''}` }] };
});
