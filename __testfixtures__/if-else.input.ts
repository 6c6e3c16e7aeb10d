import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('deploy', { inputSchema: { env: z.string() } }, async ({ env }) => {
  let note = 'no review';
  if (env === 'prod') {
    const review = await server.server.elicitInput({
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
  const summary = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Release notes for ${env}` } }],
    maxTokens: 80,
  });
  return {
    content: [{ type: 'text', text: `Deployed to ${env}, ${note}: ${summary.content.type === 'text' ? summary.content.text : ''}` }],
  };
});
