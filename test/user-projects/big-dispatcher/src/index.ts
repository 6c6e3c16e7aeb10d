#!/usr/bin/env node
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'inventory', version: '4.0.0' }, { capabilities: { tools: {} } });

const stock = new Map<string, number>([
  ['widget', 12],
  ['gadget', 0],
  ['gizmo', 5],
]);
const audit: string[] = [];
let calls = 0;

const tools = [
  { name: 'count', description: 'Stock of an item', inputSchema: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] } },
  { name: 'restock', description: 'Add stock', inputSchema: { type: 'object', properties: { item: { type: 'string' }, amount: { type: 'number' } }, required: ['item', 'amount'] } },
  { name: 'remove', description: 'Remove an item', inputSchema: { type: 'object', properties: { item: { type: 'string' }, force: { type: 'boolean' } }, required: ['item'] } },
  { name: 'report', description: 'A stock report', inputSchema: { type: 'object', properties: { style: { type: 'string' } } } },
  { name: 'audit_log', description: 'The audit log', inputSchema: { type: 'object', properties: {} } },
];

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async request => {
  const { name, arguments: args = {} } = request.params;
  calls++;
  if (!tools.some(t => t.name === name)) {
    throw new McpError(ErrorCode.MethodNotFound, `Unknown tool: ${name}`);
  }
  const item = typeof args.item === 'string' ? args.item.toLowerCase() : undefined;
  if (name !== 'report' && name !== 'audit_log' && !item) {
    return { ...text('item is required'), isError: true };
  }

  switch (name) {
    case 'count':
      return text(`${item}: ${stock.get(item!) ?? 0}`);
    case 'restock': {
      const amount = Number(args.amount);
      if (!Number.isFinite(amount) || amount <= 0) return { ...text('amount must be positive'), isError: true };
      stock.set(item!, (stock.get(item!) ?? 0) + amount);
      audit.push(`restock ${item} ${amount}`);
      return text(`${item}: ${stock.get(item!)}`);
    }
    case 'remove': {
      if (!stock.has(item!)) return { ...text(`no ${item}`), isError: true };
      if (args.force !== true) {
        const left = stock.get(item!) ?? 0;
        if (left > 0) {
          const answer = await server.elicitInput({
            message: `${item} still has ${left} in stock. Remove it anyway?`,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean' }, reason: { type: 'string' } },
              required: ['confirm'],
            },
          });
          if (answer.action !== 'accept' || answer.content?.confirm !== true) {
            audit.push(`kept ${item}`);
            return text(`Kept ${item} (${answer.action}).`);
          }
          audit.push(`removed ${item}: ${String(answer.content?.reason ?? 'no reason')}`);
        }
      }
      stock.delete(item!);
      return text(`Removed ${item}.`);
    }
    case 'report': {
      const lines = [...stock].map(([k, v]) => `${k}=${v}`);
      if (args.style === 'prose') {
        const reply = await server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Write a one-line stock report: ${lines.join(', ')}` } }],
          maxTokens: 80,
        });
        return text(reply.content.type === 'text' ? reply.content.text : lines.join('\n'));
      }
      return text(lines.join('\n'));
    }
    case 'audit_log':
      return text(`${calls} calls\n${audit.join('\n')}`);
    default:
      throw new McpError(ErrorCode.InternalError, `unhandled ${name}`);
  }
});

await server.connect(new StdioServerTransport());
