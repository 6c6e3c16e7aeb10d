import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-arguments-change-local', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's message increments `asked`, which is read after the answer. The round builds its request first,
// then seals its state, so it resumes with `asked` as the message left it.
server.registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ConfirmStep = { step: 'awaiting-answer'; asked: number };
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', { subject });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let asked = 0;
      const inputRequests = {
        answer: inputRequired.elicit({ message: `${subject}: question ${++asked}`, requestedSchema: confirmSchema }),
      };
      return call.suspend({ step: 'awaiting-answer', asked }, inputRequests);
    }
    if (resumed.step === 'awaiting-answer') {
      let asked = resumed.asked;
      const answer = elicitResult(ctx, 'answer', confirmSchema);
      return { content: [{ type: 'text', text: `${answer.action} after ${asked} question(s)` }] };
    }
    throw call.unknownStep(resumed);
  });
});
