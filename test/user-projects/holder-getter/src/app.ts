import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export interface AppConfig {
  name: string;
  version: string;
  defaultRegion: string;
}

/** Owns the MCP server for the process: built lazily, reached through a getter or ensureServer(). */
export class DeployApp {
  private _server: McpServer | null = null;
  private readonly deployments: string[] = [];

  constructor(private readonly config: AppConfig) {}

  get server(): McpServer | null {
    return this._server;
  }

  get current(): McpServer | undefined {
    return this._server ?? undefined;
  }

  private ensureServer(): McpServer {
    if (!this._server) {
      this._server = new McpServer({ name: this.config.name, version: this.config.version });
      this.registerTools();
    }
    return this._server;
  }

  private registerTools(): void {
    const server = this.ensureServer();

    server.registerTool(
      'deploy',
      {
        description: 'Deploy a service after choosing the region',
        inputSchema: { service: z.string() },
      },
      async ({ service }) => {
        const mcp = this.ensureServer();
        const choice = await mcp.server.elicitInput({
          message: `Where should ${service} be deployed?`,
          requestedSchema: {
            type: 'object',
            properties: {
              region: { type: 'string', enum: ['eu-west', 'us-east', 'ap-south'], description: 'Region' },
            },
            required: ['region'],
          },
        });
        if (choice.action !== 'accept') {
          return { content: [{ type: 'text', text: `Deployment of ${service} stopped (${choice.action}).` }] };
        }
        const region = String(choice.content?.region ?? this.config.defaultRegion);
        this.deployments.push(`${service}@${region}`);
        return { content: [{ type: 'text', text: `Deployed ${service} to ${region} (${this.deployments.length} so far).` }] };
      },
    );

    server.registerTool(
      'release_notes',
      { description: 'Draft release notes for a service', inputSchema: { service: z.string(), changes: z.array(z.string()) } },
      async ({ service, changes }) => {
        const reply = await this.server!.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Release notes for ${service}:\n- ${changes.join('\n- ')}` } }],
          maxTokens: 200,
          systemPrompt: 'Write one paragraph.',
        });
        const text = reply.content.type === 'text' ? reply.content.text : '(no text)';
        return { content: [{ type: 'text', text: `# ${service}\n\n${text}` }] };
      },
    );

    server.registerTool(
      'workspace_roots',
      { description: 'List the client roots', inputSchema: { verbose: z.boolean().optional() } },
      async ({ verbose }) => {
        const current = this.current;
        if (!current) throw new Error('the server is not started');
        const { roots } = await current.server.listRoots();
        const names = roots.map(r => (verbose ? `${r.name ?? ''} ${r.uri}` : r.uri));
        return { content: [{ type: 'text', text: names.join('\n') || '(no roots)' }] };
      },
    );
  }

  async start(): Promise<void> {
    const transport = new StdioServerTransport();
    await this.ensureServer().connect(transport);
  }
}
