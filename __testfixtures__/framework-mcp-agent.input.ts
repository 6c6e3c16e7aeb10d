// Cloudflare's McpAgent (agents/mcp) runs an SDK 1.x server only: its requests are marked with the
// way agents serves MCP 2026-07-28 (createMcpHandler from agents/mcp/server), not rewritten.
import { McpAgent } from 'agents/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export class BookingAgent extends McpAgent {
  server = new McpServer({ name: 'bookings', version: '1.0.0' });

  async init() {
    this.server.registerTool('book', { inputSchema: { room: z.string() } }, async ({ room }) => {
      const answer = await this.server.server.elicitInput({
        message: `Book ${room}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      });
      return { content: [{ type: 'text', text: answer.action }] };
    });
    this.server.registerTool('notes', { inputSchema: {} }, async () => {
      const answer = await this.elicitInput({ message: 'Any notes?', requestedSchema: { type: 'object', properties: { notes: { type: 'string' } } } });
      return { content: [{ type: 'text', text: answer.action }] };
    });
  }
}
