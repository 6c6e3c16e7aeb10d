#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { AuthCheck } from './steps/auth.js';
import { IntentStep } from './steps/intent.js';
import type { Step } from './steps/step.js';

const server = new McpServer({ name: 'auth-steps', version: '1.0.0' });

// Both typed as the interface: a call through it could run either class's execute().
const auth: Step = new AuthCheck();
const intent: Step = new IntentStep(server);

async function ensureAuthValidated(who: string): Promise<void> {
  await auth.execute(who);
}

server.registerTool('plan', { description: 'Plans a day in a city', inputSchema: { city: z.string() } }, async ({ city }) => {
  await ensureAuthValidated(city);
  const wanted = await intent.execute(city);
  return { content: [{ type: 'text', text: `${city}: ${wanted}` }] };
});

server.registerTool('cities', { description: 'Lists the cities' }, async () => {
  await ensureAuthValidated('cities');
  return { content: [{ type: 'text', text: 'Oslo, Rome' }] };
});

server.registerTool('audit', { description: 'How many auth checks ran' }, async () => ({
  content: [{ type: 'text', text: String((auth as AuthCheck).checks) }],
}));

await server.connect(new StdioServerTransport());
