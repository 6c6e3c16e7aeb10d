import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  suspendCall,
  unknownPhase,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerTool('ask-and-sample', { inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const resumed = resumeCall(ctx, 'ask-and-sample', { question });
  if (resumed.phase === 0) {
    return inputRequired({
      inputRequests: {
        reply: inputRequired.elicit({ message: question, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } }),
      },
      requestState: await suspendCall(ctx, 'ask-and-sample', { question }, 1, {}),
    });
  }
  if (resumed.phase === 1) {
    const reply = elicitResult(ctx, 'reply', { type: 'object', properties: { note: { type: 'string' } } });
    const note = reply.action === 'accept' ? String(reply.content?.note ?? '') : '';
    return inputRequired({
      inputRequests: {
        sampled: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `${question} ${note}` } }], maxTokens: 50 }),
      },
      requestState: await suspendCall(ctx, 'ask-and-sample', { question }, 2, {}),
    });
  }
  if (resumed.phase === 2) {
    const sampled = samplingResult(ctx, 'sampled');
    return { content: [{ type: 'text', text: sampled.content.type === 'text' ? sampled.content.text : '' }] };
  }
  throw unknownPhase('ask-and-sample', resumed);
});
