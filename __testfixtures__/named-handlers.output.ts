import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

/** Declared beside its registration and passed by name. */
async function summarize({ text }: { text: string }) {
  const result = await ask(server.server, 'result').createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
    maxTokens: 60,
  });
  const summary = result.content.type === 'text' ? result.content.text : '';
  return { content: [{ type: 'text' as const, text: `${text.length} chars: ${summary}` }] };
}

resumable(server).registerTool('summarize', { description: 'Summarizes a text', inputSchema: z.object({ text: z.string() }) }, summarize);

const confirmDelete = async ({ file }: { file: string }) => {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Delete ${file}?`,
    requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
  });
  if (answer.action !== 'accept' || !answer.content?.sure) return { content: [{ type: 'text' as const, text: 'kept' }] };
  return { content: [{ type: 'text' as const, text: `deleted ${file}` }] };
};

resumable(server).registerTool('delete', { description: 'Deletes a file', inputSchema: z.object({ file: z.string() }) }, confirmDelete);
