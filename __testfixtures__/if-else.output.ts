import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  resumeCall,
  samplingResult,
  suspendCall,
  unknownPhase,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

server.registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const resumed = resumeCall(ctx, 'deploy', { env });
  if (resumed.phase === 0) {
    let note = 'no review';
    if (env === 'prod') {
      return inputRequired({
        inputRequests: {
          review: inputRequired.elicit({
            message: 'Production deploy: who approves?',
            requestedSchema: { type: 'object', properties: { approver: { type: 'string' } }, required: ['approver'] },
          }),
        },
        requestState: await suspendCall(ctx, 'deploy', { env }, 1, { note }),
      });
    } else {
      note = `auto-approved for ${env}`;
    }
    return inputRequired({
      inputRequests: {
        summary: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Release notes for ${env}` } }],
          maxTokens: 80,
        }),
      },
      requestState: await suspendCall(ctx, 'deploy', { env }, 2, { note }),
    });
  }
  if (resumed.phase === 1) {
    let note: string = resumed.locals.note;
    {
      const review = elicitResult(ctx, 'review', { type: 'object', properties: { approver: { type: 'string' } }, required: ['approver'] });
      if (review.action !== 'accept') {
        return { content: [{ type: 'text', text: 'Deploy cancelled' }], isError: true };
      }
      note = `approved by ${String(review.content?.approver)}`;
    }
    return inputRequired({
      inputRequests: {
        summary: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Release notes for ${env}` } }],
          maxTokens: 80,
        }),
      },
      requestState: await suspendCall(ctx, 'deploy', { env }, 2, { note }),
    });
  }
  if (resumed.phase === 2) {
    let note: string = resumed.locals.note;
    const summary = samplingResult(ctx, 'summary');
    return {
      content: [{ type: 'text', text: `Deployed to ${env}, ${note}: ${summary.content.type === 'text' ? summary.content.text : ''}` }],
    };
  }
  throw unknownPhase('deploy', resumed);
});
