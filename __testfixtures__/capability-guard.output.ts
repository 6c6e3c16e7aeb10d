import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { clientCapabilities, elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const renameSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

// A guard on what the client declared: on 2026-07-28 it is read from the request itself.
server.registerTool('rename', { description: 'Renames a file', inputSchema: z.object({ file: z.string() }) }, async ({ file }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type RenameStep = { step: 'awaiting-answer' };
  const call = resumeCall<RenameStep>(ctx, 'rename', { file });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const capabilities = clientCapabilities(ctx, server.server);
      if (!capabilities?.elicitation) {
        return { content: [{ type: 'text', text: `cannot ask for a new name for ${file}` }] };
      }
      return call.suspend({ step: 'awaiting-answer' }, {
        answer: inputRequired.elicit({
          message: `New name for ${file}?`,
          requestedSchema: renameSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const answer = elicitResult(ctx, 'answer', renameSchema);
      const sampling = clientCapabilities(ctx, server.server)?.sampling !== undefined;
      return { content: [{ type: 'text', text: answer.action === 'accept' ? `${file} -> ${answer.content?.name} (sampling: ${sampling})` : `${file} kept` }] };
    }
    throw call.unknownStep(resumed);
  });
});
