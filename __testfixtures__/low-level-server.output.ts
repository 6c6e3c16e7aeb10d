import {
  Server,
  type ListToolsResult,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new Server({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

server.setRequestHandler('tools/list', async (): Promise<ListToolsResult> => ({
  tools: [
    { name: 'ask', description: 'Asks the user', inputSchema: { type: 'object', properties: {} } },
    { name: 'confirm', description: 'Asks before going on', inputSchema: { type: 'object', properties: {} } },
  ],
}));

const textSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

server.setRequestHandler('tools/call', async (request, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type Step =
    | { step: 'awaiting-reply' }
    | { step: 'awaiting-answer' };
  const call = resumeCall<Step>(ctx, request.params.name, request.params.arguments);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      if (request.params.name === 'confirm') {
        return call.suspend({ step: 'awaiting-reply' }, {
          reply: inputRequired.elicit({ message: 'Proceed?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }),
        });
      }
      const topic = String(request.params.arguments?.topic ?? 'anything');
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `Tell me about ${topic}`,
          requestedSchema: textSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-reply') {
      {
        // The Server's generic request method, as class-based servers often spell it.
        const reply = elicitResult(ctx, 'reply');
        return { content: [{ type: 'text', text: reply.action === 'accept' && reply.content?.ok ? 'proceeding' : `stopped (${reply.action})` }] };
      }
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', textSchema);
      return { content: [{ type: 'text', text: answer.action === 'accept' ? String(answer.content?.text) : 'nothing' }] };
    }
    throw call.unknownStep(resumed);
  });
});

export { server };
