import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** What every tool is handed when it runs. */
export interface ToolContext {
  server: McpServer;
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
}

/** One entry of the tool table: registered by the loop in index.ts. */
export interface ToolDef {
  name: string;
  description: string;
  schema: z.ZodObject;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  invoke(args: any, ctx: ToolContext): Promise<CallToolResult>;
}

export function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}
