// Requests inside awaited callbacks that stay marked, each with the redesign to make. JavaScript: async-mutex
// is not installed where the fixtures' outputs are typechecked.
import { McpServer } from '@modelcontextprotocol/server';
import { Mutex } from 'async-mutex';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.mjs';

const server = new McpServer({ name: 'awaited-callbacks-refused', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
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
resumable(server).registerTool('raise-quota', { inputSchema: z.object({}) }, async () => {
  const limit = await quotaLock.runExclusive(async () => {
    const answer = await ask(server.server, 'answer').elicitInput({ message: `New limit (now ${quota.limit})?`, requestedSchema: { type: 'object', properties: { limit: { type: 'integer' } }, required: ['limit'] } });
    if (answer.action === 'accept') quota.limit = Number(answer.content?.limit);
    return quota.limit;
  });
  return { content: [{ type: 'text', text: `limit ${limit}` }] };
});

// The wrapper's value is not the callback's.
resumable(server).registerTool('timed', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
  const { value } = await measured(async () => ask(server.server).elicitInput({ message: q, requestedSchema: { type: 'object', properties: {} } }));
  return { content: [{ type: 'text', text: value.action }] };
});

// The span's attributes are set before the question and read after it: a fresh span each round would not have them.
resumable(server).registerTool('traced', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  return tracer.span('traced', async span => {
    span.attributes.id = id;
    const reply = await ask(server.server, 'reply').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return { content: [{ type: 'text', text: `${span.attributes.id}: ${reply.model}` }] };
  });
});

// The handler keeps the wrapper's value instead of returning it: an input_required result would not reach the client.
resumable(server).registerTool('kept', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  const text = await tracer.span('kept', async () => {
    const reply = await ask(server.server, 'reply').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return reply.model;
  });
  return { content: [{ type: 'text', text }] };
});
