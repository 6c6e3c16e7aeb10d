import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { announcements, describeStore } from './store.js';
import { registerAssignTool } from './tools/assign.js';
import { registerChecklistTool } from './tools/checklist.js';
import { registerReportTool } from './tools/report.js';

export function createSurveyServer(): McpServer {
  const server = new McpServer({ name: 'survey-rounds', version: '0.3.1' });

  server.registerTool(
    'announce',
    {
      description: 'Send an announcement; beta announcements go to the testers, others ask who should get them',
      inputSchema: { message: z.string(), beta: z.boolean().default(false) },
    },
    async ({ message, beta }) => {
      let audience: string;
      if (beta) {
        audience = 'testers';
      } else {
        const who = await server.server.elicitInput({
          message: 'Who should get this announcement?',
          requestedSchema: {
            type: 'object',
            properties: { group: { type: 'string', title: 'Group', description: 'A team or mailing list' } },
            required: ['group'],
          },
        });
        audience = who.action === 'accept' ? String(who.content?.group) : 'everyone';
      }

      const ok = await server.server.elicitInput({
        message: `Send "${message}" to ${audience}?`,
        requestedSchema: { type: 'object', properties: { send: { type: 'boolean', title: 'Send now' } }, required: ['send'] },
      });
      const sent = ok.action === 'accept' && ok.content?.send === true;
      if (sent) announcements.push({ audience, message });
      return { content: [{ type: 'text', text: `Announcement for ${audience}: ${sent ? 'sent' : `not sent (${ok.action})`}` }] };
    },
  );

  registerChecklistTool(server);
  registerAssignTool(server);
  registerReportTool(server);

  server.registerTool('stored', { description: 'What this session has recorded' }, async () => ({
    content: [{ type: 'text', text: describeStore() }],
  }));

  return server;
}
