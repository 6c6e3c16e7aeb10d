import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { confirmRead } from './helpers/paths.js';

export function registerFileTools(server: McpServer, base: string): void {
  server.registerTool(
    'read_file',
    { description: 'Read a file under the base folder, with the user’s consent', inputSchema: { path: z.string() } },
    async ({ path }) => {
      const checked = await confirmRead(server, path, base);
      if (!checked.ok) return { content: [{ type: 'text', text: checked.reason }], isError: true };
      const body = readFileSync(checked.full, 'utf8');
      return { content: [{ type: 'text', text: `${checked.size} bytes\n${body}` }] };
    },
  );
}
