import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  verifyRequestState
} from './mcp-migrate-state.js';

const server = new McpServer({ name: 'destructured', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// The context destructured in the signature.
server.registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'confirm', { action });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        answer: inputRequired.elicit({ message: `Run ${action}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }),
      });
    }
    if (resumed.phase === 1) {
      const answer = elicitResult(ctx, 'answer');
      return { content: [{ type: 'text', text: `${action}: ${answer.action}` }] };
    }
    throw call.unknownPhase(resumed);
  });
});

// A tool without arguments: the context is its only parameter, destructured in the body.
server.registerTool('haiku', {}, async extra => {
  const call = resumeCall(extra, 'haiku', undefined);
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        reply: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 30 }),
      });
    }
    if (resumed.phase === 1) {
      const reply = samplingResult(extra, 'reply');
      return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
    }
    throw call.unknownPhase(resumed);
  });
});

// The only parameter, destructured, with a member that moved (signal).
server.registerTool('limerick', {}, async (ctx) => {
  const call = resumeCall(ctx, 'limerick', undefined);
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        reply: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'A limerick' } }], maxTokens: 30 }),
      });
    }
    if (resumed.phase === 1) {
      const reply = samplingResult(ctx, 'reply');
      return { content: [{ type: 'text', text: `${reply.model}${ctx.mcpReq.signal.aborted ? ' (aborted)' : ''}` }] };
    }
    throw call.unknownPhase(resumed);
  });
});

// A context named otherwise than extra.
server.registerTool('rename', { inputSchema: z.object({ from: z.string() }) }, async ({ from }, context) => {
  const call = resumeCall(context, 'rename', { from });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        answer: inputRequired.elicit({ message: `New name for ${from}?`, requestedSchema: { type: 'object', properties: { to: { type: 'string' } } } }),
      });
    }
    if (resumed.phase === 1) {
      const answer = elicitResult(context, 'answer');
      const to = answer.action === 'accept' ? String(answer.content?.to) : from;
      return { content: [{ type: 'text', text: `${from} -> ${to}${context.sessionId ? '' : ''}` }] };
    }
    throw call.unknownPhase(resumed);
  });
});
