import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '2.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('rename', { inputSchema: z.object({ from: z.string() }) }, async ({ from }, ctx) => {
  const answer = await ask(ctx.mcpReq, 'answer').elicitInput({
    message: `New name for ${from}?`,
    requestedSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'unchanged' }] };
  const check = await ask(ctx.mcpReq, 'check').requestSampling({
    messages: [{ role: 'user', content: { type: 'text', text: `Is ${String(answer.content?.to)} a good name?` } }],
    maxTokens: 20,
  });
  return { content: [{ type: 'text', text: `${from} -> ${String(answer.content?.to)} (${check.model})` }] };
});
