/** A ledger with transactions: a transaction holds uncommitted changes until commit or rollback. */
const balances = new Map<string, number>([
  ['alice', 100],
  ['bob', 20],
]);

export class Transaction {
  private readonly pending: [string, number][] = [];
  private done = false;

  move(account: string, delta: number): void {
    if (this.done) throw new Error('transaction finished');
    this.pending.push([account, delta]);
  }

  commit(): void {
    for (const [account, delta] of this.pending) balances.set(account, (balances.get(account) ?? 0) + delta);
    this.done = true;
  }

  rollback(): void {
    this.pending.length = 0;
    this.done = true;
  }
}

export const ledger = {
  async begin(): Promise<Transaction> {
    return new Transaction();
  },
  balance(account: string): number {
    return balances.get(account) ?? 0;
  },
};

export class Order {
  private readonly lines: { item: string; price: number }[] = [];

  add(item: string, price: number): this {
    this.lines.push({ item, price });
    return this;
  }

  total(): number {
    return this.lines.reduce((sum, l) => sum + l.price, 0);
  }

  describe(): string {
    return this.lines.map(l => `${l.item} ${l.price}`).join(', ');
  }
}
