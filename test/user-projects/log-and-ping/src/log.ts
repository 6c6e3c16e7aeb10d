import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

type Level = 'debug' | 'info' | 'notice' | 'warning' | 'error';

/** The project's own log line, sent to the client as well as to stderr. */
export async function logLine(server: McpServer, level: Level, text: string): Promise<void> {
  console.error(`[${level}] ${text}`);
  await server.sendLoggingMessage({ level, logger: 'inventory', data: text });
}
