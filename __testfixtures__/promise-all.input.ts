import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('context', { inputSchema: { q: z.string() } }, async ({ q }) => {
  const started = q.trim();
  const [rootsResult, sample] = await Promise.all([
    server.server.listRoots(),
    server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: started } }], maxTokens: 10 }),
  ]);
  const first = await server.server.elicitInput({ message: 'First name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
  const second = await server.server.elicitInput({ message: 'Last name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
  return {
    content: [{ type: 'text', text: `${rootsResult.roots.length} ${sample.model} ${first.action} ${second.action}` }],
  };
});
