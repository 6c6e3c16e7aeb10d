import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { reviews } from '../store.js';

/** The release checklist: every entry is confirmed on its own. */
const RELEASE_CHECKLIST = [
  'Changelog updated',
  'Version bumped',
  'Migrations reviewed',
  'Feature flags set',
  'Docs published',
  'Translations merged',
  'Load test passed',
  'Security scan clean',
  'Backups verified',
  'Rollback plan written',
  'On-call informed',
  'Status page drafted',
];

export function registerChecklistTool(server: McpServer): void {
  server.registerTool(
    'review_checklist',
    { description: 'Walk through the release checklist, one confirmation per entry', inputSchema: { release: z.string() } },
    async ({ release }) => {
      const done: string[] = [];
      let stoppedAt: string | undefined;
      for (const entry of RELEASE_CHECKLIST) {
        const answer = await server.server.elicitInput({
          message: `${release}: ${entry}?`,
          requestedSchema: { type: 'object', properties: { done: { type: 'boolean', title: 'Done' } }, required: ['done'] },
        });
        if (answer.action === 'cancel') {
          stoppedAt = entry;
          break;
        }
        if (answer.action === 'accept' && answer.content?.done === true) done.push(entry);
      }
      reviews.push({ list: release, accepted: done.length, of: RELEASE_CHECKLIST.length });
      const tail = stoppedAt ? `, stopped at "${stoppedAt}"` : '';
      return { content: [{ type: 'text', text: `${release}: ${done.length}/${RELEASE_CHECKLIST.length} done${tail}` }] };
    },
  );
}
