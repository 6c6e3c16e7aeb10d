import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Asks the user a yes/no question; true only for an accepted yes. */
export async function confirm(server: McpServer, message: string): Promise<boolean> {
  const answer = await server.server.elicitInput({
    message,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', description: 'Go ahead?' } }, required: ['ok'] },
  });
  return answer.action === 'accept' && answer.content?.ok === true;
}
