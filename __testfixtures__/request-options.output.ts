import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-options', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// The request's options (a timeout, the call's abort signal) stay where they are written: a 2025-era client's
// request still gets them; a 2026-07-28 client gets the question in the round's result and answers it on a
// retry, so there is no request for the timeout to time.
resumable(server).registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }, ctx) => {
  const answer = await ask(server.server, 'answer').elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema }, { timeout: 30_000, signal: ctx.mcpReq.signal });
  return { content: [{ type: 'text', text: answer.action }] };
});
