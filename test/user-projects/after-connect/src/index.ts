#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
  { name: 'reminders', version: '3.0.1' },
  { capabilities: { logging: {} } },
);

const reminders: { text: string; when: string }[] = [];

server.registerTool(
  'add_reminder',
  { description: 'Add a reminder; asks when if not given', inputSchema: { text: z.string(), when: z.string().optional() } },
  async ({ text, when }) => {
    let at = when;
    if (!at) {
      const answer = await server.server.elicitInput({
        message: `When should I remind you to "${text}"?`,
        requestedSchema: {
          type: 'object',
          properties: { when: { type: 'string', title: 'When', description: 'e.g. tomorrow 9:00' } },
          required: ['when'],
        },
      });
      if (answer.action !== 'accept') {
        return { content: [{ type: 'text', text: `No reminder added (${answer.action}).` }] };
      }
      at = String(answer.content?.when);
    }
    reminders.push({ text, when: at });
    return { content: [{ type: 'text', text: `Reminder ${reminders.length}: "${text}" at ${at}.` }] };
  },
);

const transport = new StdioServerTransport();
await server.connect(transport);
await server.server.sendLoggingMessage({ level: 'info', data: `reminders ready (${reminders.length} stored)` });
server.sendToolListChanged();
