import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, requireClientSupport, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'let-assigned-after-await', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// `text` is declared before the question and first assigned after it, in the try or in the catch: its value
// at the question is undefined, so it is declared again where the answer is read rather than carried.
server.registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ConfirmStep = { step: 'awaiting-answer' };
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', { subject });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let text: string;
      try {
        requireClientSupport(ctx, ['elicitation']);
        return await call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema }),
        });
      } catch (err) {
        text = `failed: ${(err as Error).message}`;
      }
      return { content: [{ type: 'text', text }] };
    }
    if (resumed.step === 'awaiting-answer') {
      let text: string;
      try {
        const answer = elicitResult(ctx, 'answer', confirmSchema);
        text = answer.action === 'accept' && answer.content?.ok === true ? 'confirmed' : answer.action;
      } catch (err) {
        text = `failed: ${(err as Error).message}`;
      }
      return { content: [{ type: 'text', text }] };
    }
    throw call.unknownStep(resumed);
  });
});
