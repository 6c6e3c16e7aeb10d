import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });

/** Declared beside its registration and passed by name. */
async function summarize({ text }: { text: string }) {
  const result = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
    maxTokens: 60,
  });
  const summary = result.content.type === 'text' ? result.content.text : '';
  return { content: [{ type: 'text' as const, text: `${text.length} chars: ${summary}` }] };
}

server.registerTool('summarize', { description: 'Summarizes a text', inputSchema: { text: z.string() } }, summarize);

const confirmDelete = async ({ file }: { file: string }) => {
  const answer = await server.server.elicitInput({
    message: `Delete ${file}?`,
    requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
  });
  if (answer.action !== 'accept' || !answer.content?.sure) return { content: [{ type: 'text' as const, text: 'kept' }] };
  return { content: [{ type: 'text' as const, text: `deleted ${file}` }] };
};

server.registerTool('delete', { description: 'Deletes a file', inputSchema: { file: z.string() } }, confirmDelete);
