/**
 * src/upgrade/repairs/contextCasts.ts: handler context members read through a cast, moved where SDK 2.x keeps them
 * (or marked).
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('handler context members read through a cast', () => {
  it('moves each read where SDK 2.x keeps it, the cast narrowed to what it read', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('count', { inputSchema: { n: z.number() } }, async ({ n }, extra) => {
  const signal = (extra as { signal?: AbortSignal }).signal;
  const token = (extra as any)._meta?.progressToken;
  const notify = (extra as unknown as { sendNotification: (n: unknown) => Promise<void> }).sendNotification;
  if (!signal?.aborted && token !== undefined) await notify({ method: 'notifications/progress', params: { progressToken: token, progress: n } });
  return { content: [] };
});
`);
    expect(text).toContain("const signal = (ctx.mcpReq.signal as ({ signal?: AbortSignal })['signal']);");
    expect(text).toContain('const token = (ctx.mcpReq._meta as any)?.progressToken;');
    expect(text).toContain(
      "const notify = (ctx.mcpReq.notify as unknown as ({ sendNotification: (n: unknown) => Promise<void> })['sendNotification']);",
    );
    expect(text).not.toContain('@mcp-codemod-error');
    expect(notes).toContainEqual(expect.stringMatching(/^info: the handler context "ctx" read through a cast \(/));
  });

  it('marks reads it cannot move: a context typed unknown, and a local holding the cast', () => {
    const { text } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('wait', { inputSchema: { ms: z.number() } }, async ({ ms }, context: unknown) => {
  const aborted = (context as { signal: AbortSignal }).signal.aborted;
  return { content: [{ type: 'text', text: String(aborted || ms) }] };
});
server.registerTool('send', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
  const c = extra as unknown as { sendNotification: (n: unknown) => Promise<void> };
  await c.sendNotification({ method: 'notifications/message', params: { level: 'info', data: ms } });
  return { content: [] };
});
`);
    expect(text).toContain(
      '/* @mcp-codemod-error the handler context "context" is read through a cast ((context as { signal: AbortSignal }).signal): SDK 2.x moved these members (signal → context.mcpReq.signal)',
    );
    expect(text).toContain(
      '/* @mcp-codemod-error the handler context "ctx" is read through a cast (c.sendNotification): SDK 2.x moved these members (sendNotification → ctx.mcpReq.notify)',
    );
    expect(text).toContain('(context as { signal: AbortSignal }).signal.aborted');
  });
});
