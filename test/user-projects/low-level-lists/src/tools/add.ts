import { addEntry, findEntry } from '../state.js';
import { requireString, type ToolDef } from './types.js';

export const addTool: ToolDef = {
  name: 'add',
  description: 'Adds a book or article to the reading list',
  inputSchema: {
    type: 'object',
    properties: { title: { type: 'string' }, url: { type: 'string', format: 'uri' } },
    required: ['title'],
  },
  async run(args) {
    const title = requireString(args, 'title');
    if (findEntry(title)) return `"${title}" is already on the list.`;
    const url = typeof args.url === 'string' ? args.url : undefined;
    const entry = addEntry(title, url);
    return `Added "${entry.title}" (#${entry.addedAt}).`;
  },
};
