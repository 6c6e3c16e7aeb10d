import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ServerContext,
  ElicitRequestFormParams,
  InputRequiredResult,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

type Extra = ServerContext;

const confirmSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

/** A server whose tools are registered through a private method that hands each handler on unchanged. */
class ConfirmServer {
  readonly server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

  constructor() {
    this.reg('confirm', async (a, extra) => this.confirm(a, extra));
  }

  private reg(name: string, cb: (a: any, extra: any) => Promise<CallToolResult | InputRequiredResult>) {
    this.server.registerTool(name, { inputSchema: z.object({ what: z.string() }) }, cb);
  }

  private async confirm(a: { what: string }, extra: Extra): Promise<CallToolResult | InputRequiredResult> {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type ConfirmStep = { step: 'awaiting-answer' };
    const call = resumeCall<ConfirmStep>(extra, 'confirm', a);
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({
            message: `Really ${a.what}?`,
            requestedSchema: confirmSchema,
          }),
        });
      }
      if (resumed.step === 'awaiting-answer') {
        const answer = elicitResult(extra, 'answer', confirmSchema);
        if (answer.action !== 'accept' || answer.content?.ok !== true) return { content: [{ type: 'text', text: `${a.what}: not done (${answer.action})` }] };
        return { content: [{ type: 'text', text: `${a.what}: done` }] };
      }
      throw call.unknownStep(resumed);
    });
  }
}

export const server = new ConfirmServer().server;
