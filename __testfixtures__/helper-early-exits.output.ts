import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

// A helper with several early returns before its question, inlined: the returns become one else-if chain, and its result, assigned only on paths that never reach the question, is not carried to the next round.

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const FREE_LIMIT = 1;

const chargeSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.registerTool('charge', { inputSchema: z.object({ usd: z.number(), trusted: z.boolean() }) }, async ({ usd, trusted }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ChargeStep = { step: 'awaiting-answer' };
  const call = resumeCall<ChargeStep>(ctx, 'charge', { usd, trusted });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let approved!: boolean;
      if (usd <= 0) {
        approved = true; // free
      } else if (trusted) {
        approved = true; // the caller vouches for it
      } else if (usd <= FREE_LIMIT) {
        approved = true; // cheap enough not to ask
      } else {
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `Charge $${usd}?`,
            requestedSchema: chargeSchema,
          }),
        });
      }
      return { content: [{ type: 'text', text: approved ? `Charged $${usd}` : 'Not charged' }] };
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', chargeSchema);
      const approved: boolean = answer.action === 'accept' && answer.content?.ok === true;
      return { content: [{ type: 'text', text: approved ? `Charged $${usd}` : 'Not charged' }] };
    }
    throw call.unknownStep(resumed);
  });
});
