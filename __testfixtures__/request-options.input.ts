import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'request-options', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's options (a timeout, the call's abort signal) stay where they are written: a 2025-era client's
// request still gets them; a 2026-07-28 client gets the question in the round's result and answers it on a
// retry, so there is no request for the timeout to time.
server.registerTool('confirm', { inputSchema: { subject: z.string() } }, async ({ subject }, extra) => {
  const answer = await server.server.elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema }, { timeout: 30_000, signal: extra.signal });
  return { content: [{ type: 'text', text: answer.action }] };
});
