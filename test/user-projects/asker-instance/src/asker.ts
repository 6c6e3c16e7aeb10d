import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The questions this server asks, in one place so their wording stays consistent. */
export class Asker {
  constructor(private readonly mcp: McpServer) {}

  async askName(fallback: string): Promise<string> {
    const res = await this.mcp.server.elicitInput({
      message: 'Who is the card for?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', title: 'Name' } },
        required: ['name'],
      },
    });
    if (res.action !== 'accept' || typeof res.content?.name !== 'string') return fallback;
    return res.content.name.trim() || fallback;
  }

  async confirm(message: string): Promise<boolean> {
    const reply = await this.mcp.server.elicitInput({
      message,
      requestedSchema: {
        type: 'object',
        properties: { ok: { type: 'boolean', title: 'Go ahead?' } },
        required: ['ok'],
      },
    });
    return reply.action === 'accept' && reply.content?.ok === true;
  }
}
