import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'promise-all-load-after-question', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

let loads = 0;

async function loadRecord(id: string): Promise<string> {
  loads++;
  return `record ${id}`;
}

// A Promise.all that asks, then starts a load beside the question. The load is written after the question, yet
// it starts before the round can end: it is journaled, one load per call on both eras, as in
// promise-all-load-before-question, where the load is written first.
resumable(server).registerTool('review', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  const [answer, record] = await Promise.all([ask(server.server, 'answer').elicitInput({ message: `Review ${id}?`, requestedSchema: confirmSchema }), journaled(() => loadRecord(id))]);
  return { content: [{ type: 'text', text: `${answer.action}: ${record}` }] };
});

server.registerTool('loads', { description: 'How many records were loaded' }, async () => {
  return { content: [{ type: 'text', text: `${loads} loads` }] };
});
