import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function registerFourTool(server: McpServer): void {
    server.registerTool(
        'four_note',
        { description: 'Indented with four spaces', inputSchema: { topic: z.string() } },
        async ({ topic }) => {
            const header = `[four_note] ${topic}`;
            const answer = await server.server.elicitInput({
                message: `Anything to add about ${topic}?`,
                requestedSchema: {
                    type: 'object',
                    properties: { note: { type: 'string', title: 'Note' } },
                    required: ['note'],
                },
            });
            if (answer.action !== 'accept') {
                return { content: [{ type: 'text', text: `${header}: nothing added (${answer.action})` }] };
            }
            return { content: [{ type: 'text', text: `${header}: ${String(answer.content?.note)}` }] };
        },
    );
}
