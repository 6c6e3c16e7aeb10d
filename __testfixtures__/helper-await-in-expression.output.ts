import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

// Helpers the handlers await inside expressions: each call is hoisted into a statement of its own
// (in the order the expression evaluated it), then inlined and migrated.

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const notes = new Map<string, string>([['a', 'Leeds to York by the coast']]);

const okSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.registerTool('delete_note', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type DeleteNoteStep = { step: 'awaiting-answer' };
  const call = resumeCall<DeleteNoteStep>(ctx, 'delete_note', { id });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `Delete note ${id}?`,
          requestedSchema: okSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', okSchema);
      const confirmResult: boolean = answer.action === 'accept' && answer.content?.ok === true;
      if (!confirmResult) return { content: [{ type: 'text', text: 'kept' }] };
      notes.delete(id);
      return { content: [{ type: 'text', text: `deleted ${id}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('summarize_note', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  type SummarizeNoteStep = { step: 'awaiting-reply' };
  const call = resumeCall<SummarizeNoteStep>(ctx, 'summarize_note', { id });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const mcpText: string = notes.get(id) ?? '';
      return call.suspend({ step: 'awaiting-reply' }, {
        reply: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${mcpText}` } }],
          maxTokens: 60,
        }),
      });
    }
    if (resumed.step === 'awaiting-reply') {
      const reply = samplingResult(ctx, 'reply');
      const summarizeResult: string = reply.content.type === 'text' ? reply.content.text : '(no summary)';
      return { content: [{ type: 'text', text: `${id}: ` + summarizeResult }] };
    }
    throw call.unknownStep(resumed);
  });
});

server.registerTool('purge_notes', { inputSchema: z.object({ force: z.boolean() }) }, async ({ force }, ctx) => {
  type PurgeNotesStep = { step: 'awaiting-answer' };
  const call = resumeCall<PurgeNotesStep>(ctx, 'purge_notes', { force });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let go!: boolean;
      if (force) {
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: 'Purge every note?',
            requestedSchema: okSchema,
          }),
        });
      } else {
        go = force;
      }
      if (go) notes.clear();
      return { content: [{ type: 'text', text: go ? 'purged' : 'kept' }] };
    }
    if (resumed.step === 'awaiting-answer') {
      let go: boolean;
      {
        const answer = elicitResult(ctx, 'answer', okSchema);
        const confirmResult2: boolean = answer.action === 'accept' && answer.content?.ok === true;
        go = confirmResult2;
      }
      if (go) notes.clear();
      return { content: [{ type: 'text', text: go ? 'purged' : 'kept' }] };
    }
    throw call.unknownStep(resumed);
  });
});
