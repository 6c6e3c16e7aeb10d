import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

// One question per key of the record: each round runs the loop from its first key, the answers it has
// replayed, and ends at the key not answered yet.
resumable(server).registerTool('review-flags', { inputSchema: z.object({ flags: z.record(z.string(), z.boolean()) }) }, async ({ flags }) => {
  const kept: string[] = [];
  for (const flag in flags) {
    const answer = await ask(server.server, 'answer').elicitInput({
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
resumable(server).registerTool('tag-files', { inputSchema: z.object({ files: z.array(z.string()) }) }, async ({ files }) => {
  const tags: string[] = [];
  for await (const file of files) {
    const result = await ask(server.server, 'result').createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Tag ${file}` } }],
      maxTokens: 10,
    });
    tags.push(`${file}=${result.content.type === 'text' ? result.content.text : '?'}`);
  }
  return { content: [{ type: 'text', text: tags.join(', ') || 'no files' }] };
});

// A for...in around a try/finally: the finally starts with rethrowIfSuspended(), so it runs once per key,
// on the round that finishes it.
resumable(server).registerTool('audit', { inputSchema: z.object({ owners: z.record(z.string(), z.string()) }) }, async ({ owners }) => {
  const log: string[] = [];
  for (const path in owners) {
    try {
      const { roots } = await ask(server.server).listRoots();
      if (roots.length === 0) continue;
      log.push(`${path} (${owners[path]}) in ${roots.length} roots`);
    } finally {
      rethrowIfSuspended();
      log.push(`checked ${path}`);
    }
  }
  return { content: [{ type: 'text', text: log.join('; ') || 'nothing to audit' }] };
});
