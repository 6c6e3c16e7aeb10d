import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// Steps many classes implement: a call through the interface could run any of them.
interface Step {
  execute(input: string): Promise<string>;
}

class AuthCheck implements Step {
  checks = 0;
  async execute(input: string): Promise<string> {
    this.checks++;
    return `ok ${input}`;
  }
}

class IntentStep implements Step {
  async execute(input: string): Promise<string> {
    const answer = await server.server.elicitInput({
      message: `Intent for ${input}?`,
      requestedSchema: { type: 'object', properties: { intent: { type: 'string' } }, required: ['intent'] },
    });
    return answer.action === 'accept' ? String(answer.content?.intent) : 'none';
  }
}

// Typed as the interface, made as one class: its execute() only counts, it never asks.
const auth: Step = new AuthCheck();
const intent: Step = new IntentStep();

async function ensureAuthValidated(input: string): Promise<void> {
  await auth.execute(input);
}

server.registerTool('plan', { description: 'Plans a trip', inputSchema: { city: z.string() } }, async ({ city }) => {
  await ensureAuthValidated(city);
  const chosen = await intent.execute(city);
  return { content: [{ type: 'text', text: `${city}: ${chosen}` }] };
});

server.registerTool('list', { description: 'Lists the trips' }, async () => {
  await ensureAuthValidated('list');
  return { content: [{ type: 'text', text: 'no trips' }] };
});

server.registerTool('tally', { description: 'How many checks ran' }, async () => ({ content: [{ type: 'text', text: String((auth as AuthCheck).checks) }] }));
