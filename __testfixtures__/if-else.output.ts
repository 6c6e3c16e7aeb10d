import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const reviewSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { approver: { type: 'string' } }, required: ['approver'] };

server.registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type DeployStep =
    | { step: 'awaiting-review'; note: string }
    | { step: 'awaiting-summary'; note: string };
  const askForSummary = () => inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Release notes for ${env}` } }],
    maxTokens: 80,
  });
  const call = resumeCall<DeployStep>(ctx, 'deploy', { env });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let note = 'no review';
      if (env === 'prod') {
        return call.suspend({ step: 'awaiting-review', note }, {
          review: inputRequired.elicit({
            message: 'Production deploy: who approves?',
            requestedSchema: reviewSchema,
          }),
        });
      } else {
        note = `auto-approved for ${env}`;
      }
      return call.suspend({ step: 'awaiting-summary', note }, {
        summary: askForSummary(),
      });
    }
    if (resumed.step === 'awaiting-review') {
      let note = resumed.note;
      {
        const review = elicitResult(ctx, 'review', reviewSchema);
        if (review.action !== 'accept') {
          return { content: [{ type: 'text', text: 'Deploy cancelled' }], isError: true };
        }
        note = `approved by ${String(review.content?.approver)}`;
      }
      return call.suspend({ step: 'awaiting-summary', note }, {
        summary: askForSummary(),
      });
    }
    if (resumed.step === 'awaiting-summary') {
      let note = resumed.note;
      const summary = samplingResult(ctx, 'summary');
      return {
        content: [{ type: 'text', text: `Deployed to ${env}, ${note}: ${summary.content.type === 'text' ? summary.content.text : ''}` }],
      };
    }
    throw call.unknownStep(resumed);
  });
});
