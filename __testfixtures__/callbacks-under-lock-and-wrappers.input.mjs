// Requests inside awaited callbacks that stay marked, each with the redesign to make. JavaScript: async-mutex
// is not installed where the fixtures' outputs are typechecked.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Mutex } from 'async-mutex';
import { z } from 'zod';

const server = new McpServer({ name: 'awaited-callbacks-refused', version: '1.0.0' });
const quota = { limit: 10 };
const quotaLock = new Mutex();

const tracer = {
  async span(name, work) {
    const span = { name, attributes: {} };
    return await work(span);
  },
};

/** Not a pass-through: it wraps the callback's value. */
async function measured(work) {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

// A lock held across the question cannot be held between rounds.
server.registerTool('raise-quota', { inputSchema: {} }, async () => {
  const limit = await quotaLock.runExclusive(async () => {
    const answer = await server.server.elicitInput({ message: `New limit (now ${quota.limit})?`, requestedSchema: { type: 'object', properties: { limit: { type: 'integer' } }, required: ['limit'] } });
    if (answer.action === 'accept') quota.limit = Number(answer.content?.limit);
    return quota.limit;
  });
  return { content: [{ type: 'text', text: `limit ${limit}` }] };
});

// The wrapper's value is not the callback's.
server.registerTool('timed', { inputSchema: { q: z.string() } }, async ({ q }) => {
  const { value } = await measured(async () => server.server.elicitInput({ message: q, requestedSchema: { type: 'object', properties: {} } }));
  return { content: [{ type: 'text', text: value.action }] };
});

// The span's attributes are set before the question and read after it: a fresh span each round would not have them.
server.registerTool('traced', { inputSchema: { id: z.string() } }, async ({ id }) => {
  return tracer.span('traced', async span => {
    span.attributes.id = id;
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return { content: [{ type: 'text', text: `${span.attributes.id}: ${reply.model}` }] };
  });
});

// The handler keeps the wrapper's value instead of returning it: an input_required result would not reach the client.
server.registerTool('kept', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const text = await tracer.span('kept', async () => {
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return reply.model;
  });
  return { content: [{ type: 'text', text }] };
});
