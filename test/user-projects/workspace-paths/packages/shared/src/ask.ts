import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Asks the user to pick one of the options; undefined when they do not. */
export async function askChoice(server: McpServer, question: string, options: string[]): Promise<string | undefined> {
  const result = await server.server.elicitInput({
    message: question,
    requestedSchema: {
      type: 'object',
      properties: { choice: { type: 'string', enum: options, title: 'Choice' } },
      required: ['choice'],
    },
  });
  if (result.action !== 'accept') return undefined;
  return typeof result.content?.choice === 'string' ? result.content.choice : undefined;
}
