import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

/** Declared beside its registration and passed by name. */
async function summarize({ text }: { text: string }, ctx: ServerContext) {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type SummarizeStep = { step: 'awaiting-result' };
  const call = resumeCall<SummarizeStep>(ctx, 'summarize', { text });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-result' }, {
        result: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
          maxTokens: 60,
        }),
      });
    }
    if (resumed.step === 'awaiting-result') {
      const result = samplingResult(ctx, 'result');
      const summary = result.content.type === 'text' ? result.content.text : '';
      return { content: [{ type: 'text' as const, text: `${text.length} chars: ${summary}` }] };
    }
    throw call.unknownStep(resumed);
  });
}

server.registerTool('summarize', { description: 'Summarizes a text', inputSchema: z.object({ text: z.string() }) }, summarize);

const deleteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] };

const confirmDelete = async ({ file }: { file: string }, ctx: ServerContext) => {
  type DeleteStep = { step: 'awaiting-answer' };
  const call = resumeCall<DeleteStep>(ctx, 'delete', { file });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `Delete ${file}?`,
          requestedSchema: deleteSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', deleteSchema);
      if (answer.action !== 'accept' || !answer.content?.sure) return { content: [{ type: 'text' as const, text: 'kept' }] };
      return { content: [{ type: 'text' as const, text: `deleted ${file}` }] };
    }
    throw call.unknownStep(resumed);
  });
};

server.registerTool('delete', { description: 'Deletes a file', inputSchema: z.object({ file: z.string() }) }, confirmDelete);
