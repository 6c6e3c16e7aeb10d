import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type { CallToolResult, ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

// Handlers whose expression body awaits a helper: the same as a block body that returns the awaited call.

class Summaries {
  constructor(private readonly server: McpServer) {}

  register(): void {
    this.server.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
      // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
      const call = resumeCall(ctx, 'summarize', { text });
      return call.run(async resumed => {
        if (resumed.phase === 0) {
          let summarizeResult!: CallToolResult;
          mcpInline: {
            const mcpText: string = text.trim();
            return call.suspend(1, { summarizeResult }, {
              reply: inputRequired.createMessage({
                messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${mcpText}` } }],
                maxTokens: 60,
              }),
            });
          }
        }
        if (resumed.phase === 1) {
          let summarizeResult: CallToolResult = resumed.locals.summarizeResult;
          mcpInline: {
            const reply = samplingResult(ctx, 'reply');
            { summarizeResult = { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '(no summary)' }] }; break mcpInline; }
          }
          return summarizeResult;
        }
        throw call.unknownPhase(resumed);
      });
    });
  }
}

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const deleteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] };
server.registerTool('delete', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
  const call = resumeCall(ctx, 'delete', { path });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      let confirmDeleteResult!: CallToolResult;
      mcpInline2: {
        const mcpPath: string = path;
        return call.suspend(1, { confirmDeleteResult, mcpPath }, {
          answer: inputRequired.elicit({
            message: `Delete ${mcpPath}?`,
            requestedSchema: deleteSchema,
          }),
        });
      }
    }
    if (resumed.phase === 1) {
      let confirmDeleteResult: CallToolResult = resumed.locals.confirmDeleteResult;
      mcpInline2: {
        const mcpPath: string = resumed.locals.mcpPath;
        const answer = elicitResult(ctx, 'answer', deleteSchema);
        if (answer.action !== 'accept' || !answer.content?.sure) { confirmDeleteResult = { content: [{ type: 'text', text: `kept ${mcpPath}` }] }; break mcpInline2; }
        { confirmDeleteResult = { content: [{ type: 'text', text: `deleted ${mcpPath}` }] }; break mcpInline2; }
      }
      return confirmDeleteResult;
    }
    throw call.unknownPhase(resumed);
  });
});
new Summaries(server).register();
