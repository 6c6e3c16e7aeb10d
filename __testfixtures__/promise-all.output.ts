import {
  McpServer,
  inputRequired,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ListRootsResult,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  rootsResult as mcpRootsResult,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const contextSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { n: { type: 'string' } } };

server.registerTool('context', { inputSchema: z.object({ q: z.string() }) }, async ({ q }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ContextStep =
    | { step: 'awaiting-roots-result-and-sample' }
    | { step: 'awaiting-first-and-second'; rootsResult: ListRootsResult; sample: CreateMessageResult };
  const call = resumeCall<ContextStep>(ctx, 'context', { q });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const started = q.trim();
      return call.suspend({ step: 'awaiting-roots-result-and-sample' }, {
        rootsResult: inputRequired.listRoots(),
        sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: started } }], maxTokens: 10 }),
      });
    }
    if (resumed.step === 'awaiting-roots-result-and-sample') {
      const [rootsResult, sample] = [mcpRootsResult(ctx, 'rootsResult'), samplingResult(ctx, 'sample')];
      return call.suspend({ step: 'awaiting-first-and-second', rootsResult, sample }, {
        first: inputRequired.elicit({ message: 'First name?', requestedSchema: contextSchema }),
        second: inputRequired.elicit({ message: 'Last name?', requestedSchema: contextSchema }),
      });
    }
    if (resumed.step === 'awaiting-first-and-second') {
      const rootsResult = resumed.rootsResult;
      const sample = resumed.sample;
      const first = elicitResult(ctx, 'first', contextSchema);
      const second = elicitResult(ctx, 'second', contextSchema);
      return {
        content: [{ type: 'text', text: `${rootsResult.roots.length} ${sample.model} ${first.action} ${second.action}` }],
      };
    }
    throw call.unknownStep(resumed);
  });
});
