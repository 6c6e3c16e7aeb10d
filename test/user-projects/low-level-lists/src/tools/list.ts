import { allEntries } from '../state.js';
import type { ToolDef } from './types.js';

export const listTool: ToolDef = {
  name: 'list',
  description: 'Shows the reading list, oldest first',
  inputSchema: { type: 'object', properties: {} },
  async run() {
    const entries = allEntries();
    if (entries.length === 0) return 'The reading list is empty.';
    return entries.map((e, i) => `${i + 1}. ${e.title}${e.url ? ` <${e.url}>` : ''}`).join('\n');
  },
};
