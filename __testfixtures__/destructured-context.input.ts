import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'destructured', version: '1.0.0' });

// The context destructured in the signature.
server.registerTool('confirm', { inputSchema: { action: z.string() } }, async ({ action }, { sendRequest }) => {
  const answer = await sendRequest(
    { method: 'elicitation/create', params: { message: `Run ${action}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } },
    ElicitResultSchema
  );
  return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
});

// A tool without arguments: the context is its only parameter, destructured in the body.
server.registerTool('haiku', {}, async extra => {
  const { sendRequest } = extra;
  const reply = await sendRequest(
    { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 30 } },
    CreateMessageResultSchema
  );
  return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
});

// The only parameter, destructured, with a member that moved (signal).
server.registerTool('limerick', {}, async ({ sendRequest, signal }) => {
  const reply = await sendRequest(
    { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'A limerick' } }], maxTokens: 30 } },
    CreateMessageResultSchema
  );
  return { content: [{ type: 'text', text: `${reply.model}${signal.aborted ? ' (aborted)' : ''}` }] };
});

// A context named otherwise than extra.
server.registerTool('rename', { inputSchema: { from: z.string() } }, async ({ from }, context) => {
  const answer = await context.sendRequest(
    { method: 'elicitation/create', params: { message: `New name for ${from}?`, requestedSchema: { type: 'object', properties: { to: { type: 'string' } } } } },
    ElicitResultSchema
  );
  const to = answer.action === 'accept' ? String(answer.content?.to) : from;
  return { content: [{ type: 'text', text: `${from} -> ${to}${context.sessionId ? '' : ''}` }] };
});
