import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A tool that registers itself on the server it is given. */
export abstract class ToolModule {
  constructor(protected readonly server: McpServer) {}

  abstract register(): void;

  protected text(text: string) {
    return { content: [{ type: 'text' as const, text }] };
  }
}
