// Cloudflare's McpAgent (agents/mcp) runs an SDK 1.x server only: its requests are marked with the
// way agents serves MCP 2026-07-28 (createMcpHandler from agents/mcp/server), not rewritten.
import { McpAgent } from 'agents/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export class BookingAgent extends McpAgent {
  server = new McpServer({ name: 'bookings', version: '1.0.0' });

  async init() {
    this.server.registerTool('book', { inputSchema: { room: z.string() } }, async ({ room }) => {
      // mcp-migrate: elicitation request through McpAgent's this.server.server.elicitInput(): McpAgent (agents/mcp) is deprecated and runs an SDK 1.x server only; agents serves MCP 2026-07-28 through createMcpHandler from agents/mcp/server (0.32.0 checked); move the tools to a function that builds an @modelcontextprotocol/server McpServer, serve it with createMcpHandler(factory), and return inputRequired({ inputRequests: { key: inputRequired.elicit({...}) | inputRequired.createMessage({...}) } }) from the tool and read the answer on the retry with acceptedContent(ctx.mcpReq.inputResponses, key) or inputResponse(...)
      const answer = await this.server.server.elicitInput({
        message: `Book ${room}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      });
      return { content: [{ type: 'text', text: answer.action }] };
    });
    this.server.registerTool('notes', { inputSchema: {} }, async () => {
      // mcp-migrate: elicitation request through McpAgent's this.elicitInput(): McpAgent (agents/mcp) is deprecated and runs an SDK 1.x server only; agents serves MCP 2026-07-28 through createMcpHandler from agents/mcp/server (0.32.0 checked); move the tools to a function that builds an @modelcontextprotocol/server McpServer, serve it with createMcpHandler(factory), and return inputRequired({ inputRequests: { key: inputRequired.elicit({...}) | inputRequired.createMessage({...}) } }) from the tool and read the answer on the retry with acceptedContent(ctx.mcpReq.inputResponses, key) or inputResponse(...)
      const answer = await this.elicitInput({ message: 'Any notes?', requestedSchema: { type: 'object', properties: { notes: { type: 'string' } } } });
      return { content: [{ type: 'text', text: answer.action }] };
    });
  }
}
