import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 'promise-all-other-element', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

async function loadRecord(id: string): Promise<string> {
  return `record ${id}`;
}

// The Promise.all awaits a load beside the question: a round sends only requests, so the load is awaited where
// the round suspends, after the question is built (as the Promise.all evaluated it), and its value is carried.
server.registerTool('review', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ReviewStep = { step: 'awaiting-answer'; awaitedRecord: string };
  const call = resumeCall<ReviewStep>(ctx, 'review', { id });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const inputRequests = {
        answer: inputRequired.elicit({ message: `Review ${id}?`, requestedSchema: confirmSchema }),
      };
      const awaitedRecord = await loadRecord(id);
      return call.suspend({ step: 'awaiting-answer', awaitedRecord }, inputRequests);
    }
    if (resumed.step === 'awaiting-answer') {
      const awaitedRecord = resumed.awaitedRecord;
      const [answer, record] = [elicitResult(ctx, 'answer', confirmSchema), awaitedRecord];
      return { content: [{ type: 'text', text: `${answer.action}: ${record}` }] };
    }
    throw call.unknownStep(resumed);
  });
});
