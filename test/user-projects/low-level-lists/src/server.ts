import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { trackClient } from './lifecycle.js';
import { defs, findDef, ToolInputError } from './tools/index.js';

export function createServer(): Server {
  const server = new Server({ name: 'low-level-lists', version: '0.3.1' }, { capabilities: { tools: {} } });

  trackClient(server);

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    return { tools: defs.map(d => ({ name: d.name, description: d.description, inputSchema: d.inputSchema })) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const def = findDef(request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      const text = await def.run(request.params.arguments ?? {}, server);
      return { content: [{ type: 'text', text }] };
    } catch (error) {
      if (error instanceof ToolInputError) return { content: [{ type: 'text', text: error.message }], isError: true };
      throw error;
    }
  });

  return server;
}
