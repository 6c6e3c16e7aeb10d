import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// Handlers whose expression body awaits a helper: the same as a block body that returns the awaited call.

async function confirmDelete(server: McpServer, path: string): Promise<CallToolResult> {
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Delete ${path}?`,
    requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
  });
  if (answer.action !== 'accept' || !answer.content?.sure) return { content: [{ type: 'text', text: `kept ${path}` }] };
  return { content: [{ type: 'text', text: `deleted ${path}` }] };
}

class Summaries {
  constructor(private readonly server: McpServer) {}

  register(): void {
    resumable(this.server).registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => await this.summarize(text.trim()));
  }

  private async summarize(text: string): Promise<CallToolResult> {
    const reply = await ask(this.server.server, 'reply').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '(no summary)' }] };
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
resumable(server).registerTool('delete', { inputSchema: z.object({ path: z.string() }) }, async ({ path }) => await confirmDelete(server, path));
new Summaries(server).register();
