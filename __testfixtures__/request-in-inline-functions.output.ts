import { McpServer } from '@modelcontextprotocol/server';
import type { ElicitResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'request-in-inline-functions', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

// A Promise executor and a function called where it is written: the request inside each is asked where it is
// written, in the function the handler runs there and then.
resumable(server).registerTool('executor', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  const answer = await new Promise<ElicitResult>((resolve, reject) => {
    if (!subject) return reject(new Error('nothing to confirm'));
    ask(server.server).elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema }).then(resolve, reject);
  });
  return { content: [{ type: 'text', text: answer.action }] };
});

resumable(server).registerTool('immediate', { inputSchema: z.object({ subject: z.string() }) }, async ({ subject }) => {
  const action = await (async () => {
    const answer = await ask(server.server, 'answer').elicitInput({ message: `Confirm ${subject}?`, requestedSchema: confirmSchema });
    return answer.action;
  })();
  return { content: [{ type: 'text', text: action }] };
});
