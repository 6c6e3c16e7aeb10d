import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-arguments-closure-counter', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's message is made by a function of the handler that counts the questions in `counter`, read after
// the answer. The round builds its request first, then seals its state, so it carries the count as changed.
server.registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ConfirmStep = { step: 'awaiting-answer'; counter: number };
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', { subject });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let counter = 0;
      const question = (text: string) => `${text} (question ${++counter})`;
      const inputRequests = {
        answer: inputRequired.elicit({ message: question(`Go ahead with ${subject}?`), requestedSchema: confirmSchema }),
      };
      return call.suspend({ step: 'awaiting-answer', counter }, inputRequests);
    }
    if (resumed.step === 'awaiting-answer') {
      let counter = resumed.counter;
      const answer = elicitResult(ctx, 'answer', confirmSchema);
      return { content: [{ type: 'text', text: `${answer.action} after ${counter} question(s)` }] };
    }
    throw call.unknownStep(resumed);
  });
});
