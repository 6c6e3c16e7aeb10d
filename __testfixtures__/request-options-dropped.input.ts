import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'request-options-dropped', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's options (a timeout, the call's abort signal) have no place in its inputRequired entry: the report says they go.
server.registerTool('confirm', { inputSchema: { subject: z.string() } }, async ({ subject }, extra) => {
  const answer = await server.server.elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema }, { timeout: 30_000, signal: extra.signal });
  return { content: [{ type: 'text', text: answer.action }] };
});
