import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'request-in-inline-functions', version: '1.0.0' });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// A Promise executor and a function called where it is written: the request inside each is asked where it is
// written, in the function the handler runs there and then.
server.registerTool('executor', { inputSchema: { subject: z.string() } }, async ({ subject }) => {
  const answer = await new Promise<ElicitResult>((resolve, reject) => {
    if (!subject) return reject(new Error('nothing to confirm'));
    server.server.elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema }).then(resolve, reject);
  });
  return { content: [{ type: 'text', text: answer.action }] };
});

server.registerTool('immediate', { inputSchema: { subject: z.string() } }, async ({ subject }) => {
  const action = await (async () => {
    const answer = await server.server.elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema });
    return answer.action;
  })();
  return { content: [{ type: 'text', text: action }] };
});
