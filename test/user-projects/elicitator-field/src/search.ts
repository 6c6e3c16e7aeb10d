import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { IntentElicitator } from './elicitator.js';

const catalog = ['red kettle', 'blue kettle', 'toaster', 'kettle descaler'];

export class SearchService {
  private readonly elicitator: IntentElicitator;

  constructor(private readonly server: McpServer) {
    this.elicitator = new IntentElicitator(server);
  }

  register(): void {
    this.server.registerTool('search', { description: 'Search the shop', inputSchema: { query: z.string() } }, async ({ query }) => {
      const hits = catalog.filter(item => item.includes(query));
      const intent = await this.elicitator.elicitIntent(query);
      switch (intent) {
        case 'buy':
          return { content: [{ type: 'text', text: `Added ${hits[0] ?? 'nothing'} to the basket.` }] };
        case 'compare':
          return { content: [{ type: 'text', text: `Comparing: ${hits.join(' vs ')}` }] };
        case 'browse':
          return { content: [{ type: 'text', text: hits.join('\n') }] };
        default:
          return { content: [{ type: 'text', text: `${hits.length} results, nothing chosen.` }] };
      }
    });
  }
}
