import { McpServer as Mcp, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const mcp = new Mcp({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const choiceSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] };

mcp.registerTool('pick', { description: 'Picks a colour' }, async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type PickStep = { step: 'awaiting-choice' };
  const call = resumeCall<PickStep>(ctx, 'pick', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-choice' }, {
        choice: inputRequired.elicit({
          message: 'Pick a colour',
          requestedSchema: choiceSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-choice') {
      const choice = elicitResult(ctx, 'choice', choiceSchema);
      return { content: [{ type: 'text', text: choice.action === 'accept' ? String(choice.content?.colour) : 'none' }] };
    }
    throw call.unknownStep(resumed);
  });
});

export default mcp;
