import { z } from 'zod';
import { getNote } from '../store.js';
import { text, type ToolContext, type ToolDef } from './types.js';

const schema = z.object({ id: z.number().int() });

/** Asks the client's model for a one-line summary of a note. */
export class SummarizeTool implements ToolDef {
  readonly name = 'summarize_note';
  readonly description = 'Summarize a note with the client model';
  readonly schema = schema;

  async invoke({ id }: z.infer<typeof schema>, ctx: ToolContext) {
    const note = getNote(id);
    if (!note) return text(`No note ${id}.`);
    const reply = await ctx.server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize in one line: ${note.body}` } }],
      maxTokens: 120,
    });
    return text(reply.content.type === 'text' ? reply.content.text : 'The model answered without text.');
  }
}

/** Counts the words of a note; needs nothing from the client. */
export class WordCountTool implements ToolDef {
  readonly name = 'count_words';
  readonly description = 'Count the words of a note';
  readonly schema = schema;

  async invoke({ id }: z.infer<typeof schema>) {
    const note = getNote(id);
    return text(note ? String(note.body.split(/\s+/).filter(Boolean).length) : `No note ${id}.`);
  }
}
