import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

type Extra = ServerContext;

/** A server whose tools are registered through a private method that hands each handler on unchanged. */
class ConfirmServer {
  readonly server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

  constructor() {
    this.reg('confirm', async (a, extra) => this.confirm(a, extra));
  }

  private reg(name: string, cb: (a: any, extra: any) => Promise<CallToolResult>) {
    resumable(this.server).registerTool(name, { inputSchema: z.object({ what: z.string() }) }, cb);
  }

  private async confirm(a: { what: string }, extra: Extra): Promise<CallToolResult> {
    const answer = await ask(this.server.server, 'answer').elicitInput({
      message: `Really ${a.what}?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    if (answer.action !== 'accept' || answer.content?.ok !== true) return { content: [{ type: 'text', text: `${a.what}: not done (${answer.action})` }] };
    return { content: [{ type: 'text', text: `${a.what}: done` }] };
  }
}

export const server = new ConfirmServer().server;
