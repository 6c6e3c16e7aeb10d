import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-options-dropped', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's options (a timeout, the call's abort signal) have no place in its inputRequired entry: the report says they go.
server.registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ConfirmStep = { step: 'awaiting-answer' };
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', { subject });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', confirmSchema);
      return { content: [{ type: 'text', text: answer.action }] };
    }
    throw call.unknownStep(resumed);
  });
});
