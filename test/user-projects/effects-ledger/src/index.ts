#!/usr/bin/env node
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { confirm } from './confirm.js';
import { audit, tally } from './effects.js';
import { TrackerClient } from './tracker.js';

const tracker = new TrackerClient(process.env.TRACKER_URL ?? 'https://tracker.example.com/api', process.env.TRACKER_TOKEN ?? 'tok-demo');
/** Plans made since start, and the labels stamped, by reference. */
let plansMade = 0;
const stamps = new Map<string, string>();

const server = new McpServer({ name: 'project-desk', version: '0.3.1' });

server.registerTool(
  'create_project',
  { description: 'Create a project, then publish it if the user agrees', inputSchema: { name: z.string() } },
  async ({ name }) => {
    const project = await tracker.createProject(name);
    const publish = await confirm(server, `Publish ${project.name} now?`);
    if (publish) await tracker.publish(project.id);
    audit(`create_project ${name} published=${publish}`);
    return { content: [{ type: 'text', text: `${project.name} ${publish ? 'published' : 'kept private'}` }] };
  },
);

server.registerTool(
  'plan_tasks',
  { description: 'Add tasks to a project, asking the priority of each', inputSchema: { project: z.string(), tasks: z.array(z.string()) } },
  async ({ project, tasks }) => {
    plansMade++;
    const lines: string[] = [];
    for (const title of tasks) {
      const { position } = await tracker.addTask(project, title);
      const answer = await server.server.elicitInput({
        message: `Priority of "${title}"?`,
        requestedSchema: { type: 'object', properties: { priority: { type: 'string', enum: ['low', 'high'] } }, required: ['priority'] },
      });
      lines.push(`${position}. ${title}: ${answer.action === 'accept' ? String(answer.content?.priority) : 'unset'}`);
    }
    return { content: [{ type: 'text', text: `plan #${plansMade}\n${lines.join('\n')}` }] };
  },
);

server.registerTool(
  'stamp',
  { description: 'Stamp a label with a reference, confirming first', inputSchema: { label: z.string() } },
  async ({ label }) => {
    const requestedAt = new Date();
    const ref = randomUUID().slice(0, 8);
    stamps.set(ref, label);
    const ok = await confirm(server, `Stamp ${label}?`);
    const waited = Date.now() - requestedAt.getTime() >= 0;
    return { content: [{ type: 'text', text: `${ok ? 'stamped' : 'not stamped'}: ${stamps.size} reference(s), in order: ${waited}` }] };
  },
);

server.registerTool(
  'delete_file',
  { description: 'Delete a file in the project, after asking', inputSchema: { path: z.string() } },
  async ({ path }) => {
    try {
      const ok = await confirm(server, `Delete ${path}?`);
      if (!ok) return { content: [{ type: 'text', text: `${path} kept` }] };
      await tracker.remove(path);
      return { content: [{ type: 'text', text: `${path} deleted` }] };
    } catch (error) {
      audit(`delete_file ${path} failed`);
      return { content: [{ type: 'text', text: `could not delete ${path}: ${error instanceof Error ? error.message : String(error)}` }] };
    } finally {
      audit(`delete_file ${path} asked`);
    }
  },
);

server.registerTool('tally', { description: 'What the server did outside itself so far' }, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ effects: tally(), plansMade, stamps: stamps.size }) }],
}));

await server.connect(new StdioServerTransport());
