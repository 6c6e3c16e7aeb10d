import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'promise-all-load-before-question', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

let loads = 0;

async function loadRecord(id: string): Promise<string> {
  loads++;
  return `record ${id}`;
}

// A Promise.all that starts a load, then asks: the load runs before the question, so it is journaled, done on
// the first round and its record replayed on the retry. The loads tool counts the loads: one per call.
resumable(server).registerTool('review', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  const [record, answer] = await Promise.all([journaled(() => loadRecord(id)), ask(server.server, 'answer').elicitInput({ message: `Review ${id}?`, requestedSchema: confirmSchema })]);
  return { content: [{ type: 'text', text: `${answer.action}: ${record}` }] };
});

server.registerTool('loads', { description: 'How many records were loaded' }, async () => {
  return { content: [{ type: 'text', text: `${loads} loads` }] };
});
