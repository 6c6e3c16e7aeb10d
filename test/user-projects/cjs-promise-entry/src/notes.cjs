const { z } = require('zod');

/** @type {{ title: string, body: string }[]} */
const notes = [];

/**
 * The notes tools, on the server given.
 * @param {import('@modelcontextprotocol/sdk/server/mcp.js').McpServer} server
 */
function registerNotes(server) {
  server.registerTool(
    'add_note',
    { description: 'Add a note; asks for a title when none is given', inputSchema: { body: z.string(), title: z.string().optional() } },
    async ({ body, title }) => {
      let name = title;
      if (!name) {
        const answer = await server.server.elicitInput({
          message: `What should the note "${body.slice(0, 20)}" be called?`,
          requestedSchema: { type: 'object', properties: { title: { type: 'string', title: 'Title' } }, required: ['title'] },
        });
        if (answer.action !== 'accept') return { content: [{ type: 'text', text: `No note added (${answer.action}).` }] };
        name = String(answer.content?.title);
      }
      notes.push({ title: name, body });
      return { content: [{ type: 'text', text: `Note ${notes.length}: ${name}` }] };
    },
  );

  server.registerTool('list_notes', { description: 'The notes so far' }, async () => ({
    content: [{ type: 'text', text: notes.map((n, i) => `${i + 1}. ${n.title}`).join('\n') || '(none)' }],
  }));
}

module.exports = { registerNotes };
