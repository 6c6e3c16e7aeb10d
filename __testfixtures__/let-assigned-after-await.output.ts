import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'let-assigned-after-await', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// `text` is declared before the question and first assigned after it, in the try or in the catch: the
// catch starts with rethrowIfSuspended(), so the end of a round is not taken for a failed question.
resumable(server).registerTool('confirm', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  let text: string;
  try {
    const answer = await ask(server.server, 'answer').elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema });
    text = answer.action === 'accept' && answer.content?.ok === true ? 'confirmed' : answer.action;
  } catch (err) {
    rethrowIfSuspended();
    text = `failed: ${(err as Error).message}`;
  }
  return { content: [{ type: 'text', text }] };
});
