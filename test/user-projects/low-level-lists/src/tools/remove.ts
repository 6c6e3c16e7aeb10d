import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { findEntry, removeEntry } from '../state.js';
import { requireString, type ToolDef } from './types.js';

async function confirmRemoval(server: Server, title: string): Promise<string | undefined> {
  const answer = await server.elicitInput({
    message: `Remove "${title}" from the reading list?`,
    requestedSchema: {
      type: 'object',
      properties: {
        confirm: { type: 'boolean', title: 'Remove it' },
        note: { type: 'string', title: 'Why (optional)' },
      },
      required: ['confirm'],
    },
  });
  if (answer.action !== 'accept') return undefined;
  if (answer.content?.confirm !== true) return undefined;
  return typeof answer.content?.note === 'string' ? answer.content.note : '';
}

export const removeTool: ToolDef = {
  name: 'remove',
  description: 'Removes an entry from the reading list, after asking',
  inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  async run(args, server) {
    const title = requireString(args, 'title');
    const entry = findEntry(title);
    if (!entry) return `"${title}" is not on the list.`;
    const note = await confirmRemoval(server, entry.title);
    if (note === undefined) return `Kept "${entry.title}".`;
    removeEntry(entry);
    return note ? `Removed "${entry.title}" (${note}).` : `Removed "${entry.title}".`;
  },
};
