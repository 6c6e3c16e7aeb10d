import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'destructured', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// The context destructured in the signature.
server.registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ConfirmStep = { step: 'awaiting-answer' };
  const call = resumeCall<ConfirmStep>(ctx, 'confirm', { action });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({ message: `Run ${action}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer');
      return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// A tool without arguments: the context is its only parameter, destructured in the body.
server.registerTool('haiku', {}, async extra => {
  type HaikuStep = { step: 'awaiting-reply' };
  const call = resumeCall<HaikuStep>(extra, 'haiku', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-reply' }, {
        reply: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 30 }),
      });
    }
    if (resumed.step === 'awaiting-reply') {
      const reply = samplingResult(extra, 'reply');
      return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
    }
    throw call.unknownStep(resumed);
  });
});

// The only parameter, destructured, with a member that moved (signal).
server.registerTool('limerick', {}, async (ctx) => {
  type LimerickStep = { step: 'awaiting-reply' };
  const call = resumeCall<LimerickStep>(ctx, 'limerick', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-reply' }, {
        reply: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'A limerick' } }], maxTokens: 30 }),
      });
    }
    if (resumed.step === 'awaiting-reply') {
      const reply = samplingResult(ctx, 'reply');
      return { content: [{ type: 'text', text: `${reply.model}${ctx.mcpReq.signal.aborted ? ' (aborted)' : ''}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// A context named otherwise than extra.
server.registerTool('rename', { inputSchema: z.object({ from: z.string() }) }, async ({ from }, context) => {
  type RenameStep = { step: 'awaiting-answer' };
  const call = resumeCall<RenameStep>(context, 'rename', { from });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({ message: `New name for ${from}?`, requestedSchema: { type: 'object', properties: { to: { type: 'string' } } } }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(context, 'answer');
      const to = answer.action === 'accept' ? String(answer.content?.to) : from;
      return { content: [{ type: 'text', text: `${from} -> ${to}${context.sessionId ? '' : ''}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
