// Requests inside awaited callbacks: under a lock, through a wrapper that wraps the callback's value, in a
// span whose attributes are set before the question, and through a wrapper whose value the handler keeps.
// Each request is asked where it is written and nothing else moves; in JavaScript, as such servers are.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, journaled, resumable, verifyRequestState } from './mcp-migrate-state.mjs';

const server = new McpServer({ name: 'callbacks-under-lock-and-wrappers', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
const quota = { limit: 10 };

/** Runs one piece of work at a time, in the order asked (async-mutex's runExclusive). */
class Mutex {
  #tail = Promise.resolve();

  runExclusive(work) {
    const run = this.#tail.then(work, work);
    this.#tail = run.catch(() => undefined);
    return run;
  }
}

const quotaLock = new Mutex();

const tracer = {
  async span(name, work) {
    const span = { name, attributes: {} };
    return await work(span);
  },
};

/** Not a pass-through: it wraps the callback's value. */
async function measured(work) {
  const started = journaled(() => Date.now());
  const value = await work();
  return { value, ms: Date.now() - started };
}

// A lock held across the question: on a 2026-07-28 client the round ends while the question waits, the
// question then throws, and the lock is let go; the retry takes it again and finds its answer.
resumable(server).registerTool('raise-quota', { inputSchema: z.object({}) }, async () => {
  const limit = await quotaLock.runExclusive(async () => {
    const answer = await ask(server.server, 'answer').elicitInput({ message: `New limit (now ${quota.limit})?`, requestedSchema: { type: 'object', properties: { limit: { type: 'integer' } }, required: ['limit'] } });
    if (answer.action === 'accept') quota.limit = Number(answer.content?.limit);
    return quota.limit;
  });
  return { content: [{ type: 'text', text: `limit ${limit}` }] };
});

// The wrapper's value is not the callback's: nothing depends on it, the request is asked inside the callback.
resumable(server).registerTool('timed', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => {
  const { value } = await measured(async () => ask(server.server).elicitInput({ message: q, requestedSchema: { type: 'object', properties: {} } }));
  return { content: [{ type: 'text', text: value.action }] };
});

// The span's attributes are set before the question and read after it: each round makes its span and sets them again.
resumable(server).registerTool('traced', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  return tracer.span('traced', async span => {
    span.attributes.id = id;
    const reply = await ask(server.server, 'reply').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return { content: [{ type: 'text', text: `${span.attributes.id}: ${reply.model}` }] };
  });
});

// The handler keeps the wrapper's value instead of returning it: the round ends at the question all the same.
resumable(server).registerTool('kept', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
  const text = await tracer.span('kept', async () => {
    const reply = await ask(server.server, 'reply').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 5 });
    return reply.model;
  });
  return { content: [{ type: 'text', text }] };
});
