import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

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

const server = new McpServer({ name: 'live-handles', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// Handles made before the question and used after it (an API client, a connection) cannot travel in
// requestState: each round makes them again, as the handler makes them on each call.
resumable(server).registerTool('close-ticket', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  const tickets = new TicketsClient(process.env.TICKETS_URL ?? 'http://tickets.local');
  const db = await connect();
  const ticket = await tickets.find(id);
  const answer = await ask(server.server, 'answer').elicitInput({
    message: `Close "${ticket.title}"?`,
    requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
  });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: `left open (${answer.action})` }] };
  const changed = await db.run(`update tickets set open = false where id = '${id}'`);
  return { content: [{ type: 'text', text: `${await tickets.close(ticket.id, String(answer.content?.reason))} (${changed})` }] };
});

/** A pool whose connections must be released: the result says how many are still out. */
let out = 0;
const pool = {
  async acquire(): Promise<{ release(): void; count(): number }> {
    out++;
    return { release: () => void out--, count: () => out };
  },
};

// A connection released in a finally around the question: a finally that only lets go of what the round made
// runs on every round, so each round releases the one it took, and the count of open ones stays right; the
// acquire is made again on each round, and the report says so in a note.
resumable(server).registerTool('count-open', {}, async () => {
  const conn = await pool.acquire();
  try {
    const answer = await ask(server.server, 'answer').elicitInput({ message: 'Count?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: `${answer.action}: ${conn.count()} open` }] };
  } finally {
    conn.release();
  }
});
