import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CountingStdioTransport } from './transport.js';

/** The server, built once, and how it is served. */
export class FilesApp {
  private readonly sdkServer = new McpServer({ name: 'wrapped-transport', version: '0.3.0' });
  private readonly transport = new CountingStdioTransport();
  private readonly names = new Map<string, string>([['a.txt', 'alpha'], ['b.txt', 'beta']]);

  constructor() {
    this.sdkServer.registerTool(
      'rename',
      { description: 'Rename a file; asks before overwriting', inputSchema: { from: z.string(), to: z.string() } },
      async ({ from, to }) => {
        if (!this.names.has(from)) return { content: [{ type: 'text', text: `${from}: no such file` }], isError: true };
        if (this.names.has(to)) {
          const answer = await this.sdkServer.server.elicitInput({
            message: `${to} exists. Overwrite it?`,
            requestedSchema: { type: 'object', properties: { overwrite: { type: 'boolean', title: 'Overwrite' } }, required: ['overwrite'] },
          });
          if (answer.action !== 'accept' || answer.content?.overwrite !== true) return { content: [{ type: 'text', text: `kept ${to}` }] };
        }
        this.names.set(to, this.names.get(from)!);
        this.names.delete(from);
        return { content: [{ type: 'text', text: `${from} -> ${to}` }] };
      },
    );
    this.sdkServer.registerTool('files', { description: 'The files there are' }, async () => ({
      content: [{ type: 'text', text: [...this.names.keys()].sort().join(', ') }],
    }));
  }

  async start(): Promise<void> {
    await this.sdkServer.connect(this.transport);
  }
}
