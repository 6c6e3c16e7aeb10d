import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, {
  capabilities: { tools: {} },
  requestState: { verify: verifyRequestState },
});

/** Declared beside its registration and passed by name. */
async function summarize({ text }: { text: string }, ctx: ServerContext) {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'summarize', { text });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        result: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
          maxTokens: 60,
        }),
      });
    }
    if (resumed.phase === 1) {
      const result = samplingResult(ctx, 'result');
      const summary = result.content.type === 'text' ? result.content.text : '';
      return { content: [{ type: 'text' as const, text: `${text.length} chars: ${summary}` }] };
    }
    throw call.unknownPhase(resumed);
  });
}

server.registerTool('summarize', { description: 'Summarizes a text', inputSchema: z.object({ text: z.string() }) }, summarize);

const deleteSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] };

const confirmDelete = async ({ file }: { file: string }, ctx: ServerContext) => {
  const call = resumeCall(ctx, 'delete', { file });
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        answer: inputRequired.elicit({
          message: `Delete ${file}?`,
          requestedSchema: deleteSchema,
        }),
      });
    }
    if (resumed.phase === 1) {
      const answer = elicitResult(ctx, 'answer', deleteSchema);
      if (answer.action !== 'accept' || !answer.content?.sure) return { content: [{ type: 'text' as const, text: 'kept' }] };
      return { content: [{ type: 'text' as const, text: `deleted ${file}` }] };
    }
    throw call.unknownPhase(resumed);
  });
};

server.registerTool('delete', { description: 'Deletes a file', inputSchema: z.object({ file: z.string() }) }, confirmDelete);
