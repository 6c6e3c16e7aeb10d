import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, requireClientSupport, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const wipeSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.registerTool('wipe', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type WipeStep = { step: 'awaiting-answer'; started: number };
  const call = resumeCall<WipeStep>(ctx, 'wipe', { path });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const started = Date.now(); // timed from the first round
      let confirmResult!: boolean;
      try {
        requireClientSupport(ctx, ['elicitation']);
        return await call.suspend({ step: 'awaiting-answer', started }, {
          answer: inputRequired.elicit({
            message: `Wipe ${path}?`,
            requestedSchema: wipeSchema,
          }),
        });
      } catch {
        confirmResult = false; /* a client that cannot ask: never consent */
      }
      const ok = confirmResult; // asks once per path
      if (!ok) return { content: [{ type: 'text', text: 'Kept.' }] }; // declined or cancelled
      const tookMs = Math.max(0, Date.now() - started); // never negative
      return { content: [{ type: 'text', text: `Wiped ${path} after ${tookMs >= 0 ? 'a' : 'no'} question` }] };
    }
    if (resumed.step === 'awaiting-answer') {
      let confirmResult: boolean;
      const started = resumed.started;
      try {
        const answer = elicitResult(ctx, 'answer', wipeSchema);
        confirmResult = answer.action === 'accept' && answer.content?.ok === true; // only an explicit yes
      } catch {
        confirmResult = false; /* a client that cannot ask: never consent */
      }
      const ok = confirmResult; // asks once per path
      if (!ok) return { content: [{ type: 'text', text: 'Kept.' }] }; // declined or cancelled
      const tookMs = Math.max(0, Date.now() - started); // never negative
      return { content: [{ type: 'text', text: `Wiped ${path} after ${tookMs >= 0 ? 'a' : 'no'} question` }] };
    }
    throw call.unknownStep(resumed);
  });
});
