import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, unknownPhase, verifyRequestState } from './mcp-migrate-state.js';

/** The server is a subclass of McpServer that registers its own tools: `this` is the server. */
class NotesServer extends McpServer {
  private readonly notes = new Map<string, string>([['todo', 'write the migration']]);

  constructor() {
    super({ name: 'notes', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
    this.registerTool('delete-note', { inputSchema: z.object({ title: z.string() }) }, async ({ title }, ctx) => {
      // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
      const call = resumeCall(ctx, 'delete-note', { title });
      return call.run(async resumed => {
        if (resumed.phase === 0) {
          return call.suspend(1, {}, {
            answer: inputRequired.elicit({
              message: `Delete "${title}"?`,
              requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
            }),
          });
        }
        if (resumed.phase === 1) {
          const answer = elicitResult(ctx, 'answer', { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });
          if (answer.action !== 'accept' || answer.content?.confirm !== true) {
            return { content: [{ type: 'text', text: `Kept "${title}" (${answer.action})` }] };
          }
          const existed = this.notes.delete(title);
          return { content: [{ type: 'text', text: existed ? `Deleted "${title}"` : `No note "${title}"` }] };
        }
        throw unknownPhase('delete-note', resumed);
      });
    });
  }
}

export const server = new NotesServer();
