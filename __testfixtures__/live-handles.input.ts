import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** An API client, as servers wrap a REST API. */
class TicketsClient {
  constructor(private readonly baseUrl: string) {}
  async find(id: string): Promise<{ id: string; title: string }> {
    return { id, title: `ticket ${id} at ${this.baseUrl}` };
  }
  async close(id: string, reason: string): Promise<string> {
    return `closed ${id}: ${reason}`;
  }
}

/** A pooled connection, made by an async provider. */
async function connect(): Promise<{ run(sql: string): Promise<number> }> {
  return { run: async sql => sql.length };
}

const server = new McpServer({ name: 'live-handles', version: '1.0.0' });

// Handles made before the question and used after it are made again where the handler resumes.
server.registerTool('close-ticket', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const tickets = new TicketsClient(process.env.TICKETS_URL ?? 'http://tickets.local');
  const db = await connect();
  const ticket = await tickets.find(id);
  const answer = await server.server.elicitInput({
    message: `Close "${ticket.title}"?`,
    requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: `left open (${answer.action})` }] };
  const changed = await db.run(`update tickets set open = false where id = '${id}'`);
  return { content: [{ type: 'text', text: `${await tickets.close(ticket.id, String(answer.content?.reason))} (${changed})` }] };
});
