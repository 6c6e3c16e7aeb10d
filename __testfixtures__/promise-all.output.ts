import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  rootsResult as mcpRootsResult,
  samplingResult,
  suspendCall,
  unknownPhase,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerTool('context', { inputSchema: z.object({ q: z.string() }) }, async ({ q }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const resumed = resumeCall(ctx, 'context', { q });
  if (resumed.phase === 0) {
    const started = q.trim();
    return inputRequired({
      inputRequests: {
        rootsResult: inputRequired.listRoots(),
        sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: started } }], maxTokens: 10 }),
      },
      requestState: await suspendCall(ctx, 'context', { q }, 1, {}),
    });
  }
  if (resumed.phase === 1) {
    const [rootsResult, sample] = [mcpRootsResult(ctx, 'rootsResult'), samplingResult(ctx, 'sample')];
    return inputRequired({
      inputRequests: {
        first: inputRequired.elicit({ message: 'First name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } }),
        second: inputRequired.elicit({ message: 'Last name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } }),
      },
      requestState: await suspendCall(ctx, 'context', { q }, 2, { rootsResult, sample }),
    });
  }
  if (resumed.phase === 2) {
    const rootsResult = resumed.locals.rootsResult;
    const sample = resumed.locals.sample;
    const first = elicitResult(ctx, 'first', { type: 'object', properties: { n: { type: 'string' } } });
    const second = elicitResult(ctx, 'second', { type: 'object', properties: { n: { type: 'string' } } });
    return {
      content: [{ type: 'text', text: `${rootsResult.roots.length} ${sample.model} ${first.action} ${second.action}` }],
    };
  }
  throw unknownPhase('context', resumed);
});
