import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

server.registerTool('haiku', { description: 'Writes a haiku', inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type HaikuStep = { step: 'awaiting-result'; prompt: string };
  const call = resumeCall<HaikuStep>(ctx, 'haiku', { topic });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const prompt = `Write a haiku about ${topic}`;
      return call.suspend({ step: 'awaiting-result', prompt }, {
        result: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 60,
        }),
      });
    }
    if (resumed.step === 'awaiting-result') {
      const prompt = resumed.prompt;
      const result = samplingResult(ctx, 'result');
      const text = result.content.type === 'text' ? result.content.text : '';
      return { content: [{ type: 'text', text: `${prompt}:\n${text}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
