import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const archiveSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** Builds the server once, at startup: its registrations and its log line run before the first message. */
function createServer(): McpServer {
  const server = new McpServer({ name: 'made-at-connect', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
  server.registerTool('archive', { description: 'Archive a project', inputSchema: z.object({ project: z.string() }) }, async ({ project }, ctx) => {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type ArchiveStep = { step: 'awaiting-answer' };
    const call = resumeCall<ArchiveStep>(ctx, 'archive', { project });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `Archive ${project}?`,
            requestedSchema: archiveSchema,
          }),
        });
      }
      if (resumed.step === 'awaiting-answer') {
        const answer = elicitResult(ctx, 'answer', archiveSchema);
        if (answer.action !== 'accept' || answer.content?.confirm !== true) {
          return { content: [{ type: 'text', text: `${project} stays active (${answer.action}).` }] };
        }
        return { content: [{ type: 'text', text: `${project} archived.` }] };
      }
      throw call.unknownStep(resumed);
    });
  });
  console.error('made-at-connect: server ready');
  return server;
}

// The server is made in the statement that connects it: it stays made once, at startup.
const server2 = createServer();
serveStdio(() => server2);
