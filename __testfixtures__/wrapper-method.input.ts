import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A server whose tools are registered through a private method that hands each handler on unchanged. */
class ConfirmServer {
  readonly server = new McpServer({ name: 'fixture', version: '1.0.0' });

  constructor() {
    this.reg('confirm', async (a, extra) => this.confirm(a, extra));
  }

  private reg(name: string, cb: (a: any, extra: any) => Promise<CallToolResult>) {
    this.server.registerTool(name, { inputSchema: { what: z.string() } }, cb);
  }

  private async confirm(a: { what: string }, extra: Extra): Promise<CallToolResult> {
    const answer = await this.server.server.elicitInput({
      message: `Really ${a.what}?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    if (answer.action !== 'accept' || answer.content?.ok !== true) return { content: [{ type: 'text', text: `${a.what}: not done (${answer.action})` }] };
    return { content: [{ type: 'text', text: `${a.what}: done` }] };
  }
}

export const server = new ConfirmServer().server;
