import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

// Servers reached through a factory, a nullable field, a getter and a method: found by their types.
const createServer = () => new McpServer({ name: 'holders', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

export class Tools {
  private server: McpServer | null = null;

  private ensureServer(): McpServer {
    if (!this.server) this.server = createServer();
    return this.server;
  }

  get mcp(): McpServer | undefined {
    return this.server ?? undefined;
  }

  register(): void {
    const server = this.ensureServer();
    resumable(server).registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }) => {
      const answer = await ask(server.server, 'answer').elicitInput({
        message: `Run ${action}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      const ran = answer.action === 'accept' && answer.content?.ok === true;
      return { content: [{ type: 'text', text: ran ? `ran ${action}` : `skipped ${action} (${answer.action})` }] };
    });
    resumable(this.server!).registerTool('count-roots', {}, async () => {
      const { roots } = await ask(this.server!.server).listRoots();
      return { content: [{ type: 'text', text: `${roots.length} roots` }] };
    });
    resumable(this.mcp)?.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
      const reply = await ask(this.mcp!.server, 'reply').createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
        maxTokens: 50,
      });
      return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
    });
  }

  async start(): Promise<void> {
    const server = this.ensureServer();
    serveStdio(() => server);
  }
}

const tools = new Tools();
tools.register();
