import { currentUserAgent } from '../lifecycle.js';
import type { ToolDef } from './types.js';

export const whoamiTool: ToolDef = {
  name: 'whoami',
  description: 'Reports which client this server is talking to',
  inputSchema: { type: 'object', properties: {} },
  async run() {
    return `Connected client: ${currentUserAgent()}`;
  },
};
