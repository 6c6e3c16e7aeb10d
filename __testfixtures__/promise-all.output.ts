import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
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
  const call = resumeCall(ctx, 'context', { q });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      const started = q.trim();
      return call.suspend(1, {}, {
        rootsResult: inputRequired.listRoots(),
        sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: started } }], maxTokens: 10 }),
      });
    }
    if (resumed.phase === 1) {
      const [rootsResult, sample] = [mcpRootsResult(ctx, 'rootsResult'), samplingResult(ctx, 'sample')];
      return call.suspend(2, { rootsResult, sample }, {
        first: inputRequired.elicit({ message: 'First name?', requestedSchema: contextSchema }),
        second: inputRequired.elicit({ message: 'Last name?', requestedSchema: contextSchema }),
      });
    }
    if (resumed.phase === 2) {
      const rootsResult = resumed.locals.rootsResult;
      const sample = resumed.locals.sample;
      const first = elicitResult(ctx, 'first', contextSchema);
      const second = elicitResult(ctx, 'second', contextSchema);
      return {
        content: [{ type: 'text', text: `${rootsResult.roots.length} ${sample.model} ${first.action} ${second.action}` }],
      };
    }
    throw call.unknownPhase(resumed);
  });
});
