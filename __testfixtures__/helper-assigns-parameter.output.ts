import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// Helpers that assign their own parameter, before the question (in a nested function too) and after it:
// the parameter, bound to its argument where the helper is inlined, must stay assignable.
server.registerTool('ask', { inputSchema: z.object({ prompt: z.string() }) }, async ({ prompt }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type AskStep =
    | { step: 'awaiting-answer'; mcpPrompt: string }
    | { step: 'awaiting-answer2'; said: string; label: string };
  const call = resumeCall<AskStep>(ctx, 'ask', { prompt });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let mcpPrompt: string = prompt;
      const tidy = () => {
        mcpPrompt = mcpPrompt.trim();
      };
      tidy();
      return call.suspend({ step: 'awaiting-answer', mcpPrompt }, {
        answer: inputRequired.elicit({ message: mcpPrompt, requestedSchema: okSchema }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      let mcpPrompt = resumed.mcpPrompt;
      const answer = elicitResult(ctx, 'answer', okSchema);
      const said: string = `${answer.action}: ${mcpPrompt}`;
      let label: string = prompt;
      return call.suspend({ step: 'awaiting-answer2', said, label }, {
        answer2: inputRequired.elicit({ message: `Mark ${label}?`, requestedSchema: okSchema }),
      });
    }
    if (resumed.step === 'awaiting-answer2') {
      const said = resumed.said;
      let label = resumed.label;
      const answer = elicitResult(ctx, 'answer2', okSchema);
      if (answer.action === 'accept') label = `${label} (marked)`;
      const marked: string = label;
      return { content: [{ type: 'text', text: `${said} | ${marked} | ${prompt}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
