import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
  type ElicitResult,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '2.0.0' }, { requestState: { verify: verifyRequestState } });

const renameSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] };

server.registerTool('rename', { inputSchema: z.object({ from: z.string() }) }, async ({ from }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type RenameStep =
    | { step: 'awaiting-answer' }
    | { step: 'awaiting-check'; answer: ElicitResult };
  const call = resumeCall<RenameStep>(ctx, 'rename', { from });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `New name for ${from}?`,
          requestedSchema: renameSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', renameSchema);
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'unchanged' }] };
      return call.suspend({ step: 'awaiting-check', answer }, {
        check: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Is ${String(answer.content?.to)} a good name?` } }],
          maxTokens: 20,
        }),
      });
    }
    if (resumed.step === 'awaiting-check') {
      const answer = resumed.answer;
      const check = samplingResult(ctx, 'check');
      return { content: [{ type: 'text', text: `${from} -> ${String(answer.content?.to)} (${check.model})` }] };
    }
    throw call.unknownStep(resumed);
  });
});
