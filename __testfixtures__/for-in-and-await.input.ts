import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' });

// One question per key of the record: each round runs the loop from its first key, the answers it has
// replayed, and ends at the key not answered yet.
server.registerTool('review-flags', { inputSchema: { flags: z.record(z.string(), z.boolean()) } }, async ({ flags }) => {
  const kept: string[] = [];
  for (const flag in flags) {
    const answer = await server.server.elicitInput({
      message: `Keep ${flag} (now ${flags[flag] ? 'on' : 'off'})?`,
      requestedSchema: { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] },
    });
    if (answer.action === 'cancel') break;
    if (answer.action !== 'accept') continue;
    if (answer.content?.keep) kept.push(flag);
  }
  return { content: [{ type: 'text', text: `kept ${kept.length}: ${kept.join(', ')}` }] };
});

// for await over a plain array: each element is awaited, then sampled.
server.registerTool('tag-files', { inputSchema: { files: z.array(z.string()) } }, async ({ files }) => {
  const tags: string[] = [];
  for await (const file of files) {
    const result = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Tag ${file}` } }],
      maxTokens: 10,
    });
    tags.push(`${file}=${result.content.type === 'text' ? result.content.text : '?'}`);
  }
  return { content: [{ type: 'text', text: tags.join(', ') || 'no files' }] };
});

// A for...in around a try/finally: the finally starts with rethrowIfSuspended(), so it runs once per key,
// on the round that finishes it.
server.registerTool('audit', { inputSchema: { owners: z.record(z.string(), z.string()) } }, async ({ owners }) => {
  const log: string[] = [];
  for (const path in owners) {
    try {
      const { roots } = await server.server.listRoots();
      if (roots.length === 0) continue;
      log.push(`${path} (${owners[path]}) in ${roots.length} roots`);
    } finally {
      log.push(`checked ${path}`);
    }
  }
  return { content: [{ type: 'text', text: log.join('; ') || 'nothing to audit' }] };
});
