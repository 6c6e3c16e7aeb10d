import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// Multi-line template literals in a handler: nothing is moved or re-indented, so their text, leading spaces
// and all, is still the string the tool returns.
resumable(server).registerTool('report', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
      const header = `Report on ${topic}:
  - this line keeps its two spaces
      - and this one its six`;
      if (topic !== '') {
        const answer = await ask(server.server, 'answer').elicitInput({
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

serveStdio(() => server);
