import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

// The README's example: README.md shows the handler before and after, test/docs.test.ts keeps them this fixture's.
export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const greetSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { mood: { type: 'string' } } };

server.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type GreetStep = { step: 'awaiting-answer' };
  const call = resumeCall<GreetStep>(ctx, 'greet', { name });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: 'How are you feeling?',
          requestedSchema: greetSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', greetSchema);
      return { content: [{ type: 'text', text: `${name}: ${answer.action} ${answer.content?.mood ?? ''}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
