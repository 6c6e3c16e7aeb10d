import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// Multi-line template literals in a handler: nothing is moved or re-indented, so their text, leading spaces
// and all, is still the string the tool returns.
server.tool('report', { topic: z.string() }, async ({ topic }) => {
  const header = `Report on ${topic}:
  - this line keeps its two spaces
      - and this one its six`;
  if (topic !== '') {
    const answer = await server.server.elicitInput({
      message: `Anything to add about ${topic}?
  (one line is enough)`,
      requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
    });
    const footer = `${header}
  answered: ${
      answer.action === 'accept' ? String(answer.content?.note) : answer.action
    }`;
    return { content: [{ type: 'text', text: footer }] };
  }
  return { content: [{ type: 'text', text: header }] };
});

await server.connect(new StdioServerTransport());
