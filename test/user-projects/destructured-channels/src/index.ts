#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'files-assistant', version: '1.0.3' });
const trash: string[] = [];

server.tool(
  'remove_file',
  'Move a file to the trash after confirmation',
  { file: z.string() },
  async ({ file }, { sendRequest }) => {
    const answer = await sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: `Move ${file} to the trash?`,
          requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
        },
      },
      ElicitResultSchema,
    );
    if (answer.action === 'accept' && answer.content?.sure === true) {
      trash.push(file);
      return { content: [{ type: 'text', text: `Trashed ${file} (${trash.length} in the trash).` }] };
    }
    return { content: [{ type: 'text', text: `Left ${file} alone (${answer.action}).` }] };
  },
);

server.registerTool(
  'summarize_file',
  { description: 'Summarize text with the client model', inputSchema: { name: z.string(), text: z.string() } },
  async ({ name, text }, extra) => {
    const { sendRequest } = extra;
    const result = await sendRequest(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${name}:\n${text}` } }],
          maxTokens: 120,
        },
      },
      CreateMessageResultSchema,
    );
    const summary = result.content.type === 'text' ? result.content.text : '';
    return { content: [{ type: 'text', text: `${name}: ${summary}` }] };
  },
);

server.registerTool(
  'list_roots',
  { description: 'The roots the client exposes', inputSchema: {} },
  async (_args, extra) => {
    const listed = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
    return { content: [{ type: 'text', text: listed.roots.map(r => r.uri).join(', ') }] };
  },
);

await server.connect(new StdioServerTransport());
