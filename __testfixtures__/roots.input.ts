import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('workspace', { description: 'Lists the workspace roots' }, async () => {
  const { roots } = await server.server.listRoots();
  return { content: [{ type: 'text', text: roots.map(r => r.uri).join('\n') }] };
});
