// Requests inside callbacks the handler hands to the project's own wrappers (a span that records itself in a
// finally, a deadline racing a timer): each request is asked where it is written and the handler's
// registration made resumable; the wrappers keep their code and run again on each round of a 2026-07-28 call.
// The spans tool reads back what the span's finally recorded: that finally, around the callback that asks,
// starts with rethrowIfSuspended(), so the span is recorded once per call; the deadline's finally only clears
// its timer, which each round sets again, and is left to run on each round.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, rethrowIfSuspended, verifyRequestState } from './mcp-migrate-state.js';

interface Span {
  name: string;
  attributes: Record<string, string | number>;
}

const finished: Span[] = [];

/** Runs the work inside a named span, in the style of OpenTelemetry's startActiveSpan. */
const tracer = {
  async span<T>(name: string, work: (span: Span) => Promise<T>): Promise<T> {
    const span: Span = { name, attributes: {} };
    try {
      return await work(span);
    } finally {
      rethrowIfSuspended();
      finished.push(span);
    }
  },
};

/** Rejects when the work takes longer than `ms`; otherwise resolves with its value. */
async function withDeadline<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

const server = new McpServer({ name: 'callbacks-in-span-and-deadline', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('archive', { inputSchema: z.object({ path: z.string() }) }, async ({ path }) => {
  return tracer.span('archive', async span => {
    span.attributes.path = path;
    const answer = await ask(server.server, 'answer').elicitInput({
      message: `Archive ${path}?`,
      requestedSchema: { type: 'object', properties: { keep: { type: 'integer', minimum: 1 } }, required: ['keep'] },
    });
    span.attributes.action = answer.action;
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${path} left as it is (${answer.action})` }] };
    return { content: [{ type: 'text', text: `archived ${path}, keeping ${answer.content?.keep} copies` }] };
  });
});

resumable(server).registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
  return withDeadline(async () => {
    const words = text.split(/\s+/).length;
    const reply = await ask(server.server, 'reply').createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }], maxTokens: 40 });
    const summary = reply.content.type === 'text' ? reply.content.text : '';
    return { content: [{ type: 'text', text: `${words} words: ${summary}` }] };
  }, 30_000);
});

server.registerTool('spans', { description: 'The spans finished so far' }, async () => {
  return { content: [{ type: 'text', text: finished.map(span => `${span.name} ${JSON.stringify(span.attributes)}`).join(' | ') || 'none' }] };
});
