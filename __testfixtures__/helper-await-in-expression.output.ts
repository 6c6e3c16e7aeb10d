import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

// Helpers the handlers await inside expressions: each call is hoisted into a statement of its own
// (in the order the expression evaluated it), then inlined and migrated.

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const notes = new Map<string, string>([['a', 'Leeds to York by the coast']]);

const okSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.registerTool('delete_note', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'delete_note', { id });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      let confirmResult!: boolean;
      mcpInline: {
        const mcpMessage: string = `Delete note ${id}?`;
        return call.suspend(1, { confirmResult }, {
          answer: inputRequired.elicit({
            message: mcpMessage,
            requestedSchema: okSchema,
          }),
        });
      }
    }
    if (resumed.phase === 1) {
      let confirmResult: boolean = resumed.locals.confirmResult;
      mcpInline: {
        const answer = elicitResult(ctx, 'answer', okSchema);
        { confirmResult = answer.action === 'accept' && answer.content?.ok === true; break mcpInline; }
      }
      if (!confirmResult) return { content: [{ type: 'text', text: 'kept' }] };
      notes.delete(id);
      return { content: [{ type: 'text', text: `deleted ${id}` }] };
    }
    throw call.unknownPhase(resumed);
  });
});

server.registerTool('summarize_note', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  const call = resumeCall(ctx, 'summarize_note', { id });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      let summarizeResult!: string;
      mcpInline2: {
        const mcpText: string = notes.get(id) ?? '';
        return call.suspend(1, { summarizeResult }, {
          reply: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${mcpText}` } }],
            maxTokens: 60,
          }),
        });
      }
    }
    if (resumed.phase === 1) {
      let summarizeResult: string = resumed.locals.summarizeResult;
      mcpInline2: {
        const reply = samplingResult(ctx, 'reply');
        { summarizeResult = reply.content.type === 'text' ? reply.content.text : '(no summary)'; break mcpInline2; }
      }
      return { content: [{ type: 'text', text: `${id}: ` + summarizeResult }] };
    }
    throw call.unknownPhase(resumed);
  });
});

server.registerTool('purge_notes', { inputSchema: z.object({ force: z.boolean() }) }, async ({ force }, ctx) => {
  const call = resumeCall(ctx, 'purge_notes', { force });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      let go!: boolean;
      if (force) {
        let confirmResult2!: boolean;
        mcpInline3: {
          const mcpMessage2: string = 'Purge every note?';
          return call.suspend(1, { go, confirmResult2 }, {
            answer: inputRequired.elicit({
              message: mcpMessage2,
              requestedSchema: okSchema,
            }),
          });
        }
      } else {
        go = force;
      }
      if (go) notes.clear();
      return { content: [{ type: 'text', text: go ? 'purged' : 'kept' }] };
    }
    if (resumed.phase === 1) {
      let go: boolean = resumed.locals.go;
      {
        let confirmResult2: boolean = resumed.locals.confirmResult2;
        mcpInline3: {
          const answer = elicitResult(ctx, 'answer', okSchema);
          { confirmResult2 = answer.action === 'accept' && answer.content?.ok === true; break mcpInline3; }
        }
        go = confirmResult2;
      }
      if (go) notes.clear();
      return { content: [{ type: 'text', text: go ? 'purged' : 'kept' }] };
    }
    throw call.unknownPhase(resumed);
  });
});
