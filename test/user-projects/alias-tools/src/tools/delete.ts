import { z } from 'zod';
import { server } from '@/server';
import { store } from '@/lib/store';

server.tool('delete_note', 'Deletes a note, after asking', { id: z.number().int() }, async ({ id }) => {
  const note = store.get(id);
  if (!note) return { content: [{ type: 'text', text: `no note #${id}` }], isError: true };
  const answer = await server.server.elicitInput({
    message: `Delete "${note.text}"?`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Delete it' } }, required: ['confirm'] },
  });
  if (answer.action !== 'accept' || !answer.content?.confirm) return { content: [{ type: 'text', text: 'kept' }] };
  store.remove(id);
  return { content: [{ type: 'text', text: `deleted #${id}` }] };
});
