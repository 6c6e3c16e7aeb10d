import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

interface Task { id: string; title: string; priority: 'low' | 'high'; labels: string[] }

// The server's own tasks: open() hands out the very objects it holds, and counts the reads.
class TaskStore {
  private tasks: Task[] = [
    { id: 't1', title: 'Write docs', priority: 'low', labels: [] },
    { id: 't2', title: 'Fix bug', priority: 'low', labels: [] },
  ];
  reads = 0;
  async open(): Promise<Task[]> {
    this.reads++;
    return this.tasks.filter(t => t.priority === 'low');
  }
}

// An API client: what it returns is a copy on every era.
class TrackerClient {
  async issue(id: string): Promise<{ id: string; labels: string[] }> {
    const response = await fetch(`https://tracker.example/issues/${id}`);
    return (await response.json()) as { id: string; labels: string[] };
  }
}

const store = new TaskStore();
const tracker = new TrackerClient();

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// The task picked is changed after the question: on a later round it is a copy, so the change is marked.
server.registerTool('triage', { description: 'Raises a task', inputSchema: { team: z.string() } }, async ({ team }) => {
  const open = await store.open();
  const answer = await server.server.elicitInput({
    message: `Which task of ${team} to raise?`,
    requestedSchema: { type: 'object', properties: { id: { type: 'string', enum: open.map(t => t.id) } }, required: ['id'] },
  });
  const task = open.find(t => t.id === answer.content?.id);
  if (!task) return { content: [{ type: 'text', text: 'nothing raised' }] };
  task.priority = 'high';
  return { content: [{ type: 'text', text: `${task.title} -> high` }] };
});

// A fetched issue changed after the question, and an array made from the tasks: copies on every era, not marked.
server.registerTool('label', { description: 'Labels an issue', inputSchema: { id: z.string() } }, async ({ id }) => {
  const issue = await tracker.issue(id);
  const titles = (await store.open()).map(t => t.title);
  const answer = await server.server.elicitInput({
    message: `Label for ${id}?`,
    requestedSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
  });
  issue.labels.push(String(answer.content?.label));
  titles.push(id);
  return { content: [{ type: 'text', text: `${issue.labels.join(', ')} (${titles.length})` }] };
});
