import { z } from 'zod';
import { server } from '@/server';
import { store } from '@/lib/store';

server.tool(
  'add_note',
  'Adds a note',
  { text: z.string().min(1), tags: z.array(z.string()).default([]) },
  async ({ text, tags }) => {
    const note = store.add(text, tags);
    return { content: [{ type: 'text', text: `added #${note.id}` }] };
  },
);

server.tool('list_notes', 'Lists the notes, by tag', { tag: z.string().optional() }, async ({ tag }) => ({
  content: [{ type: 'text', text: store.list(tag).map(n => `#${n.id} ${n.text}`).join('\n') || 'no notes' }],
}));
