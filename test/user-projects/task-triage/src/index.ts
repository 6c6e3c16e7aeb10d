#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { TaskStore } from './store.js';

const store = new TaskStore();
const server = new McpServer({ name: 'task-triage', version: '1.0.0' });

server.registerTool('triage', { description: 'Raises one open task', inputSchema: { team: z.string() } }, async ({ team }) => {
  const open = await store.open();
  if (open.length === 0) return { content: [{ type: 'text', text: 'nothing open' }] };
  const answer = await server.server.elicitInput({
    message: `Which task of ${team} should be raised?`,
    requestedSchema: { type: 'object', properties: { id: { type: 'string', enum: open.map(t => t.id) } }, required: ['id'] },
  });
  const task = open.find(t => t.id === answer.content?.id);
  if (answer.action !== 'accept' || !task) return { content: [{ type: 'text', text: 'nothing raised' }] };
  task.priority = 'high';
  return { content: [{ type: 'text', text: `${task.title} -> high` }] };
});

server.registerTool('tasks', { description: 'Lists the tasks' }, async () => ({
  content: [{ type: 'text', text: store.all().map(t => `${t.id}:${t.priority}`).join(', ') }],
}));

await server.connect(new StdioServerTransport());
