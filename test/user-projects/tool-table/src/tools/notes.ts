import { z } from 'zod';
import { addNote, listNotes } from '../store.js';
import { text, type ToolDef } from './types.js';

const listSchema = z.object({});
const addSchema = z.object({ title: z.string().min(1), body: z.string() });

export const listTool: ToolDef = {
  name: 'list_notes',
  description: 'List every note',
  schema: listSchema,
  invoke: async () => text(listNotes().map(n => `${n.id}: ${n.title}`).join('\n') || 'No notes.'),
};

export const addTool: ToolDef = {
  name: 'add_note',
  description: 'Add a note',
  schema: addSchema,
  invoke: async ({ title, body }: z.infer<typeof addSchema>) => {
    const note = addNote(title.trim(), body);
    return text(`Added note ${note.id}.`);
  },
};
