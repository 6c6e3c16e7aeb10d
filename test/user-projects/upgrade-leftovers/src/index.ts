#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { registerDocs } from './registrars/docs.js';
import { registerMath } from './registrars/math.js';
import { explain, Note } from './schemas.js';

const server = new McpServer({ name: 'notes-desk', version: '0.3.1' });
// Registered through a bound reference: shorter lines, and the same `tool` as the registrars get.
const tool = server.tool.bind(server);

const notes = new Map<string, Note>();

tool('ping', async () => ({ content: [{ type: 'text', text: 'pong' }] }));

tool('add_note', 'Add a note', { note: z.unknown() }, async ({ note }) => {
  const parsed = Note.safeParse(note);
  if (!parsed.success) return { content: [{ type: 'text', text: explain(parsed.error) }], isError: true };
  notes.set(parsed.data.title, parsed.data);
  return { content: [{ type: 'text', text: `Added "${parsed.data.title}" (${parsed.data.priority}).` }] };
});

tool('delete_note', 'Delete a note after confirming', { title: z.string() }, async ({ title }) => {
  const answer = await server.server.elicitInput({
    message: `Delete the note "${title}"?`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Delete' } }, required: ['confirm'] },
  });
  if (answer.action !== 'accept' || answer.content?.confirm !== true) return { content: [{ type: 'text', text: `Kept "${title}" (${answer.action}).` }] };
  notes.delete(title);
  return { content: [{ type: 'text', text: `Deleted "${title}".` }] };
});

registerDocs(server);
registerMath(server);

await server.connect(new StdioServerTransport());
