import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const deleteNoteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** The server is a subclass of McpServer that registers its own tools: `this` is the server. */
class NotesServer extends McpServer {
  private readonly notes = new Map<string, string>([['todo', 'write the migration']]);

  constructor() {
    super({ name: 'notes', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
    this.registerTool('delete-note', { inputSchema: z.object({ title: z.string() }) }, async ({ title }, ctx) => {
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
            return { content: [{ type: 'text', text: `Kept "${title}" (${answer.action})` }] };
          }
          const existed = this.notes.delete(title);
          return { content: [{ type: 'text', text: existed ? `Deleted "${title}"` : `No note "${title}"` }] };
        }
        throw call.unknownStep(resumed);
      });
    });
  }
}

export const server = new NotesServer();
