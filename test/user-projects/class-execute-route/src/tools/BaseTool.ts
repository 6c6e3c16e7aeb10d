import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShape } from 'zod';

/** The shape many servers grow into: one class per tool, registered in a loop. */
export abstract class BaseTool<Args> {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly schema: ZodRawShape;

  constructor(protected readonly server: McpServer) {}

  abstract execute(args: Args): Promise<CallToolResult>;

  register(): void {
    this.server.registerTool(this.name, { description: this.description, inputSchema: this.schema }, async args => this.execute(args as Args));
  }

  protected ok(text: string): CallToolResult {
    return { content: [{ type: 'text', text }] };
  }
}
