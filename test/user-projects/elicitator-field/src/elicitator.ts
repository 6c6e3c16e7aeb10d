import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export type Intent = 'buy' | 'compare' | 'browse';

/** Wraps the questions this server asks, so the search code reads as business logic. */
export class IntentElicitator {
  constructor(private readonly server: McpServer) {}

  async elicitIntent(query: string): Promise<Intent | undefined> {
    const result = await this.server.server.elicitInput({
      message: `What would you like to do with "${query}"?`,
      requestedSchema: {
        type: 'object',
        properties: { intent: { type: 'string', enum: ['buy', 'compare', 'browse'] } },
        required: ['intent'],
      },
    });
    if (result.action !== 'accept') return undefined;
    return result.content?.intent as Intent;
  }
}
