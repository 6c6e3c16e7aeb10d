import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** The read-only side: the readme resource and the summary prompt. */
export function registerDocs(server: Pick<McpServer, 'resource' | 'prompt'>): void {
  server.resource('readme', 'notes://readme', async uri => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Notes desk: add notes, divide numbers, delete with confirmation.' }],
  }));

  server.prompt('summarize', 'Summarize the notes on a topic', { topic: z.string() }, ({ topic }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize my notes about ${topic}.` } }],
  }));
}
