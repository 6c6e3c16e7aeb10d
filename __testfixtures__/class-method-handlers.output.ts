import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

/** Tools as members of a class, registered by reference: a bound method and an arrow-function field. */
class NoteTools {
  private readonly notes = new Map<string, string>([['todo', 'write the migration; review it; ship it']]);

  constructor(private readonly mcp: McpServer) {
    resumable(mcp).registerTool('delete-note', { inputSchema: z.object({ title: z.string() }) }, this.deleteNote.bind(this));
    resumable(mcp).registerTool('summarize-note', { inputSchema: z.object({ title: z.string() }) }, this.summarizeNote);
  }

  async deleteNote({ title }: { title: string }) {
    const answer = await ask(this.mcp.server, 'answer').elicitInput({
      message: `Delete "${title}"?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) {
      return { content: [{ type: 'text' as const, text: `Kept "${title}" (${answer.action})` }] };
    }
    return { content: [{ type: 'text' as const, text: this.notes.delete(title) ? `Deleted "${title}"` : `No note "${title}"` }] };
  }

  summarizeNote = async ({ title }: { title: string }) => {
    const body = this.notes.get(title) ?? '';
    const reply = await ask(this.mcp.server, 'reply').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${body}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text' as const, text: reply.content.type === 'text' ? reply.content.text : '' }] };
  };
}

export const server = new McpServer({ name: 'notes', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new NoteTools(server);
