import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type { CallToolResult, ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

// Handlers whose expression body awaits a helper: the same as a block body that returns the awaited call.

class Summaries {
  constructor(private readonly server: McpServer) {}

  register(): void {
    this.server.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
      // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
      type SummarizeStep = { step: 'awaiting-reply' };
      const call = resumeCall<SummarizeStep>(ctx, 'summarize', { text });
      return call.run(async resumed => {
        if (resumed.step === 'start') {
          const mcpText: string = text.trim();
          return call.suspend({ step: 'awaiting-reply' }, {
            reply: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${mcpText}` } }],
              maxTokens: 60,
            }),
          });
        }
        if (resumed.step === 'awaiting-reply') {
          const reply = samplingResult(ctx, 'reply');
          const summarizeResult: CallToolResult = { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '(no summary)' }] };
          return summarizeResult;
        }
        throw call.unknownStep(resumed);
      });
    });
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const deleteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] };
server.registerTool('delete', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
  type DeleteStep = { step: 'awaiting-answer' };
  const call = resumeCall<DeleteStep>(ctx, 'delete', { path });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `Delete ${path}?`,
          requestedSchema: deleteSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      let confirmDeleteResult: CallToolResult;
      const answer = elicitResult(ctx, 'answer', deleteSchema);
      if (answer.action !== 'accept' || !answer.content?.sure) {
        confirmDeleteResult = { content: [{ type: 'text', text: `kept ${path}` }] };
      } else {
        confirmDeleteResult = { content: [{ type: 'text', text: `deleted ${path}` }] };
      }
      return confirmDeleteResult;
    }
    throw call.unknownStep(resumed);
  });
});
new Summaries(server).register();
