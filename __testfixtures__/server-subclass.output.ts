import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

/** The server is a subclass of McpServer that registers its own tools: `this` is the server. */
class NotesServer extends McpServer {
  private readonly notes = new Map<string, string>([['todo', 'write the migration']]);

  constructor() {
    super({ name: 'notes', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
    resumable(this).registerTool('delete-note', { inputSchema: z.object({ title: z.string() }) }, async ({ title }) => {
      const answer = await ask(this.server, 'answer').elicitInput({
        message: `Delete "${title}"?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: `Kept "${title}" (${answer.action})` }] };
      }
      const existed = this.notes.delete(title);
      return { content: [{ type: 'text', text: existed ? `Deleted "${title}"` : `No note "${title}"` }] };
    });
  }
}

export const server = new NotesServer();
