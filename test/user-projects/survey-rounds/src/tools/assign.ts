import { readFile } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { assignments } from '../store.js';

interface Project {
  id: string;
  name: string;
}

const PROJECTS_FILE = new URL('../../data/projects.json', import.meta.url);

/** The projects a task can go to: read on each call, so an edit of the file needs no restart. */
async function loadProjects(): Promise<Project[]> {
  return JSON.parse(await readFile(PROJECTS_FILE, 'utf8')) as Project[];
}

export function registerAssignTool(server: McpServer): void {
  server.registerTool(
    'assign_task',
    { description: 'Assign a task to one of the projects', inputSchema: { task: z.string() } },
    async ({ task }) => {
      const projects = await loadProjects();
      const answer = await server.server.elicitInput({
        message: `Which project should "${task}" go to?`,
        requestedSchema: {
          type: 'object',
          properties: {
            project: { type: 'string', title: 'Project', oneOf: projects.map(p => ({ const: p.id, title: p.name })) },
          },
          required: ['project'],
        },
      });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: `"${task}" left unassigned (${answer.action})` }] };
      const chosen = projects.find(p => p.id === answer.content?.project);
      if (!chosen) return { content: [{ type: 'text', text: `No such project: ${String(answer.content?.project)}` }], isError: true };
      assignments.set(task, chosen.id);
      return { content: [{ type: 'text', text: `"${task}" assigned to ${chosen.name}` }] };
    },
  );
}
