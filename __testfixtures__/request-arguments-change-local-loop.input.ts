import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'request-arguments-change-local-loop', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// Each question's message increments `asked`, carried from round to round. The request is asked again by the
// resuming phase, so it is printed in two phases, each time where it is asked (a builder would increment its own copy).
server.registerTool('confirm-all', { inputSchema: { items: z.array(z.string()) } }, async ({ items }) => {
  let asked = 0;
  const accepted: string[] = [];
  for (const item of items) {
    const answer = await server.server.elicitInput({ message: `${item}: question ${++asked}`, requestedSchema: confirmSchema });
    if (answer.action === 'accept') accepted.push(item);
  }
  return { content: [{ type: 'text', text: `${accepted.join(', ')} after ${asked} question(s)` }] };
});
