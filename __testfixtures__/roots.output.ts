import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { resumeCall, rootsResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerTool('workspace', { description: 'Lists the workspace roots' }, async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'workspace', undefined);
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        roots: inputRequired.listRoots(),
      });
    }
    if (resumed.phase === 1) {
      const { roots } = rootsResult(ctx, 'roots');
      return { content: [{ type: 'text', text: roots.map(r => r.uri).join('\n') }] };
    }
    throw call.unknownPhase(resumed);
  });
});
