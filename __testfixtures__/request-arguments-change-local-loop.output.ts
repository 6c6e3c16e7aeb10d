import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-arguments-change-local-loop', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// Each question's message increments `asked`, carried from round to round. The request is asked again by the
// resuming phase, so it is printed in two phases, each time where it is asked (a builder would increment its own copy).
server.registerTool('confirm-all', { inputSchema: z.object({ items: z.array(z.string()) }) }, async ({ items }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ConfirmAllStep = { step: 'awaiting-answer'; accepted: string[]; asked: number; mcpItems: string[]; mcpIndex: number };
  const call = resumeCall<ConfirmAllStep>(ctx, 'confirm-all', { items });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let asked = 0;
      const accepted: string[] = [];
      const mcpItems = [...items];
      if (mcpItems.length > 0) {
        const mcpIndex = 0;
        const item = mcpItems[mcpIndex];
        const inputRequests = {
          answer: inputRequired.elicit({ message: `${item}: question ${++asked}`, requestedSchema: confirmSchema }),
        };
        return call.suspend({ step: 'awaiting-answer', accepted, asked, mcpItems, mcpIndex }, inputRequests);
      }
      return { content: [{ type: 'text', text: `${accepted.join(', ')} after ${asked} question(s)` }] };
    }
    if (resumed.step === 'awaiting-answer') {
      const accepted = resumed.accepted;
      let asked = resumed.asked;
      const mcpItems = resumed.mcpItems;
      for (let mcpIndex = resumed.mcpIndex, mcpFirst = true; mcpIndex < mcpItems.length; mcpIndex++, mcpFirst = false) {
        const item = mcpItems[mcpIndex];
        if (mcpFirst) {
          const answer = elicitResult(ctx, 'answer', confirmSchema);
          if (answer.action === 'accept') accepted.push(item);
        } else {
          const inputRequests = {
            answer: inputRequired.elicit({ message: `${item}: question ${++asked}`, requestedSchema: confirmSchema }),
          };
          return call.suspend({ step: 'awaiting-answer', accepted, asked, mcpItems, mcpIndex }, inputRequests);
        }
      }
      return { content: [{ type: 'text', text: `${accepted.join(', ')} after ${asked} question(s)` }] };
    }
    throw call.unknownStep(resumed);
  });
});
