// A callback that does nothing but the request, passed to the project's own wrapper that passes its value
// through (a timeout, a log line): unwrapped, the request migrated as if awaited where the wrapper's
// call was. The wrapper no longer surrounds the question, which the client now answers between rounds.
// Nothing else calls either wrapper once its call is unwrapped: both are removed, as unused code.
import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'awaited-callback-unwrap', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const confirmSchema = { type: 'object' as const, properties: { sure: { type: 'boolean' as const } }, required: ['sure'] };

server.registerTool('deploy', { inputSchema: z.object({ service: z.string() }) }, async ({ service }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type DeployStep = { step: 'awaiting-answer' };
  const call = resumeCall<DeployStep>(ctx, 'deploy', { service });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const question = { message: `Deploy ${service} now?`, requestedSchema: confirmSchema };
      // mcp-migrate: withTimeout() no longer surrounds this question: the client now answers between rounds, so no call waits on the answer
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit(question),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', confirmSchema);
      if (answer.action === 'accept' && answer.content?.sure === true) return { content: [{ type: 'text', text: `deploying ${service}` }] };
      return { content: [{ type: 'text', text: `${service} not deployed (${answer.action})` }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('name-it', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
  type NameItStep = { step: 'awaiting-reply' };
  const call = resumeCall<NameItStep>(ctx, 'name-it', { topic });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      // mcp-migrate: logged() no longer surrounds this question: the client now answers between rounds, so no call waits on the answer
      return call.suspend({ step: 'awaiting-reply' }, {
        reply: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `A name for ${topic}?` } }], maxTokens: 10 }),
      });
    }
    if (resumed.step === 'awaiting-reply') {
      const reply = samplingResult(ctx, 'reply');
      const name = reply.content.type === 'text' ? reply.content.text : '';
      return { content: [{ type: 'text', text: `${topic}: ${name}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
