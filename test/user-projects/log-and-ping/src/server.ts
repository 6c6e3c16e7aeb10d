import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { logLine } from './log.js';

const stock = new Map<string, number>([['bolts', 40], ['nuts', 12]]);

export function buildServer(): McpServer {
  const server = new McpServer({ name: 'log-and-ping', version: '0.4.0' }, { capabilities: { logging: {} } });

  server.registerTool(
    'restock',
    { description: 'Adds items to the stock, after a confirmation', inputSchema: { item: z.string(), count: z.number().int() } },
    async ({ item, count }, extra) => {
      await server.sendLoggingMessage({ level: 'info', logger: 'inventory', data: `restock ${item} +${count}` }, extra.sessionId);
      const answer = await server.server.elicitInput({
        message: `Add ${count} ${item}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        await logLine(server, 'notice', `restock of ${item} cancelled`);
        return { content: [{ type: 'text', text: 'cancelled' }] };
      }
      stock.set(item, (stock.get(item) ?? 0) + count);
      return { content: [{ type: 'text', text: `${item}: ${stock.get(item)}` }] };
    },
  );

  server.registerTool('stock', { description: 'Lists the stock' }, async () => {
    await server.sendLoggingMessage({ level: 'debug', data: 'stock listed' });
    return { content: [{ type: 'text', text: [...stock].map(([k, v]) => `${k}: ${v}`).join(', ') }] };
  });

  return server;
}
