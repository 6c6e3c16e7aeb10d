import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
  type ElicitResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const nameSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const confirmSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

// A class tool that takes the server out of its field only to ask with it (`const { server } = this.mcp;`):
// once both questions are inputRequired builders nothing reads it, so its declaration goes from every
// phase (and, read by no later round, it is neither carried nor made again).
class RenameTool {
  constructor(private readonly mcp: McpServer) {
    this.mcp.registerTool('rename', { inputSchema: z.object({ file: z.string() }) }, this.rename.bind(this));
  }

  async rename({ file }: { file: string }, ctx: ServerContext) {
    // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
    type RenameStep =
      | { step: 'awaiting-name' }
      | { step: 'awaiting-confirm'; name: ElicitResult };
    const call = resumeCall<RenameStep>(ctx, 'rename', { file });
    return call.run(async resumed => {
      if (resumed.step === 'start') {
        return call.suspend({ step: 'awaiting-name' }, {
          name: inputRequired.elicit({
            message: `New name for ${file}?`,
            requestedSchema: nameSchema,
          }),
        });
      }
      if (resumed.step === 'awaiting-name') {
        const name = elicitResult(ctx, 'name', nameSchema);
        if (name.action !== 'accept') return { content: [{ type: 'text' as const, text: `Kept ${file}` }] };
        return call.suspend({ step: 'awaiting-confirm', name }, {
          confirm: inputRequired.elicit({
            message: `Rename ${file} to ${name.content?.name}?`,
            requestedSchema: confirmSchema,
          }),
        });
      }
      if (resumed.step === 'awaiting-confirm') {
        const name = resumed.name;
        const confirm = elicitResult(ctx, 'confirm', confirmSchema);
        const renamed = confirm.action === 'accept' && confirm.content?.ok === true;
        return { content: [{ type: 'text' as const, text: renamed ? `Renamed ${file} to ${name.content?.name}` : `Kept ${file}` }] };
      }
      throw call.unknownStep(resumed);
    });
  }
}

export const server = new McpServer({ name: 'files', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
new RenameTool(server);
