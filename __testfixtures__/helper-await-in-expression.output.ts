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
  type DeleteNoteStep = { step: 'awaiting-answer'; confirmResult: boolean };
  const call = resumeCall<DeleteNoteStep>(ctx, 'delete_note', { id });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let confirmResult!: boolean;
      mcpInline: {
        const mcpMessage: string = `Delete note ${id}?`;
        return call.suspend({ step: 'awaiting-answer', confirmResult }, {
          answer: inputRequired.elicit({
            message: mcpMessage,
            requestedSchema: okSchema,
          }),
        });
      }
    }
    if (resumed.step === 'awaiting-answer') {
      let confirmResult = resumed.confirmResult;
      mcpInline: {
        const answer = elicitResult(ctx, 'answer', okSchema);
        { confirmResult = answer.action === 'accept' && answer.content?.ok === true; break mcpInline; }
      }
      if (!confirmResult) return { content: [{ type: 'text', text: 'kept' }] };
      notes.delete(id);
      return { content: [{ type: 'text', text: `deleted ${id}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('summarize_note', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  type SummarizeNoteStep = { step: 'awaiting-reply'; summarizeResult: string };
  const call = resumeCall<SummarizeNoteStep>(ctx, 'summarize_note', { id });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let summarizeResult!: string;
      mcpInline2: {
        const mcpText: string = notes.get(id) ?? '';
        return call.suspend({ step: 'awaiting-reply', summarizeResult }, {
          reply: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${mcpText}` } }],
            maxTokens: 60,
          }),
        });
      }
    }
    if (resumed.step === 'awaiting-reply') {
      let summarizeResult = resumed.summarizeResult;
      mcpInline2: {
        const reply = samplingResult(ctx, 'reply');
        { summarizeResult = reply.content.type === 'text' ? reply.content.text : '(no summary)'; break mcpInline2; }
      }
      return { content: [{ type: 'text', text: `${id}: ` + summarizeResult }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('purge_notes', { inputSchema: z.object({ force: z.boolean() }) }, async ({ force }, ctx) => {
  type PurgeNotesStep = { step: 'awaiting-answer'; go: boolean; confirmResult2: boolean };
  const call = resumeCall<PurgeNotesStep>(ctx, 'purge_notes', { force });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let go!: boolean;
      if (force) {
        let confirmResult2!: boolean;
        mcpInline3: {
          const mcpMessage2: string = 'Purge every note?';
          return call.suspend({ step: 'awaiting-answer', go, confirmResult2 }, {
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
    if (resumed.step === 'awaiting-answer') {
      let go = resumed.go;
      {
        let confirmResult2 = resumed.confirmResult2;
        mcpInline3: {
          const answer = elicitResult(ctx, 'answer', okSchema);
          { confirmResult2 = answer.action === 'accept' && answer.content?.ok === true; break mcpInline3; }
        }
        go = confirmResult2;
      }
      if (go) notes.clear();
      return { content: [{ type: 'text', text: go ? 'purged' : 'kept' }] };
    }
    throw call.unknownStep(resumed);
  });
});
