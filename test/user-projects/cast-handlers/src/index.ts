#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const PROMPTS: Record<string, string> = { greet: 'Say hello to {who}.', thank: 'Thank {who} for their help.' };

const server = new McpServer({ name: 'prompt-desk', version: '1.0.0' }, { capabilities: { prompts: {} } });

server.registerTool('rename', { description: 'Rename a prompt after confirming', inputSchema: { name: z.string() } }, async ({ name }) => {
  const answer = await server.server.elicitInput({
    message: `Rename "${name}"?`,
    requestedSchema: { type: 'object', properties: { to: { type: 'string', title: 'New name' } }, required: ['to'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: `Kept "${name}" (${answer.action}).` }] };
  return { content: [{ type: 'text', text: `Renamed "${name}" to "${String(answer.content?.to)}".` }] };
});

// The prompt handlers are registered low-level, through a cast: McpServer's own prompts/list would clash with them.
(server.server.setRequestHandler as any)(ListPromptsRequestSchema, async () => ({
  prompts: Object.keys(PROMPTS).map(name => ({ name, arguments: [{ name: 'who', required: true }] })),
}));
(server.server.setRequestHandler as any)(GetPromptRequestSchema, async (request: { params: { name: string; arguments?: Record<string, string> } }) => {
  const template = PROMPTS[request.params.name];
  if (!template) throw new Error(`no prompt ${request.params.name}`);
  const text = template.replace('{who}', request.params.arguments?.who ?? 'everyone');
  return { messages: [{ role: 'user', content: { type: 'text', text } }] };
});

await server.connect(new StdioServerTransport());
