#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { find, sizeOf, walk, type TreeNode } from './tree.js';

const project: TreeNode = {
  name: 'app',
  children: [
    { name: 'src', children: [{ name: 'index.ts', size: 120 }, { name: 'util.ts', size: 80 }] },
    { name: 'README.md', size: 40 },
  ],
};

const server = new McpServer({ name: 'tree-tools', version: '1.0.0' });

server.registerTool('list_paths', { description: 'Every path in the project', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: walk(project).join('\n') }],
}));

server.registerTool('total_size', { description: 'Total size of a folder', inputSchema: { folder: z.string() } }, async ({ folder }) => {
  const node = find(project, folder);
  if (!node) return { content: [{ type: 'text', text: `no ${folder}` }], isError: true };
  return { content: [{ type: 'text', text: `${folder}: ${sizeOf(node)} bytes` }] };
});

server.registerTool(
  'describe_folder',
  { description: 'Describe a folder with the client model', inputSchema: { folder: z.string() } },
  async ({ folder }) => {
    const node = find(project, folder);
    if (!node) return { content: [{ type: 'text', text: `no ${folder}` }], isError: true };
    const paths = walk(node);
    const reply = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Describe:\n${paths.join('\n')}` } }],
      maxTokens: 100,
    });
    const text = reply.content.type === 'text' ? reply.content.text : '';
    return { content: [{ type: 'text', text: `${folder} (${sizeOf(node)} bytes): ${text}` }] };
  },
);

await server.connect(new StdioServerTransport());
