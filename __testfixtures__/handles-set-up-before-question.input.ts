// Handles made in the handler and set up before the question (an open transaction with a write, a basket
// filled): nothing of them can travel in requestState, so each round of a 2026-07-28 call makes and sets
// them up again, as the handler does on each call, and only the last round uses them after the question. The
// db tool reads back what reached the database: one commit per accepted insert, on either era.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** What reached the outside: the rows the database committed. */
const seen = { committed: [] as string[] };

class Database {
  async begin(): Promise<{ insert(row: string): Promise<void>; commit(): Promise<void> }> {
    const rows: string[] = [];
    return { insert: async row => void rows.push(row), commit: async () => void seen.committed.push(...rows) };
  }
}

const db = new Database();
const server = new McpServer({ name: 'handles-set-up-before-question', version: '1.0.0' });

// An open transaction, with a write before the question: each round writes in a transaction of its own, and
// only the last one, which has the answer, commits.
server.registerTool('insert', {}, async () => {
  const tx = await db.begin();
  await tx.insert('draft');
  const answer = await server.server.elicitInput({ message: 'Commit?', requestedSchema: { type: 'object', properties: {} } });
  if (answer.action === 'accept') await tx.commit();
  return { content: [{ type: 'text', text: answer.action }] };
});

class Basket {
  private readonly lines: string[] = [];
  private requests = 0;
  add(item: string): void {
    this.lines.push(item);
  }
  count(): number {
    this.requests++;
    return this.lines.length;
  }
}

// A basket filled before the question (add() pushes to a field count() reads after it): made and filled again
// on each round.
server.registerTool('basket', {}, async () => {
  const basket = new Basket();
  basket.add('tea');
  const answer = await server.server.elicitInput({ message: 'Add milk?', requestedSchema: { type: 'object', properties: {} } });
  if (answer.action === 'accept') basket.add('milk');
  return { content: [{ type: 'text', text: `${basket.count()} items` }] };
});

interface Cart {
  add(item: string): void;
  count(): number;
}

function makeCart(): Cart {
  const items: string[] = [];
  return { add: item => void items.push(item), count: () => items.length };
}

// The same through an interface, whose signatures say nothing of what add() changes.
server.registerTool('cart', {}, async () => {
  const cart = makeCart();
  cart.add('tea');
  const answer = await server.server.elicitInput({ message: 'Add milk?', requestedSchema: { type: 'object', properties: {} } });
  if (answer.action === 'accept') cart.add('milk');
  return { content: [{ type: 'text', text: `${cart.count()} items` }] };
});

server.registerTool('db', { description: 'What reached the database' }, async () => {
  return { content: [{ type: 'text', text: `committed: ${seen.committed.join(', ') || 'nothing'}` }] };
});
