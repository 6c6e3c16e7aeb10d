import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }) => {
  let note = 'no review';
  if (env === 'prod') {
    const review = await ask(server.server, 'review').elicitInput({
      message: 'Production deploy: who approves?',
      requestedSchema: { type: 'object', properties: { approver: { type: 'string' } }, required: ['approver'] },
    });
    if (review.action !== 'accept') {
      return { content: [{ type: 'text', text: 'Deploy cancelled' }], isError: true };
    }
    note = `approved by ${String(review.content?.approver)}`;
  } else {
    note = `auto-approved for ${env}`;
  }
  const summary = await ask(server.server, 'summary').createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Release notes for ${env}` } }],
    maxTokens: 80,
  });
  return {
    content: [{ type: 'text', text: `Deployed to ${env}, ${note}: ${summary.content.type === 'text' ? summary.content.text : ''}` }],
  };
});
