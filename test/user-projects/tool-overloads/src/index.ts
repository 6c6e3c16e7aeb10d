#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'kitchen-sink', version: '1.0.0' });

const confirmSchema = {
  type: 'object' as const,
  properties: { ok: { type: 'boolean' as const, title: 'OK' } },
  required: ['ok'],
};

// name, callback
server.tool('ping', async () => ({ content: [{ type: 'text', text: 'pong' }] }));

// name, description, callback
server.tool('roots_count', 'Count the client roots', async () => {
  const { roots } = await server.server.listRoots();
  return { content: [{ type: 'text', text: `${roots.length} roots` }] };
});

// name, params schema, callback
server.tool('echo', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));

// name, description, params schema, callback
server.tool('confirm_send', 'Send a message after confirming', { to: z.string(), body: z.string() }, async ({ to, body }) => {
  const answer = await server.server.elicitInput({ message: `Send "${body}" to ${to}?`, requestedSchema: confirmSchema });
  const sent = answer.action === 'accept' && answer.content?.ok === true;
  return { content: [{ type: 'text', text: sent ? `Sent to ${to}.` : `Not sent (${answer.action}).` }] };
});

// name, params schema, annotations, callback
server.tool('wipe_cache', { scope: z.enum(['all', 'images']) }, { destructiveHint: true, title: 'Wipe cache' }, async ({ scope }) => {
  const answer = await server.server.elicitInput({ message: `Wipe the ${scope} cache?`, requestedSchema: confirmSchema });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: `Cache kept (${answer.action}).` }] };
  return { content: [{ type: 'text', text: answer.content?.ok ? `Wiped ${scope}.` : 'Cache kept.' }] };
});

// name, description, params schema, annotations, callback
server.tool(
  'haiku',
  'Write a haiku with the client model',
  { topic: z.string() },
  { readOnlyHint: true, openWorldHint: false },
  async ({ topic }) => {
    const reply = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `A haiku about ${topic}` } }],
      maxTokens: 60,
    });
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
  },
);

// name, annotations, callback
server.tool('status', { readOnlyHint: true }, async () => ({ content: [{ type: 'text', text: 'all systems go' }] }));

await server.connect(new StdioServerTransport());
