import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, samplingResult, verifyRequestState } from './mcp-migrate-state.js';

const deleteNoteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** Tools as members of a class, registered by reference: a bound method and an arrow-function field. */
class NoteTools {
  private readonly notes = new Map<string, string>([['todo', 'write the migration; review it; ship it']]);

  constructor(private readonly mcp: McpServer) {
    mcp.registerTool('delete-note', { inputSchema: z.object({ title: z.string() }) }, this.deleteNote.bind(this));
    mcp.registerTool('summarize-note', { inputSchema: z.object({ title: z.string() }) }, this.summarizeNote);
  }

  async deleteNote({ title }: { title: string }, ctx: ServerContext) {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type DeleteNoteStep = { step: 'awaiting-answer' };
    const call = resumeCall<DeleteNoteStep>(ctx, 'delete-note', { title });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `Delete "${title}"?`,
            requestedSchema: deleteNoteSchema,
          }),
        });
      }
      if (resumed.step === 'awaiting-answer') {
        const answer = elicitResult(ctx, 'answer', deleteNoteSchema);
        if (answer.action !== 'accept' || answer.content?.confirm !== true) {
          return { content: [{ type: 'text' as const, text: `Kept "${title}" (${answer.action})` }] };
        }
        return { content: [{ type: 'text' as const, text: this.notes.delete(title) ? `Deleted "${title}"` : `No note "${title}"` }] };
      }
      throw call.unknownStep(resumed);
    });
  }

  summarizeNote = async ({ title }: { title: string }, ctx: ServerContext) => {
    type SummarizeNoteStep = { step: 'awaiting-reply' };
    const call = resumeCall<SummarizeNoteStep>(ctx, 'summarize-note', { title });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        const body = this.notes.get(title) ?? '';
        return call.suspend({ step: 'awaiting-reply' }, {
          reply: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${body}` } }],
            maxTokens: 60,
          }),
        });
      }
      if (resumed.step === 'awaiting-reply') {
        const reply = samplingResult(ctx, 'reply');
        return { content: [{ type: 'text' as const, text: reply.content.type === 'text' ? reply.content.text : '' }] };
      }
      throw call.unknownStep(resumed);
    });
  };
}

export const server = new McpServer({ name: 'notes', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new NoteTools(server);
