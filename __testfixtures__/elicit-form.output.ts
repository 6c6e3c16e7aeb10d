import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmDeleteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

server.registerTool('confirm-delete', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ConfirmDeleteStep = { step: 'awaiting-answer' };
  const call = resumeCall<ConfirmDeleteStep>(ctx, 'confirm-delete', { path });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `Delete ${path}?`,
          requestedSchema: confirmDeleteSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      // Ask before deleting anything.
      const answer = elicitResult(ctx, 'answer', confirmDeleteSchema);
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: `Kept ${path} (${answer.action})` }] };
      }
      return { content: [{ type: 'text', text: `Deleted ${path}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

serveStdio(() => server);
