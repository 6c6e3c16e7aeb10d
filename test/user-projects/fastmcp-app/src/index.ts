#!/usr/bin/env node
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const server = new FastMCP({ name: 'fast-blog', version: '0.2.0' });

server.addTool({
  name: 'publish_post',
  description: 'Publish a blog post after the author confirms',
  parameters: z.object({ title: z.string() }),
  execute: async ({ title }, context) => {
    const answer = await context.elicit({
      message: `Publish "${title}" now?`,
      requestedSchema: { type: 'object', properties: { publish: { type: 'boolean' } }, required: ['publish'] },
    });
    if (answer.action === 'accept' && answer.content?.publish === true) return `Published "${title}".`;
    return `"${title}" stays a draft (${answer.action}).`;
  },
});

server.addTool({
  name: 'suggest_title',
  description: 'Suggest a title with the client model',
  parameters: z.object({ topic: z.string() }),
  execute: async ({ topic }) => {
    const session = server.sessions[0];
    if (!session) throw new Error('no session');
    const reply = await session.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: `A title about ${topic}` } }],
      maxTokens: 30,
    });
    return reply.content.type === 'text' ? reply.content.text : '(no title)';
  },
});

server.start({ transportType: 'stdio' });
