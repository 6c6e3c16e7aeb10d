import { McpServer } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('workspace', { description: 'Lists the workspace roots' }, async () => {
  const { roots } = await ask(server.server).listRoots();
  return { content: [{ type: 'text', text: roots.map(r => r.uri).join('\n') }] };
});
