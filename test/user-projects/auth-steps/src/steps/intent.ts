import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Step } from './step.js';

/** Asks the user what they want to do with a city. */
export class IntentStep implements Step {
  constructor(private readonly server: McpServer) {}

  async execute(city: string): Promise<string> {
    const answer = await this.server.server.elicitInput({
      message: `What do you want to do in ${city}?`,
      requestedSchema: { type: 'object', properties: { intent: { type: 'string' } }, required: ['intent'] },
    });
    return answer.action === 'accept' ? String(answer.content?.intent) : 'nothing';
  }
}
