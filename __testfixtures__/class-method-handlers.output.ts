import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

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
    const call = resumeCall(ctx, 'delete-note', { title });
    return call.run(async resumed => {
      if (resumed.phase === 0) {
        return call.suspend(1, {}, {
          answer: inputRequired.elicit({
            message: `Delete "${title}"?`,
            requestedSchema: deleteNoteSchema,
          }),
        });
      }
      if (resumed.phase === 1) {
        const answer = elicitResult(ctx, 'answer', deleteNoteSchema);
        if (answer.action !== 'accept' || answer.content?.confirm !== true) {
          return { content: [{ type: 'text' as const, text: `Kept "${title}" (${answer.action})` }] };
        }
        return { content: [{ type: 'text' as const, text: this.notes.delete(title) ? `Deleted "${title}"` : `No note "${title}"` }] };
      }
      throw call.unknownPhase(resumed);
    });
  }

  summarizeNote = async ({ title }: { title: string }, ctx: ServerContext) => {
    const call = resumeCall(ctx, 'summarize-note', { title });
    return call.run(async resumed => {
      if (resumed.phase === 0) {
        const body = this.notes.get(title) ?? '';
        return call.suspend(1, {}, {
          reply: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${body}` } }],
            maxTokens: 60,
          }),
        });
      }
      if (resumed.phase === 1) {
        const reply = samplingResult(ctx, 'reply');
        return { content: [{ type: 'text' as const, text: reply.content.type === 'text' ? reply.content.text : '' }] };
      }
      throw call.unknownPhase(resumed);
    });
  };
}

export const server = new McpServer({ name: 'notes', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new NoteTools(server);
