import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Loaded on first use: asks for a note about the topic. */
export async function askTopic(server: McpServer, topic: string): Promise<string | undefined> {
  const answer = await server.server.elicitInput({
    message: `A note about ${topic}?`,
    requestedSchema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
  });
  return answer.action === 'accept' ? String(answer.content?.note) : undefined;
}
