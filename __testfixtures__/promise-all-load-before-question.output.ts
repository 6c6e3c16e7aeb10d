import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'promise-all-load-before-request', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function loadRecord(id: string): Promise<string> {
  return `record ${id}`;
}

// The Promise.all starts the load before the question is built: awaited where the round suspends, after the
// question, it would run after the question's arguments. The request is left as it is, and marked.
resumable(server).registerTool('review', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  const [record, answer] = await Promise.all([loadRecord(id), ask(server.server, 'answer').elicitInput({ message: `Review ${id}?`, requestedSchema: confirmSchema })]);
  return { content: [{ type: 'text', text: `${answer.action}: ${record}` }] };
});
