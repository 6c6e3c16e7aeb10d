import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('context', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
  const started = q.trim();
  const [rootsResult, sample] = await Promise.all([
    ask(server.server, 'rootsResult').listRoots(),
    ask(server.server, 'sample').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: started } }], maxTokens: 10 }),
  ]);
  const first = await ask(server.server, 'first').elicitInput({ message: 'First name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
  const second = await ask(server.server, 'second').elicitInput({ message: 'Last name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
  return {
    content: [{ type: 'text', text: `${rootsResult.roots.length} ${sample.model} ${first.action} ${second.action}` }],
  };
});
