import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

// Servers reached through a factory, a nullable field, a getter and a method: found by their types.
const createServer = () => new McpServer({ name: 'holders', version: '1.0.0' });

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
    server.registerTool('confirm', { inputSchema: { action: z.string() } }, async ({ action }) => {
      const answer = await server.server.elicitInput({
        message: `Run ${action}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      const ran = answer.action === 'accept' && answer.content?.ok === true;
      return { content: [{ type: 'text', text: ran ? `ran ${action}` : `skipped ${action} (${answer.action})` }] };
    });
    this.server!.registerTool('count-roots', {}, async () => {
      const { roots } = await this.server!.server.listRoots();
      return { content: [{ type: 'text', text: `${roots.length} roots` }] };
    });
    this.mcp?.registerTool('summarize', { inputSchema: { text: z.string() } }, async ({ text }) => {
      const reply = await this.mcp!.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
        maxTokens: 50,
      });
      return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
    });
  }

  async start(): Promise<void> {
    await this.ensureServer().connect(new StdioServerTransport());
  }
}

const tools = new Tools();
tools.register();
