import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerTool('ask-and-sample', { inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type AskAndSampleStep =
    | { step: 'awaiting-reply' }
    | { step: 'awaiting-sampled' };
  const call = resumeCall<AskAndSampleStep>(ctx, 'ask-and-sample', { question });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-reply' }, {
        reply: inputRequired.elicit({ message: question, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } }),
      });
    }
    if (resumed.step === 'awaiting-reply') {
      const reply = elicitResult(ctx, 'reply');
      const note = reply.action === 'accept' ? String(reply.content?.note ?? '') : '';
      return call.suspend({ step: 'awaiting-sampled' }, {
        sampled: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `${question} ${note}` } }], maxTokens: 50 }),
      });
    }
    if (resumed.step === 'awaiting-sampled') {
      const sampled = samplingResult(ctx, 'sampled');
      return { content: [{ type: 'text', text: sampled.content.type === 'text' ? sampled.content.text : '' }] };
    }
    throw call.unknownStep(resumed);
  });
});
