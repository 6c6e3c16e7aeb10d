import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'let-assigned-after-await', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// `text` is declared before the question and first assigned after it, in the try or in the catch: the
// catch starts with rethrowIfSuspended(), so the end of a round is not taken for a failed question.
server.registerTool('confirm', { inputSchema: { subject: z.string() } }, async ({ subject }) => {
  let text: string;
  try {
    const answer = await server.server.elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema });
    text = answer.action === 'accept' && answer.content?.ok === true ? 'confirmed' : answer.action;
  } catch (err) {
    text = `failed: ${(err as Error).message}`;
  }
  return { content: [{ type: 'text', text }] };
});
