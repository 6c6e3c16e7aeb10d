import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

interface Note {
  title: string;
  body: string;
  tags: string[];
}

const seed: Note[] = [
  { title: 'groceries', body: 'milk, eggs, coffee', tags: ['home'] },
  { title: 'release', body: 'tag v1.2, publish, announce', tags: ['work'] },
];

const make = () =>
  new McpServer(
    { name: 'notes-server', version: '1.2.0' },
    { capabilities: { tools: {}, prompts: {} }, instructions: 'Keeps short notes.' },
  );

export function createServer() {
  const server = make();
  const notes = new Map(seed.map(n => [n.title, { ...n }]));

  server.registerTool(
    'list_notes',
    { description: 'List every note title', inputSchema: {} },
    async () => ({ content: [{ type: 'text', text: [...notes.keys()].sort().join('\n') }] }),
  );

  server.registerTool(
    'delete_note',
    {
      description: 'Delete a note after the user confirms',
      inputSchema: { title: z.string().describe('The note to delete') },
    },
    async ({ title }) => {
      const note = notes.get(title);
      if (!note) {
        return { content: [{ type: 'text', text: `No note called "${title}".` }], isError: true };
      }
      const answer = await server.server.elicitInput({
        message: `Delete the note "${title}" (${note.body.length} characters)?`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Delete it' } },
          required: ['confirm'],
        },
      });
      if (answer.action !== 'accept') {
        return { content: [{ type: 'text', text: `Kept "${title}": ${answer.action}.` }] };
      }
      if (answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: `Kept "${title}".` }] };
      }
      notes.delete(title);
      return { content: [{ type: 'text', text: `Deleted "${title}".` }] };
    },
  );

  server.registerTool(
    'tag_note',
    {
      description: 'Suggest tags for a note with the client model',
      inputSchema: { title: z.string() },
    },
    async ({ title }) => {
      const note = notes.get(title);
      if (!note) return { content: [{ type: 'text', text: `No note called "${title}".` }], isError: true };
      const reply = await server.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: `Suggest one tag for: ${note.body}` } }],
        maxTokens: 20,
      });
      const tag = reply.content.type === 'text' ? reply.content.text.trim() : 'untagged';
      note.tags.push(tag);
      return { content: [{ type: 'text', text: `${title}: ${note.tags.join(', ')} (model ${reply.model})` }] };
    },
  );

  return server;
}
