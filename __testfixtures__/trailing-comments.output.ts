import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

async function confirm(question: string): Promise<boolean> {
  try {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: question,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return answer.action === 'accept' && answer.content?.ok === true; // only an explicit yes
  } catch {
    rethrowIfSuspended();
    return false; /* a client that cannot ask: never consent */
  }
}

resumable(server).registerTool('wipe', { inputSchema: z.object({ path: z.string() }) }, async ({ path }) => {
  const started = journaled(() => Date.now()); // timed from the first round
  const ok = await confirm(`Wipe ${path}?`); // asks once per path
  if (!ok) return { content: [{ type: 'text', text: 'Kept.' }] }; // declined or cancelled
  const tookMs = Math.max(0, Date.now() - started); // never negative
  return { content: [{ type: 'text', text: `Wiped ${path} after ${tookMs >= 0 ? 'a' : 'no'} question` }] };
});
