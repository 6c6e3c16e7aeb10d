// Requests inside awaited callbacks that stay marked, each with the redesign to make. JavaScript: async-mutex
// is not installed where the fixtures' outputs are typechecked.
import { McpServer } from '@modelcontextprotocol/server';
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
server.registerTool('raise-quota', { inputSchema: z.object({}) }, async () => {
  const limit = await quotaLock.runExclusive(async () => {
    // mcp-migrate: elicitation request in a callback passed to runExclusive(), which holds a lock while the callback runs: split, the lock would be released between rounds while the client answers; move the question out of the callback: ask before taking the lock, then make the change under it with the answer
    const answer = await server.server.elicitInput({ message: `New limit (now ${quota.limit})?`, requestedSchema: { type: 'object', properties: { limit: { type: 'integer' } }, required: ['limit'] } });
    if (answer.action === 'accept') quota.limit = Number(answer.content?.limit);
    return quota.limit;
  });
  return { content: [{ type: 'text', text: `limit ${limit}` }] };
});

// The wrapper's value is not the callback's.
server.registerTool('timed', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
  // mcp-migrate: elicitation request in a callback passed to measured(), which does not return the callback's value as it is; move the request out of the callback: await it in the handler before calling measured(), and hand the answer in
  const { value } = await measured(async () => server.server.elicitInput({ message: q, requestedSchema: { type: 'object', properties: {} } }));
  return { content: [{ type: 'text', text: value.action }] };
});

// The span's attributes are set before the question and read after it: a fresh span each round would not have them.
server.registerTool('traced', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  return tracer.span('traced', async span => {
    span.attributes.id = id;
    // mcp-migrate: sampling request in a callback passed to span(), whose parameter "span" is changed before the question (span.attributes.id = id) in a way read after it: span() makes it again each round, without that change; ask before changing it, or keep what it holds in a local
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return { content: [{ type: 'text', text: `${span.attributes.id}: ${reply.model}` }] };
  });
});

// The handler keeps the wrapper's value instead of returning it: an input_required result would not reach the client.
server.registerTool('kept', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  const text = await tracer.span('kept', async () => {
    // mcp-migrate: sampling request in a callback passed to span(): the handler does not return the wrapper's call directly, so an input_required result from the callback would not reach the client; write it `return tracer.span(...)` as the handler's last statement, or move the request out of the callback
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return reply.model;
  });
  return { content: [{ type: 'text', text }] };
});
