import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const server = new McpServer({ name: 'promise-all-load-before-request', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function loadRecord(id: string): Promise<string> {
  return `record ${id}`;
}

// The Promise.all starts the load before the question is built: awaited where the round suspends, after the
// question, it would run after the question's arguments. The request is left as it is, and marked.
server.registerTool('review', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  // mcp-migrate: tools/call review this elicitation request is left as it is (2025-era clients only): the Promise.all also awaits loadRecord(id), before a request: the rewritten round would run it after the request's arguments; list the requests first, or await it in a statement of its own
  const [record, answer] = await Promise.all([loadRecord(id), server.server.elicitInput({ message: `Review ${id}?`, requestedSchema: confirmSchema })]);
  return { content: [{ type: 'text', text: `${answer.action}: ${record}` }] };
});
