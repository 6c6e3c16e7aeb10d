import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, requireClientSupport, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

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

const closeTicketSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] };

// Handles made before the question and used after it are made again where the handler resumes.
server.registerTool('close-ticket', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type CloseTicketStep = { step: 'awaiting-answer'; ticket: { id: string; title: string; } };
  const call = resumeCall<CloseTicketStep>(ctx, 'close-ticket', { id });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const tickets = new TicketsClient(process.env.TICKETS_URL ?? 'http://tickets.local');
      await connect();
      const ticket = await tickets.find(id);
      return call.suspend({ step: 'awaiting-answer', ticket }, {
        answer: inputRequired.elicit({
          message: `Close "${ticket.title}"?`,
          requestedSchema: closeTicketSchema,
        }),
      });
    }
    if (resumed.step === 'awaiting-answer') {
      const ticket = resumed.ticket;
      // mcp-migrate: made again on resume: an instance of class TicketsClient cannot travel in requestState (review that making it twice is safe)
      const tickets = new TicketsClient(process.env.TICKETS_URL ?? 'http://tickets.local');
      // mcp-migrate: made again on resume: an object with method run() cannot travel in requestState (review that making it twice is safe)
      const db = await connect();
      const answer = elicitResult(ctx, 'answer', closeTicketSchema);
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: `left open (${answer.action})` }] };
      const changed = await db.run(`update tickets set open = false where id = '${id}'`);
      return { content: [{ type: 'text', text: `${await tickets.close(ticket.id, String(answer.content?.reason))} (${changed})` }] };
    }
    throw call.unknownStep(resumed);
  });
});

/** A pool whose connections must be released: the result says how many are still out. */
let out = 0;
const pool = {
  async acquire(): Promise<{ release(): void; count(): number }> {
    out++;
    return { release: () => void out--, count: () => out };
  },
};

const countOpenSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };

// A connection released in a finally around the question: each phase releases the one it made.
server.registerTool('count-open', {}, async ctx => {
  type CountOpenStep = { step: 'awaiting-answer' };
  const call = resumeCall<CountOpenStep>(ctx, 'count-open', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const conn = await pool.acquire();
      try {
        requireClientSupport(ctx, ['elicitation']);
        return await call.suspend({ step: 'awaiting-answer' }, {
          answer: inputRequired.elicit({ message: 'Count?', requestedSchema: countOpenSchema }),
        });
      } finally {
        conn.release();
      }
    }
    if (resumed.step === 'awaiting-answer') {
      // mcp-migrate: made again on resume: an object with method release() cannot travel in requestState (review that making it twice is safe)
      const conn = await pool.acquire();
      try {
        const answer = elicitResult(ctx, 'answer', countOpenSchema);
        return { content: [{ type: 'text', text: `${answer.action}: ${conn.count()} open` }] };
      } finally {
        conn.release();
      }
    }
    throw call.unknownStep(resumed);
  });
});
