import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

class Session {
  private user?: string;
  async login(user: string): Promise<void> {
    this.user = user;
  }
  whoami(): string {
    return this.user ?? 'nobody';
  }
}

class Database {
  async begin(): Promise<{ insert(row: string): Promise<void>; commit(): Promise<void> }> {
    return { insert: async () => {}, commit: async () => {} };
  }
}

const db = new Database();
const server = new McpServer({ name: 'live-handles-refused', version: '1.0.0' });

// A handle set up before the question (a login) would not be set up once made again: marked.
server.registerTool('whoami', {}, async () => {
  const session = new Session();
  await session.login('alice');
  const answer = await server.server.elicitInput({ message: 'Show?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: `${answer.action}: ${session.whoami()}` }] };
});

// An open transaction, with a write before the question: marked.
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

// A handle changed before the question (add() pushes to a field count() reads after it): made again, it would
// be empty: marked.
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

// The same through an interface: its signatures say nothing of what add() changes, so it counts as a change.
server.registerTool('cart', {}, async () => {
  const cart = makeCart();
  cart.add('tea');
  const answer = await server.server.elicitInput({ message: 'Add milk?', requestedSchema: { type: 'object', properties: {} } });
  if (answer.action === 'accept') cart.add('milk');
  return { content: [{ type: 'text', text: `${cart.count()} items` }] };
});
