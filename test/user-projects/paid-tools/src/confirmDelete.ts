import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { config } from './config.js';

/** Whether the user agrees to delete a file of this size (small files need no question). */
export async function confirmDelete(server: McpServer, name: string, bytes: number): Promise<boolean> {
  if (bytes < config.askAboveBytes) return true;
  const where = config.trash ? 'to the trash' : 'for good';
  const answer = await server.server.elicitInput({
    message: `Delete ${name} (${bytes} bytes) ${where}?`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  return answer.action === 'accept' && answer.content?.confirm === true;
}
