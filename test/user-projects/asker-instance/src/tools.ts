import { z } from 'zod';
import { server } from './server.js';
import { Asker } from './asker.js';
import { workspaceRoots } from './workspace.js';

const asker = new Asker(server);
const cards: string[] = [];

server.registerTool(
  'greeting_card',
  {
    description: 'Write a greeting card, asking who it is for',
    inputSchema: { occasion: z.string().describe('birthday, wedding, ...') },
  },
  async ({ occasion }) => {
    const name = await asker.askName('anonymous');
    if (!(await asker.confirm(`Write a ${occasion} card for ${name}?`))) {
      return { content: [{ type: 'text', text: 'Nothing written.' }] };
    }
    cards.push(`${occasion} for ${name}`);
    return { content: [{ type: 'text', text: `Card written: ${occasion} for ${name} (${cards.length} in all).` }] };
  },
);

server.registerTool('cards', { description: 'List the cards written so far' }, async () => ({
  content: [{ type: 'text', text: cards.length ? cards.join('; ') : 'No cards yet.' }],
}));

server.registerTool('where', { description: 'Where the cards are saved' }, async (extra) => {
  const roots = await workspaceRoots(server, extra.sessionId);
  return { content: [{ type: 'text', text: roots.length ? `Saving under ${roots[0]}` : 'No workspace root.' }] };
});
