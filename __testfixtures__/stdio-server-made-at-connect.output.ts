import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

/** Builds the server once, at startup: its registrations and its log line run before the first message. */
function createServer(): McpServer {
  const server = new McpServer({ name: 'made-at-connect', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  resumable(server).registerTool('archive', { description: 'Archive a project', inputSchema: z.object({ project: z.string() }) }, async ({ project }) => {
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `Archive ${project}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) {
      return { content: [{ type: 'text', text: `${project} stays active (${answer.action}).` }] };
    }
    return { content: [{ type: 'text', text: `${project} archived.` }] };
  });
  console.error('made-at-connect: server ready');
  return server;
}

// The server is made in the statement that connects it: it stays made once, at startup.
const server = createServer();
serveStdio(() => server);
