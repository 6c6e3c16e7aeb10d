// A local carried across the question whose type holds credentials (an OAuth session): requestState is
// signed, not encrypted, so the client could read them; the local is marked with what to do.
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

interface Session {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

async function freshSession(): Promise<Session> {
  return { accessToken: 'at-0123', refreshToken: 'rt-4567', expiresAt: Date.now() + 60_000 };
}

const confirmSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

server.registerTool('run-mutation', { inputSchema: z.object({ query: z.string() }) }, async ({ query }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type RunMutationStep = { step: 'awaiting-confirm'; session: Session };
  const call = resumeCall<RunMutationStep>(ctx, 'run-mutation', { query });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      // mcp-migrate: tools/call run-mutation carries "session" (its field "accessToken" named like a secret) in requestState, which the client can read (it is signed, not encrypted): compute it again after the round, or set MCP_REQUEST_STATE_ENCRYPT=1
      const session = await freshSession();
      return call.suspend({ step: 'awaiting-confirm', session }, {
        confirm: inputRequired.elicit({
          message: `Run ${query}?`,
          requestedSchema: confirmSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-confirm') {
      const session = resumed.session;
      const confirm = elicitResult(ctx, 'confirm', confirmSchema);
      if (confirm.action !== 'accept') return { content: [{ type: 'text', text: 'cancelled' }] };
      return { content: [{ type: 'text', text: `ran ${query} with a token of ${session.accessToken.length} characters` }] };
    }
    throw call.unknownStep(resumed);
  });
});
