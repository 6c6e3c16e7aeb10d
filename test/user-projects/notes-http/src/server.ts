import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { allNotes, findNote, saveNote } from './notes.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

// Shortcuts outlive the session that made them: every server made afterwards offers them too.
const shortcuts = new Map<string, string>();
// Saves per session, for the session's own summary.
const savesBySession = new Map<string, number>();

function registerShortcut(server: McpServer, name: string, title: string): void {
  server.registerTool(`open_${name}`, { description: `Open the note "${title}"` }, async () => {
    const note = findNote(title);
    return { content: [{ type: 'text', text: note ? `${note.title}: ${note.body}` : `"${title}" is gone` }] };
  });
}

/** Whether the client gave up on the call (the transport's signal, where it has one). */
function cancelled(extra: unknown): boolean {
  return (extra as { signal?: AbortSignal }).signal?.aborted === true;
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'notes-http', version: '0.9.3' }, { capabilities: { tools: { listChanged: true } } });
  for (const [name, title] of shortcuts) registerShortcut(server, name, title);

  server.registerTool(
    'save_note',
    { description: 'Save a note, asking before an existing one is replaced', inputSchema: { title: z.string(), body: z.string() } },
    async ({ title, body }, extra: Extra) => {
      const existing = findNote(title);
      if (existing) {
        const answer = await server.server.elicitInput({
          message: `"${existing.title}" exists (revision ${existing.updated}). Replace it?`,
          requestedSchema: { type: 'object', properties: { replace: { type: 'boolean', title: 'Replace' } }, required: ['replace'] },
        });
        if (answer.action !== 'accept' || answer.content?.replace !== true) {
          return { content: [{ type: 'text', text: `Kept "${existing.title}" as it was.` }] };
        }
      }
      if (cancelled(extra)) return { content: [{ type: 'text', text: 'Cancelled.' }], isError: true };
      const note = saveNote(title, body);
      const session = extra.sessionId ?? 'local';
      savesBySession.set(session, (savesBySession.get(session) ?? 0) + 1);
      return { content: [{ type: 'text', text: `Saved "${note.title}" (revision ${note.updated}).` }] };
    },
  );

  server.registerTool('my_saves', { description: 'How many notes this session saved' }, async extra => ({
    content: [{ type: 'text', text: `${savesBySession.get(extra.sessionId ?? 'local') ?? 0} saved in this session` }],
  }));

  server.registerTool('list_notes', { description: 'List the notes' }, async () => ({
    content: [{ type: 'text', text: allNotes().map(n => `${n.title} (r${n.updated})`).join('\n') || 'No notes.' }],
  }));

  server.registerTool(
    'pin_note',
    { description: 'Add a tool that opens a note', inputSchema: { name: z.string().regex(/^[a-z_]+$/), title: z.string() } },
    async ({ name, title }) => {
      if (!findNote(title)) return { content: [{ type: 'text', text: `No note "${title}".` }], isError: true };
      shortcuts.set(name, title);
      registerShortcut(server, name, title);
      server.sendToolListChanged();
      return { content: [{ type: 'text', text: `Pinned "${title}" as open_${name}.` }] };
    },
  );
  return server;
}
