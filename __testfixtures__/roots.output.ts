import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { resumeCall, rootsResult, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerTool('workspace', { description: 'Lists the workspace roots' }, async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type WorkspaceStep = { step: 'awaiting-roots' };
  const call = resumeCall<WorkspaceStep>(ctx, 'workspace', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-roots' }, {
        roots: inputRequired.listRoots(),
      });
    }
    if (resumed.step === 'awaiting-roots') {
      const { roots } = rootsResult(ctx, 'roots');
      return { content: [{ type: 'text', text: roots.map(r => r.uri).join('\n') }] };
    }
    throw call.unknownStep(resumed);
  });
});
