import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'promise-all-other-element', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function loadRecord(id: string): Promise<string> {
  return `record ${id}`;
}

// The Promise.all awaits a load beside the question: a round sends only requests, so the load is awaited where
// the round suspends, after the question is built (as the Promise.all evaluated it), and its value is carried.
server.registerTool('review', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const [answer, record] = await Promise.all([server.server.elicitInput({ message: `Review ${id}?`, requestedSchema: confirmSchema }), loadRecord(id)]);
  return { content: [{ type: 'text', text: `${answer.action}: ${record}` }] };
});
