import { z } from 'zod';
import { getNote, removeNote } from '../store.js';
import { text, type ToolDef } from './types.js';

const schema = z.object({ id: z.number().int() });

export const deleteTool: ToolDef = {
  name: 'delete_note',
  description: 'Delete a note, after the user confirms',
  schema,
  invoke: async ({ id }: z.infer<typeof schema>, ctx) => {
    const note = getNote(id);
    if (!note) return text(`No note ${id}.`);
    const answer = await ctx.server.server.elicitInput({
      message: `Delete "${note.title}"?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Delete it' } },
        required: ['confirm'],
      },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return text(`Kept "${note.title}".`);
    removeNote(id);
    return text(`Deleted "${note.title}".`);
  },
};
