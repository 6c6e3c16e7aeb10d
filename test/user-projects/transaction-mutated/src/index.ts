#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { ledger, Order } from './ledger.js';

const server = new McpServer({ name: 'payments', version: '0.1.0' });
const prices: Record<string, number> = { book: 12, pen: 2, lamp: 30 };

server.registerTool(
  'transfer',
  { description: 'Move money between accounts, confirming first', inputSchema: { from: z.string(), to: z.string(), amount: z.number() } },
  async ({ from, to, amount }) => {
    const tx = await ledger.begin();
    tx.move(from, -amount);
    tx.move(to, amount);
    const answer = await server.server.elicitInput({
      message: `Move ${amount} from ${from} to ${to}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action === 'accept' && answer.content?.confirm === true) tx.commit();
    else tx.rollback();
    return { content: [{ type: 'text', text: `${from}: ${ledger.balance(from)}, ${to}: ${ledger.balance(to)}` }] };
  },
);

server.registerTool(
  'checkout',
  { description: 'Check out a basket, asking for the shipping speed', inputSchema: { items: z.array(z.string()) } },
  async ({ items }) => {
    const order = new Order();
    for (const item of items) order.add(item, prices[item] ?? 0);
    const shipping = await server.server.elicitInput({
      message: `Shipping for ${items.length} items?`,
      requestedSchema: { type: 'object', properties: { speed: { type: 'string', enum: ['standard', 'express'] } }, required: ['speed'] },
    });
    if (shipping.action === 'accept') order.add(`shipping-${String(shipping.content?.speed)}`, shipping.content?.speed === 'express' ? 10 : 3);
    return { content: [{ type: 'text', text: `${order.describe()} = ${order.total()}` }] };
  },
);

await server.connect(new StdioServerTransport());
