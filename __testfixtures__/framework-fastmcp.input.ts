// fastmcp's own request APIs: the framework sends the request, so each call is marked with what
// fastmcp offers for MCP 2026-07-28.
import { FastMCP, type Context } from 'fastmcp';
import { z } from 'zod';

const server = new FastMCP({ name: 'fast-blog', version: '0.2.0' });

server.addTool({
  name: 'publish_post',
  parameters: z.object({ title: z.string() }),
  execute: async ({ title }, context) => {
    const answer = await context.elicit({
      message: `Publish "${title}" now?`,
      requestedSchema: { type: 'object', properties: { publish: { type: 'boolean' } }, required: ['publish'] },
    });
    return answer.action === 'accept' ? `Published "${title}".` : 'Kept as a draft.';
  },
});

server.addTool({
  name: 'rename_post',
  parameters: z.object({ title: z.string() }),
  execute: async (_args, { elicit }) => {
    const answer = await elicit({ message: 'New title?', requestedSchema: { type: 'object', properties: { title: { type: 'string' } } } });
    return answer.action;
  },
});

server.addTool({
  name: 'suggest_title',
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

// A context typed with fastmcp's own type, in a helper.
async function confirm(context: Context<undefined>, what: string): Promise<boolean> {
  const answer = await context.elicit({ message: `Confirm ${what}?`, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}

// Look-alikes that are not fastmcp's: left alone.
const assistant = { elicit: async (question: string) => question, requestSampling: async (prompt: string) => prompt };
export async function notFastmcp(): Promise<string> {
  return (await assistant.elicit('?')) + (await assistant.requestSampling('!'));
}

export { confirm };

server.start({ transportType: 'stdio' });
