import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { published } from '../store.js';

/** Counts the words of a text, lower-cased, as the report's tags. */
function tagsOf(text: string): Map<string, number> {
  const tags = new Map<string, number>();
  for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) tags.set(word, (tags.get(word) ?? 0) + 1);
  return tags;
}

export function registerReportTool(server: McpServer): void {
  server.registerTool(
    'publish_report',
    { description: 'Publish a weekly report after a confirmation', inputSchema: { title: z.string(), body: z.string() } },
    async ({ title, body }) => {
      const report: { title: string; meta: { words: number; tags: Map<string, number> } } = {
        title,
        meta: { words: body.split(/\s+/).filter(Boolean).length, tags: tagsOf(body) },
      };
      const top = [...report.meta.tags].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 2).map(([tag]) => tag);
      const summary = `${report.title} (${report.meta.words} words; ${top.join(', ')})`;

      const answer = await server.server.elicitInput({
        message: `Publish ${summary}?`,
        requestedSchema: { type: 'object', properties: { publish: { type: 'boolean', title: 'Publish' } }, required: ['publish'] },
      });
      if (answer.action === 'accept' && answer.content?.publish === true) {
        published.push(summary);
        return { content: [{ type: 'text', text: `Published ${summary}` }] };
      }
      return { content: [{ type: 'text', text: `Kept ${summary} as a draft (${answer.action})` }] };
    },
  );
}
