import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const reportSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { note: { type: 'string' } } };

// Statements moved into deeper phase blocks are re-indented, but for the text of a multi-line
// template literal: its leading spaces are part of the string the tool returns.
server.registerTool('report', { inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ReportStep = { step: 'awaiting-answer'; header: string };
  const call = resumeCall<ReportStep>(ctx, 'report', { topic });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const header = `Report on ${topic}:
  - this line keeps its two spaces
      - and this one its six`;
      if (topic !== '') {
        return call.suspend({ step: 'awaiting-answer', header }, {
          answer: inputRequired.elicit({
            message: `Anything to add about ${topic}?
  (one line is enough)`,
            requestedSchema: reportSchema,
          }),
        });
      }
      return { content: [{ type: 'text', text: header }] };
    }
    if (resumed.step === 'awaiting-answer') {
      const header = resumed.header;
      {
        const answer = elicitResult(ctx, 'answer', reportSchema);
        const footer = `${header}
  answered: ${
          answer.action === 'accept' ? String(answer.content?.note) : answer.action
        }`;
        return { content: [{ type: 'text', text: footer }] };
      }
    }
    throw call.unknownStep(resumed);
  });
});

serveStdio(() => server);
