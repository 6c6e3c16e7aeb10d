import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

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
    const answer = await ask(server.server, 'answer').elicitInput({
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

resumable(server).registerTool('plan', { description: 'Plans a trip', inputSchema: z.object({ city: z.string() }) }, async ({ city }) => {
  await journaled(() => ensureAuthValidated(city));
  const chosen = await intent.execute(city);
  return { content: [{ type: 'text', text: `${city}: ${chosen}` }] };
});

server.registerTool('list', { description: 'Lists the trips' }, async () => {
  await ensureAuthValidated('list');
  return { content: [{ type: 'text', text: 'no trips' }] };
});

server.registerTool('tally', { description: 'How many checks ran' }, async () => ({ content: [{ type: 'text', text: String((auth as AuthCheck).checks) }] }));
